import Checkpoints
import Detection
import Engine
import Foundation
import Layers

/// Why a checkpoint could not be found, read or written.
public struct CheckpointError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let problem: String
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
    public var description: String { "\(path): \(problem)" }
}

/// A detector's weights as one self-describing safetensors file: every parameter and
/// running statistic by its dotted name, and in `__metadata__` the model config and the
/// class names, so that the file alone rebuilds the network.
public enum DetectorWeights {
    public static let format = "uidetect-ssd-1"

    /// The metadata written beside the tensors.
    public static func metadata(config: SSDConfig, classNames: [String], step: Int?) -> [String: String] {
        var m = [
            "format": format,
            "ssd_config": jsonString(config),
            "class_names": jsonString(classNames),
            "layout": "conv weights HWIO (kernel_h, kernel_w, in_channels / groups, out_channels); activations NHWC",
            "input": "RGB, letterboxed top-left into input_width x input_height (black padding), scaled by x / 127.5 - 1",
        ]
        if let step { m["step"] = String(step) }
        return m
    }

    /// Writes `model`'s parameters and buffers atomically, with `extra` metadata (e.g. thresholds).
    public static func write(_ model: SSDModel, classNames: [String], step: Int?, extra: [String: String] = [:], to url: URL) throws {
        let tensors = model.namedState().map { NamedTensor(name: $0.name, shape: $0.tensor.shape, values: $0.tensor.scalars) }
        let m = metadata(config: model.config, classNames: classNames, step: step).merging(extra) { _, new in new }
        try Safetensors.write(tensors, metadata: m, to: url)
    }

    /// A detector rebuilt from a weights file; a file whose tensors do not fit its own config is refused.
    public static func read(_ url: URL) throws -> (model: SSDModel, classNames: [String], step: Int?) {
        let (tensors, metadata) = try Safetensors.read(url)
        func field<T: Decodable>(_ key: String, _ type: T.Type) throws -> T {
            guard let text = metadata[key] else {
                throw CheckpointError(path: url.path, problem: "metadata '\(key)' is missing: not a UIDetect detector checkpoint")
            }
            do { return try JSONDecoder().decode(T.self, from: Data(text.utf8)) } catch {
                throw CheckpointError(path: url.path, problem: "metadata '\(key)' cannot be read (\(error))")
            }
        }
        let config = try field("ssd_config", SSDConfig.self)
        let names = try field("class_names", [String].self)
        if let p = config.problems().first { throw CheckpointError(path: url.path, problem: "metadata ssd_config: \(p.key): \(p.problem)") }
        guard names.count == config.numClasses else {
            throw CheckpointError(path: url.path, problem: "\(names.count) class names for num_classes = \(config.numClasses)")
        }
        var g = SeededGenerator(seed: 0)
        let model = SSDModel(config: config, generator: &g)
        var values: [String: (shape: [Int], values: [Float])] = [:]
        for t in tensors { values[t.name] = (t.shape, t.values) }
        do { try model.load(values) } catch {
            throw CheckpointError(path: url.path, problem: "the weights do not fit the config in its metadata: \(error)")
        }
        return (model, names, metadata["step"].flatMap { Int($0) })
    }

    /// The weights file meant by `path`: a `.safetensors` file, a checkpoint folder holding
    /// `model.safetensors`, or a run folder (its `checkpoints/best`, else `checkpoints/last`).
    public static func resolve(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CheckpointError(path: path, problem: "no such file or folder")
        }
        guard isDirectory.boolValue else { return url }
        let direct = url.appendingPathComponent(CheckpointStore.modelFile)
        if FileManager.default.fileExists(atPath: direct.path) { return direct }
        for name in ["best", "last"] {
            let candidate = url.appendingPathComponent("checkpoints").appendingPathComponent(name).appendingPathComponent(CheckpointStore.modelFile)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw CheckpointError(path: path, problem: "neither a weights file, a checkpoint folder (with \(CheckpointStore.modelFile)) nor a run folder with checkpoints")
    }

    static func jsonString<T: Encodable>(_ value: T) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try! e.encode(value), as: UTF8.self)
    }
}

