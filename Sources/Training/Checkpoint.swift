import Checkpoints
import Detection
import Engine
import Foundation
import Layers

/// Loss sums over the steps since the last `metrics.csv` row: kept in checkpoints, so that a
/// resumed run logs the same rows as an uninterrupted one.
public struct MetricsWindow: Equatable, Sendable {
    public var steps = 0
    public var loss = 0.0
    public var classification = 0.0
    public var box = 0.0
    public init() {}
}

/// What a run needs beyond the deployed weights to go on bit for bit: the step, the
/// optimizer's state, the best validation score so far, the open metrics window, and with an
/// EMA of the weights the raw weights (the checkpoint's model file then holds the average).
public struct TrainingState: Equatable, Sendable {
    public var step: Int
    public var bestMAP50: Double?
    public var bestStep: Int?
    public var optimizer: [String: [Float]]
    public var window = MetricsWindow()
    /// The weights the optimizer trains, when the model file holds their moving average.
    public var rawWeights: [NamedTensor] = []
    /// Updates the moving average has had.
    public var emaUpdates = 0
    /// Validations since the best one (early stopping counts them).
    public var validationsSinceBest = 0
    /// The run ended early, its patience spent.
    public var stoppedEarly = false

    public init(step: Int, bestMAP50: Double?, bestStep: Int?, optimizer: [String: [Float]], window: MetricsWindow = MetricsWindow()) {
        self.step = step
        self.bestMAP50 = bestMAP50
        self.bestStep = bestStep
        self.optimizer = optimizer
        self.window = window
    }

    static let rawPrefix = "raw."

    func write(to url: URL) throws {
        var tensors = optimizer.keys.sorted().map { NamedTensor(name: $0, shape: [optimizer[$0]!.count], values: optimizer[$0]!) }
        tensors += rawWeights.map { NamedTensor(name: Self.rawPrefix + $0.name, shape: $0.shape, values: $0.values) }
        var metadata = ["format": "uidetect-training-state-1", "step": String(step)]
        if let b = bestMAP50 { metadata["best_map50"] = String(b) }
        if let s = bestStep { metadata["best_step"] = String(s) }
        // Doubles print and parse back exactly in Swift.
        metadata["window"] = "\(window.steps) \(window.loss) \(window.classification) \(window.box)"
        metadata["ema_updates"] = String(emaUpdates)
        metadata["validations_since_best"] = String(validationsSinceBest)
        metadata["stopped_early"] = String(stoppedEarly)
        try Safetensors.write(tensors, metadata: metadata, to: url)
    }

    static func read(_ url: URL) throws -> TrainingState {
        let (tensors, metadata) = try Safetensors.read(url)
        guard let step = metadata["step"].flatMap({ Int($0) }) else { throw CheckpointError(path: url.path, problem: "metadata 'step' is missing") }
        guard step >= 0 else { throw CheckpointError(path: url.path, problem: "metadata 'step' is \(step); a training state's step is 0 or more") }
        var optimizer: [String: [Float]] = [:]
        var raw: [NamedTensor] = []
        for t in tensors {
            if t.name.hasPrefix(rawPrefix) {
                raw.append(NamedTensor(name: String(t.name.dropFirst(rawPrefix.count)), shape: t.shape, values: t.values))
            } else {
                optimizer[t.name] = t.values
            }
        }
        var window = MetricsWindow()
        if let parts = metadata["window"]?.split(separator: " "), parts.count == 4, let n = Int(parts[0]),
           let l = Double(parts[1]), let c = Double(parts[2]), let b = Double(parts[3]) {
            window.steps = n; window.loss = l; window.classification = c; window.box = b
        }
        var state = TrainingState(step: step, bestMAP50: metadata["best_map50"].flatMap { Double($0) },
                                  bestStep: metadata["best_step"].flatMap { Int($0) }, optimizer: optimizer, window: window)
        state.rawWeights = raw
        state.emaUpdates = metadata["ema_updates"].flatMap { Int($0) } ?? 0
        state.validationsSinceBest = metadata["validations_since_best"].flatMap { Int($0) } ?? 0
        state.stoppedEarly = metadata["stopped_early"] == "true"
        return state
    }
}

/// A run's `checkpoints/` folder: one folder per saved step (`step-00000500/` with
/// `model.safetensors` and `training_state.safetensors`), and `last` and `best` as symbolic
/// links to them. A step folder is written under a temporary name and renamed into place,
/// and a link is replaced by renaming a new link over it, so a crash at any moment leaves
/// `last` and `best` pointing at complete checkpoints.
public struct CheckpointStore {
    public static let modelFile = DetectorWeights.modelFile
    public static let stateFile = "training_state.safetensors"
    public let folder: URL

    public init(folder: URL) { self.folder = folder }

    public var last: URL { folder.appendingPathComponent("last") }
    public var best: URL { folder.appendingPathComponent("best") }

