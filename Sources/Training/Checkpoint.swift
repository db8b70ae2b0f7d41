import Checkpoints
import Detection
import Engine
import Foundation
import Layers

/// A run's `checkpoints/` folder: one folder per saved step (`step-00000500/` with
/// `model.safetensors` and `training_state.safetensors`), and `last` and `best` as symbolic
/// links to them. A step folder is written under a temporary name and renamed into place,
/// and a link is replaced by renaming a new link over it, so a crash at any moment leaves
/// `last` and `best` pointing at complete checkpoints.
public struct CheckpointStore {
    public static let modelFile = DetectorWeights.modelFile
    public static let stateFile = "training_state.safetensors"
    public let folder: URL
    /// The model's file in each step folder (the detector's, or the icon classifier's).
    public let modelFile: String

    public init(folder: URL, modelFile: String = CheckpointStore.modelFile) {
        self.folder = folder
        self.modelFile = modelFile
    }

    public var last: URL { folder.appendingPathComponent("last") }
    public var best: URL { folder.appendingPathComponent("best") }

    /// The step `last` holds, read from the name of the folder it points at; nil without one.
    public var lastStep: Int? {
        guard case .intact(let name, _) = integrity() else { return nil }
        return Int(name.dropFirst("step-".count))
    }

    /// Writes a complete checkpoint of `step` and points `last` (and `best` if asked) at it;
    /// `weights` says in the model file's metadata which weights it holds (raw or their average).
    public func save(model: SSDModel, classNames: [String], state: TrainingState, isBest: Bool, weights: String = "raw") throws {
        try save(step: state.step, isBest: isBest) { folder in
            try DetectorWeights.write(model, classNames: classNames, step: state.step, extra: ["weights": weights], to: folder.appendingPathComponent(Self.modelFile))
            try state.write(to: folder.appendingPathComponent(Self.stateFile))
        }
    }

    /// Writes a checkpoint of `step` whatever the model: `write` puts its files (the model file
    /// and `training_state.safetensors`) into the step's folder while it is still temporary.
    public func save(step: Int, isBest: Bool, write: (URL) throws -> Void) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = String(format: "step-%08d", step)
        let final = folder.appendingPathComponent(name)
        let temporary = folder.appendingPathComponent(".\(name).partial-\(getpid())")
        try? fm.removeItem(at: temporary)
        try fm.createDirectory(at: temporary, withIntermediateDirectories: true)
        try write(temporary)
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
            let complete = [modelFile, Self.stateFile].allSatisfy { fm.fileExists(atPath: folder.appendingPathComponent(name).appendingPathComponent($0).path) }
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
            return (state, last.appendingPathComponent(modelFile))
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
