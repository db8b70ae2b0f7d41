import Checkpoints
import Detection
import Foundation
import Outputs

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
    /// Written when the run is created: what makes a folder recognisably a run of ours.
    public var markerFile: URL { url.appendingPathComponent(Self.markerName) }
    static let markerName = ".uidetect-run"

    /// What a folder named as a run holds.
    enum Contents: Equatable {
        case absent, empty, file
        /// A run of ours: its marker, or (runs made before the marker) config.yaml, train.log and metrics.csv.
        case run
        /// Anything else: never touched.
        case other([String])
    }

    var contents: Contents {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else { return .absent }
        guard isFolder.boolValue else { return .file }
        let items = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0 != ".lock" }.sorted()
        if items.isEmpty { return .empty }
        let legacy = [configFile, logFile, metricsFile].allSatisfy { fm.fileExists(atPath: $0.path) }
        return items.contains(Self.markerName) || legacy ? .run : .other(items)
    }

    /// A new run: the folder is created (or taken when empty) and locked, and the marker and the
    /// resolved config written. A folder holding a run, or anything else, is refused, never cleared.
    public static func create(_ url: URL, config: RunConfig) throws -> (folder: RunFolder, lock: RunLock) {
        try create(url, configYAML: try ConfigLoader.yaml(config))
    }

    /// A new run of any kind (a detector's, an icon classifier's) whose resolved config is `configYAML`.
    public static func create(_ url: URL, configYAML: String) throws -> (folder: RunFolder, lock: RunLock) {
        let folder = RunFolder(url)
        try ensureFree(url)
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw CheckpointError(path: url.path, problem: FileProblem.reason(error))
        }
        let lock = try RunLock(folder)
        try ensureFree(url)  // again under the lock: another trainer may have started here meanwhile
        try OutputFile.write(Data("{\"format\": \"uidetect-run-1\"}\n".utf8), to: folder.markerFile)
        try OutputFile.write(Data(configYAML.utf8), to: folder.configFile)
        return (folder, lock)
    }

    /// Keys a resumed run may change: more steps (to extend a finished or early-stopped run) and its patience.
    static let extendableKeys: Set<String> = ["steps", "patience"]

    /// An existing run and the config it goes on with, config.yaml read once: its own, with
    /// `overrides` applied, or `given` (a config file's, with the overrides), which must be the
    /// run's except that it may extend the run (more `steps`, another `patience`): `extendedFrom`
    /// is then the step count it had. Nothing is written here: an extension is recorded
    /// (`recordExtension`) only once the run has loaded and goes on.
    public static func open(_ url: URL, given: RunConfig?, overrides: [String]) throws -> (folder: RunFolder, config: RunConfig, extendedFrom: Int?) {
        let folder = try requireRun(url)
        let text = try folder.configText()
        let saved = try ConfigLoader.load(yaml: text, source: folder.configFile.path)
        let given = try given ?? (overrides.isEmpty ? saved : ConfigLoader.load(yaml: text, source: folder.configFile.path, overrides: overrides))
        let differing = ConfigLoader.differingKeys(saved, given)
        if differing.isEmpty { return (folder, saved, nil) }
        guard Set(differing).isSubset(of: extendableKeys), given.steps >= saved.steps else {
            throw TrainingError.configChanged(url.path, keys: differing)
        }
        return (folder, given, saved.steps)
    }

    /// The run in `url`, or an error saying what is there instead (before anything is read, locked or written).
    static func requireRun(_ url: URL) throws -> RunFolder {
        let folder = RunFolder(url)
        switch folder.contents {
        case .run: return folder
        case .other(let items) where FileManager.default.fileExists(atPath: folder.configFile.path):
            throw TrainingError.notARun(url.path, holds: items)
        case .file: throw OutputError.fileWhereFolderExpected(path: url.path)
        default: throw TrainingError.notARun(url.path, holds: [])
        }
    }

    /// The text of the run's config.yaml, or an error naming it.
    public func configText() throws -> String {
        do { return try String(contentsOf: configFile, encoding: .utf8) } catch {
            throw ConfigError(source: configFile.path, key: "", problem: FileProblem.reason(error))
        }
    }

    /// Rewrites config.yaml with an extended config (more steps, another patience), atomically.
    func recordExtension(_ config: RunConfig) throws { try recordExtension(yaml: try ConfigLoader.yaml(config)) }

    func recordExtension(yaml: String) throws { try OutputFile.write(Data(yaml.utf8), to: configFile) }
}

/// Why a run stopped early or could not start.
public enum TrainingError: Error, CustomStringConvertible {
    case runExists(String)
    case notARun(String, holds: [String])
    case runInUse(String, process: Int32?)
    case configChanged(String, keys: [String])
    case nonFinite(step: Int, what: String, lastCheckpoint: Int?, folder: String)

    public var description: String {
        switch self {
        case .runExists(let path):
            return "\(path) already holds a run: pass --resume to continue it (a run that never wrote a checkpoint starts again from step 0), or choose another --name"
        case .notARun(let path, let items):
            if items.isEmpty { return "\(path): not a run folder to resume (no config.yaml written by uidetect train); start it without --resume" }
            return "\(path) is not a run folder of uidetect train (it holds \(items.prefix(3).joined(separator: ", "))\(items.count > 3 ? ", ..." : "")); "
                + "nothing in it is used or changed: choose another --name or --runs"
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
    /// Refuses a folder that already holds a run (with or without a checkpoint), or anything else.
    static func ensureFree(_ url: URL) throws {
        switch RunFolder(url).contents {
        case .absent, .empty: return
        case .run:
            _ = try RunLock(RunFolder(url))  // a run in use says so first (and which process has it)
            throw TrainingError.runExists(url.path)
        case .file: throw OutputError.fileWhereFolderExpected(path: url.path)
        case .other(let items): throw TrainingError.notARun(url.path, holds: items)
        }
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