    /// Writes a complete checkpoint of `step` and points `last` (and `best` if asked) at it;
    /// `weights` says in the model file's metadata which weights it holds (raw or their average).
    public func save(model: SSDModel, classNames: [String], state: TrainingState, isBest: Bool, weights: String = "raw") throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = String(format: "step-%08d", state.step)
        let final = folder.appendingPathComponent(name)
        let temporary = folder.appendingPathComponent(".\(name).partial-\(getpid())")
        try? fm.removeItem(at: temporary)
        try fm.createDirectory(at: temporary, withIntermediateDirectories: true)
        try DetectorWeights.write(model, classNames: classNames, step: state.step, extra: ["weights": weights], to: temporary.appendingPathComponent(Self.modelFile))
        try state.write(to: temporary.appendingPathComponent(Self.stateFile))
        // A step folder is only ever rewritten by a session that resumed from an earlier step,
        // so no link points at it: it can go first.
        if fm.fileExists(atPath: final.path) { try fm.removeItem(at: final) }
        try rename(temporary, to: final)
        try point(last, at: name)
        if isBest { try point(best, at: name) }
        prune()
    }

    /// What `checkpoints/` holds: nothing yet, intact links to complete step folders, or damage
    /// (reported, never repaired by deleting anything).
    public enum Integrity: Equatable {
        case empty
        /// `last` (and `best`, if there) name complete step folders beside them.
        case intact(last: String, best: String?)
        case damaged(String)
    }

    public func integrity() -> Integrity {
        let fm = FileManager.default
        let items = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
        let steps = items.filter { $0.hasPrefix("step-") }.sorted()
        enum Link { case absent, names(String), damaged(String) }
        func target(_ link: URL) -> Link {
            var s = stat()
            guard lstat(link.path, &s) == 0 else { return .absent }
            guard (s.st_mode & S_IFMT) == S_IFLNK, let name = try? fm.destinationOfSymbolicLink(atPath: link.path) else {
                return .damaged("\(link.path) is not a symbolic link to a step folder")
            }
            // Links we write are relative, inside checkpoints/; one leading elsewhere is not ours to follow (or prune around).
            guard !name.contains("/"), name.hasPrefix("step-") else { return .damaged("\(link.path) points at \(name), outside this checkpoints folder") }
            let complete = [Self.modelFile, Self.stateFile].allSatisfy { fm.fileExists(atPath: folder.appendingPathComponent(name).appendingPathComponent($0).path) }
            return complete ? .names(name) : .damaged("\(link.path) points at \(name), which is missing or incomplete")
        }
        switch (target(last), target(best)) {
        case (.damaged(let problem), _), (_, .damaged(let problem)):
            return .damaged(problem)
        case (.names(let l), .names(let b)):
            return .intact(last: l, best: b)
        case (.names(let l), .absent):
            return .intact(last: l, best: nil)
        case (.absent, let b):
            if case .absent = b, steps.isEmpty { return .empty }
            let newest = steps.last ?? "step-N"
            return .damaged("\(last.path) is missing beside \(steps.count) step folder\(steps.count == 1 ? "" : "s") (a copy that dropped symbolic links?); "
                            + "point it at the newest checkpoint to resume: ln -s \(newest) \(last.path)")
        }
    }

    /// The training state and weights file `last` points at, or nil when there is no checkpoint
    /// yet; a damaged folder is an error saying what is wrong (nothing is deleted).
    public func loadLast() throws -> (state: TrainingState, weights: URL)? {
        switch integrity() {
        case .empty: return nil
        case .damaged(let problem): throw CheckpointError(path: folder.path, problem: "damaged: \(problem). Nothing was changed or deleted")
        case .intact:
            let state = try TrainingState.read(last.appendingPathComponent(Self.stateFile))
            return (state, last.appendingPathComponent(Self.modelFile))
        }
    }

    /// Step folders no link points at are deleted, and leftovers of writes by processes that are
    /// gone; nothing at all is deleted while the links are damaged.
    public func prune() {
        guard case .intact(let lastName, let bestName) = integrity() else { return }
        let fm = FileManager.default
        let keep = Set([lastName, bestName].compactMap { $0 })
        for item in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let isStep = item.hasPrefix("step-") && !keep.contains(item)
            if isStep || Self.isLeftover(item) { try? fm.removeItem(at: folder.appendingPathComponent(item)) }
        }
    }

    /// `.step-N.partial-PID`, `.last.link-PID` and `.best.link-PID` of a process that is gone.
    static func isLeftover(_ item: String) -> Bool {
        guard item.hasPrefix(".step-") || item.hasPrefix(".last.link-") || item.hasPrefix(".best.link-"),
              let dash = item.lastIndex(of: "-"), let pid = Int32(item[item.index(after: dash)...]) else { return false }
        return pid != getpid() && !(kill(pid, 0) == 0 || errno == EPERM)
    }

    private func rename(_ from: URL, to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw CheckpointError(path: to.path, problem: "cannot rename \(from.lastPathComponent) into place (\(String(cString: strerror(errno))))")
        }
    }

    /// Replaces the link `link` by one to `target` atomically: a new link renamed over the old.
    private func point(_ link: URL, at target: String) throws {
        let temporary = folder.appendingPathComponent(".\(link.lastPathComponent).link-\(getpid())")
        unlink(temporary.path)
        guard symlink(target, temporary.path) == 0 else {
            throw CheckpointError(path: temporary.path, problem: "cannot create a link (\(String(cString: strerror(errno))))")
        }
        try rename(temporary, to: link)
    }
}
