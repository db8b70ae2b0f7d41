import Checkpoints
import Engine
import Foundation
import Layers

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
        try load(tensors, into: model, path: path)
        return (model, names, metadata["step"].flatMap { Int($0) })
    }

    /// Loads `url`'s tensors into `model` (whose config must be the file's): what a resumed run
    /// and its moving average load from their checkpoint.
    public static func load(_ url: URL, into model: SSDModel) throws {
        let (tensors, _) = try Safetensors.read(url)
        try load(tensors, into: model, path: url.path)
    }

    /// Loads named tensors into `model`, refusing non-finite values and tensors that do not fit:
    /// the one check every path from a file to a model goes through; `path` names the file in errors.
    public static func load(_ tensors: [NamedTensor], into model: SSDModel, path: String) throws {
        var values: [String: (shape: [Int], values: [Float])] = [:]
        for t in tensors {
            // A NaN or infinite weight would make every score NaN: the detector would find nothing and say nothing.
            if let bad = t.values.firstIndex(where: { !$0.isFinite }) {
                throw CheckpointError(path: path, problem: "tensor '\(t.name)' holds \(t.values[bad]) at element \(bad): not a usable detector")
            }
            values[t.name] = (t.shape, t.values)
        }
        do { try model.load(values) } catch {
            throw CheckpointError(path: path, problem: "the weights do not fit the config of the network they are loaded into: \(error)")
        }
    }

    /// Which weights a file holds as its metadata says (`weights`: "raw", or the moving average and its
    /// decay, as training saves them); nil for a file that does not say (an export, an older checkpoint).
    public static func weightsKind(_ url: URL) throws -> String? {
        try Safetensors.metadata(url)["weights"]
    }

    static func jsonString<T: Encodable>(_ value: T) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try! e.encode(value), as: UTF8.self)
    }
}

