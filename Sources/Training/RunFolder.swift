import Detection
import Foundation

/// A training run's folder and everything in it: `config.yaml` (the resolved config, written
/// once, rewritten only when a resume extends the run), `train.log`, `metrics.csv`,
/// `report.html` (the run page), `checkpoints/`, and `validation/` (the latest evaluation, and
/// each validation's files in `validation/step-N/`).
public struct RunFolder: Sendable {
    public let url: URL

    public init(_ url: URL) { self.url = url }

    public var path: String { url.path }
    public var name: String { url.lastPathComponent }
    public var configFile: URL { url.appendingPathComponent("config.yaml") }
    public var logFile: URL { url.appendingPathComponent("train.log") }
    public var metricsFile: URL { url.appendingPathComponent("metrics.csv") }
    public var checkpoints: CheckpointStore { CheckpointStore(folder: url.appendingPathComponent("checkpoints")) }
    public var validation: URL { url.appendingPathComponent("validation") }
    /// The evaluation files of the validation at `step`, kept for good.
    public func validationHistory(step: Int) -> URL { validation.appendingPathComponent(String(format: "step-%08d", step)) }
    /// TensorBoard event files (`tensorboard --logdir Experiments` shows every run).
    public var tensorboard: URL { url.appendingPathComponent("tensorboard") }
    /// The run's page: training curves above the latest validation.
    public var reportFile: URL { url.appendingPathComponent("report.html") }

    /// The lock a trainer holds while it uses the folder.
    public var lockFile: URL { url.appendingPathComponent(".lock") }

    /// True when the folder holds a run that never wrote a checkpoint (killed before its first):
    /// it may be started again from nothing.
    var hasNoCheckpoint: Bool {
        FileManager.default.fileExists(atPath: configFile.path) && !FileManager.default.fileExists(atPath: checkpoints.last.path)
    }

    /// A new run: the folder is created and locked, and the resolved config written. A folder that
    /// already holds a run with a checkpoint, or anything else, is refused (resume it instead, or
    /// choose another name); a run that never wrote a checkpoint is cleared and started again.
    public static func create(_ url: URL, config: RunConfig) throws -> (folder: RunFolder, lock: RunLock) {
        let folder = RunFolder(url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let lock = try RunLock(folder)
        let fm = FileManager.default
        let items = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0 != ".lock" }
        if !items.isEmpty {
            guard folder.hasNoCheckpoint else { throw TrainingError.runExists(url.path) }
            for item in items { try fm.removeItem(at: url.appendingPathComponent(item)) }
        }
        try Data(try ConfigLoader.yaml(config).utf8).write(to: folder.configFile, options: .atomic)
        return (folder, lock)
    }

    /// Keys a resumed run may change: more steps (to extend a finished or early-stopped run) and its patience.
    static let extendableKeys: Set<String> = ["steps", "patience"]

    /// An existing run and the config it goes on with; `given`, if any, must be the config it was
    /// started with, except that it may extend the run (more `steps`, another `patience`): then
    /// config.yaml is rewritten with them and `extendedFrom` is the step count it had.
    public static func open(_ url: URL, expecting given: RunConfig?) throws -> (folder: RunFolder, config: RunConfig, extendedFrom: Int?) {
        let folder = RunFolder(url)
        guard FileManager.default.fileExists(atPath: folder.configFile.path) else { throw TrainingError.notARun(url.path) }
        guard let text = try? String(contentsOf: folder.configFile, encoding: .utf8) else { throw TrainingError.notARun(url.path) }
        let saved = try ConfigLoader.load(yaml: text, source: folder.configFile.path)
        guard let given else { return (folder, saved, nil) }
        let differing = ConfigLoader.differingKeys(saved, given)
        if differing.isEmpty { return (folder, saved, nil) }
        guard Set(differing).isSubset(of: extendableKeys), given.steps >= saved.steps else {
            throw TrainingError.configChanged(url.path, keys: differing)
        }
        try Data(try ConfigLoader.yaml(given).utf8).write(to: folder.configFile, options: .atomic)
        return (folder, given, saved.steps)
    }
}

/// Why a run stopped early or could not start.
public enum TrainingError: Error, CustomStringConvertible {
    case runExists(String)
    case notARun(String)
    case runInUse(String, process: Int32?)
    case configChanged(String, keys: [String])
    case nonFinite(step: Int, what: String, lastCheckpoint: Int?, folder: String)

    public var description: String {
        switch self {
        case .runExists(let path):
            return "\(path) already exists: pass --resume to continue that run, or choose another --name"
        case .notARun(let path):
            return "\(path): not a run folder to resume (no config.yaml); start it without --resume"
        case .runInUse(let path, let process):
            return "\(path) is in use by \(process.map { "process \($0)" } ?? "another process") (a trainer holds its lock); wait for it to end, or choose another --name"
        case .configChanged(let path, let keys):
            return "\(path)/config.yaml: the run was started with another config (differs at \(keys.joined(separator: ", "))); a resumed run keeps its config, except that it may be extended with more steps (--set steps=N) or another patience"
        case .nonFinite(let step, let what, let last, let folder):
            let kept = last.map { "the last good checkpoint (step \($0)) is kept in \(folder)/checkpoints/last" } ?? "no checkpoint had been written yet"
            return "step \(step): \(what); training stopped, \(kept). Try a lower optimizer.learning_rate or optimizer.clip_grad_norm."
        }
    }
}

extension RunFolder {
    /// Refuses a folder that already holds a run with a checkpoint, or anything that is not a run.
    static func ensureFree(_ url: URL) throws {
        let fm = FileManager.default
        let items = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0 != ".lock" }
        if !items.isEmpty && !RunFolder(url).hasNoCheckpoint { throw TrainingError.runExists(url.path) }
    }
}

/// A run folder's lock (an advisory `flock` on `.lock`, holding the owner's process id): two
/// trainers never use one run at once. Released when this is released or the process ends.
public final class RunLock {
    private let descriptor: Int32

    /// Takes the lock of `folder`, or says which process holds it.
    public init(_ folder: RunFolder) throws {
        let path = folder.lockFile.path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CheckpointError(path: path, problem: "cannot open the lock file (\(String(cString: strerror(errno))))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = read(fd, &buffer, buffer.count)
            close(fd)
            let holder = n > 0 ? Int32(String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            throw TrainingError.runInUse(folder.path, process: holder)
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
