import Checkpoints
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
    /// The weights file inside a checkpoint folder.
    public static let modelFile = "model.safetensors"

    /// The metadata written beside the tensors.
    public static func metadata(config: SSDConfig, classNames: [String], step: Int?) -> [String: String] {
        var m = [
            "format": format,
            "ssd_config": jsonString(config),
            "class_names": jsonString(classNames),
            "layout": "conv weights HWIO (kernel_h, kernel_w, in_channels / groups, out_channels); activations NHWC",
            "input": ModelInput.summary,
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
        guard let data = try? Data(contentsOf: url) else { throw CheckpointError(path: url.path, problem: "cannot read the file") }
        return try decode(data, path: url.path)
    }

    /// A detector rebuilt from a weights file's bytes; `path` names the file in errors.
    public static func decode(_ data: Data, path: String) throws -> (model: SSDModel, classNames: [String], step: Int?) {
        let (tensors, metadata) = try Safetensors.decode(data, path: path)
        func field<T: Decodable>(_ key: String, _ type: T.Type) throws -> T {
            guard let text = metadata[key] else {
                throw CheckpointError(path: path, problem: "metadata '\(key)' is missing: not a UIDetect detector checkpoint")
            }
            do { return try JSONDecoder().decode(T.self, from: Data(text.utf8)) } catch {
                throw CheckpointError(path: path, problem: "metadata '\(key)' cannot be read (\(error))")
            }
        }
        let config = try field("ssd_config", SSDConfig.self)
        let names = try field("class_names", [String].self)
        if let p = config.problems().first { throw CheckpointError(path: path, problem: "metadata ssd_config: \(p.key): \(p.problem)") }
        guard names.count == config.numClasses else {
            throw CheckpointError(path: path, problem: "\(names.count) class names for num_classes = \(config.numClasses)")
        }
        var g = SeededGenerator(seed: 0)
        let model = SSDModel(config: config, generator: &g)
        var values: [String: (shape: [Int], values: [Float])] = [:]
        for t in tensors {
            // A NaN or infinite weight would make every score NaN: the detector would find nothing and say nothing.
            if let bad = t.values.firstIndex(where: { !$0.isFinite }) {
                throw CheckpointError(path: path, problem: "tensor '\(t.name)' holds \(t.values[bad]) at element \(bad): not a usable detector")
            }
            values[t.name] = (t.shape, t.values)
        }
        do { try model.load(values) } catch {
            throw CheckpointError(path: path, problem: "the weights do not fit the config in its metadata: \(error)")
        }
        return (model, names, metadata["step"].flatMap { Int($0) })
    }

    /// Which weights a file holds as its metadata says (`weights`: "raw", or the moving average and its
    /// decay, as training saves them); nil for a file that does not say (an export, an older checkpoint).
    public static func weightsKind(_ url: URL) throws -> String? {
        try Safetensors.metadata(url)["weights"]
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
        let direct = url.appendingPathComponent(modelFile)
        if FileManager.default.fileExists(atPath: direct.path) { return direct }
        for name in ["best", "last"] {
            let candidate = url.appendingPathComponent("checkpoints").appendingPathComponent(name).appendingPathComponent(modelFile)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw CheckpointError(path: path, problem: "neither a weights file, a checkpoint folder (with \(modelFile)) nor a run folder with checkpoints")
    }

    static func jsonString<T: Encodable>(_ value: T) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try! e.encode(value), as: UTF8.self)
    }
}