/// What a run needs beyond the weights to go on bit for bit: the step, the optimizer's
/// state, and the best validation score so far.
public struct TrainingState: Equatable {
    public var step: Int
    public var bestMAP50: Double?
    public var bestStep: Int?
    public var optimizer: [String: [Float]]

    public init(step: Int, bestMAP50: Double?, bestStep: Int?, optimizer: [String: [Float]]) {
        self.step = step
        self.bestMAP50 = bestMAP50
        self.bestStep = bestStep
        self.optimizer = optimizer
    }

    func write(to url: URL) throws {
        let tensors = optimizer.keys.sorted().map { NamedTensor(name: $0, shape: [optimizer[$0]!.count], values: optimizer[$0]!) }
        var metadata = ["format": "uidetect-training-state-1", "step": String(step)]
        if let b = bestMAP50 { metadata["best_map50"] = String(b) }
        if let s = bestStep { metadata["best_step"] = String(s) }
        try Safetensors.write(tensors, metadata: metadata, to: url)
    }

    static func read(_ url: URL) throws -> TrainingState {
        let (tensors, metadata) = try Safetensors.read(url)
        guard let step = metadata["step"].flatMap({ Int($0) }) else { throw CheckpointError(path: url.path, problem: "metadata 'step' is missing") }
        var optimizer: [String: [Float]] = [:]
        for t in tensors { optimizer[t.name] = t.values }
        return TrainingState(step: step, bestMAP50: metadata["best_map50"].flatMap { Double($0) },
                             bestStep: metadata["best_step"].flatMap { Int($0) }, optimizer: optimizer)
    }
}

/// A run's `checkpoints/` folder: one folder per saved step (`step-00000500/` with
/// `model.safetensors` and `training_state.safetensors`), and `last` and `best` as symbolic
/// links to them. A step folder is written under a temporary name and renamed into place,
/// and a link is replaced by renaming a new link over it, so a crash at any moment leaves
/// `last` and `best` pointing at complete checkpoints.
public struct CheckpointStore {
    public static let modelFile = "model.safetensors"
    public static let stateFile = "training_state.safetensors"
    public let folder: URL

    public init(folder: URL) { self.folder = folder }

    public var last: URL { folder.appendingPathComponent("last") }
    public var best: URL { folder.appendingPathComponent("best") }

    /// Writes a complete checkpoint of `step` and points `last` (and `best` if asked) at it.
    public func save(model: SSDModel, classNames: [String], state: TrainingState, isBest: Bool) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = String(format: "step-%08d", state.step)
        let final = folder.appendingPathComponent(name)
        let temporary = folder.appendingPathComponent(".\(name).partial-\(getpid())")
        try? fm.removeItem(at: temporary)
        try fm.createDirectory(at: temporary, withIntermediateDirectories: true)
        try DetectorWeights.write(model, classNames: classNames, step: state.step, to: temporary.appendingPathComponent(Self.modelFile))
        try state.write(to: temporary.appendingPathComponent(Self.stateFile))
        // A step folder is only ever rewritten by a session that resumed from an earlier step,
        // so no link points at it: it can go first.
        if fm.fileExists(atPath: final.path) { try fm.removeItem(at: final) }
        try rename(temporary, to: final)
        try point(last, at: name)
        if isBest { try point(best, at: name) }
        prune()
    }

    /// The training state and weights file `last` points at, or nil when there is none.
    public func loadLast() throws -> (state: TrainingState, weights: URL)? {
        guard FileManager.default.fileExists(atPath: last.path) else { return nil }
        let state = try TrainingState.read(last.appendingPathComponent(Self.stateFile))
        return (state, last.appendingPathComponent(Self.modelFile))
    }

    /// Step folders no link points at are deleted (and leftovers of interrupted writes).
    func prune() {
        let fm = FileManager.default
        let keep = Set([last, best].compactMap { try? fm.destinationOfSymbolicLink(atPath: $0.path) })
        for item in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let isStep = item.hasPrefix("step-")
            let isLeftover = item.hasPrefix(".step-") && !item.hasSuffix("-\(getpid())")
            if (isStep && !keep.contains(item)) || isLeftover { try? fm.removeItem(at: folder.appendingPathComponent(item)) }
        }
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
