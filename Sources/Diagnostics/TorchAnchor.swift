import Detection
import Foundation

/// The PyTorch reference of our network (`../shared/anchors/torch_ssd`: `bench.py`), run beside our
/// own measurements so that both come from the same minutes of the same machine.
public struct TorchAnchor {
    /// The folder holding `bench.py`.
    public var folder: URL
    /// bench.py's `--config`: the spec's "bench" or "paper-size" network.
    public var config: String
    /// model.py's config keys set over `config`'s (`matching(_:)`), so that the reference builds our network exactly.
    public var overrides: [String: Any] = [:]

    /// The configurations bench.py knows.
    public static let configs: Set<String> = ["bench", "paper-size"]

    /// Checks that `folder` holds bench.py and that it knows `config`.
    public init(folder: URL, config: String) throws {
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("bench.py").path) else {
            throw BenchmarkError("--torch-anchor \(folder.path): no bench.py there (the PyTorch reference, ../shared/anchors/torch_ssd)")
        }
        guard Self.configs.contains(config) else {
            throw BenchmarkError("the PyTorch reference knows the networks \(Self.configs.sorted().joined(separator: " and ")), not '\(config)'")
        }
        self.folder = folder
        self.config = config
    }

    /// This reference building the network `model` describes: its input size, widths, levels and anchors
    /// replace those of `config` (the reference's paper-size is 320 x 640, ours 384 x 768).
    public func matching(_ model: SSDConfig) -> TorchAnchor {
        var copy = self
        copy.overrides = [
            "width": model.inputWidth, "height": model.inputHeight, "alpha": model.alpha, "fpn_depth": model.fpnDepth,
            "head_layers": model.headLayers, "min_level": model.minLevel, "max_level": model.maxLevel, "num_classes": model.numClasses,
            "anchor_scale": model.anchorScale, "scales_per_octave": model.scalesPerOctave, "aspect_ratios": model.aspectRatios,
            "bn_eps": Double(model.bnEpsilon), "bn_momentum": Double(model.bnMomentum),
        ]
        return copy
    }

    /// `overrides` as JSON, for the scripts.
    var overridesJSON: String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: overrides, options: .sortedKeys)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Runs bench.py with model.py's `config` entry updated by `overrides` first: bench.py takes no sizes of its own.
    private static let runner = """
    import json, runpy, sys
    import model
    overrides, config = json.loads(sys.argv[1]), sys.argv[2]
    model.CONFIGS[config].update(overrides)
    sys.argv = sys.argv[3:]
    runpy.run_path(sys.argv[0], run_name="__main__")
    """

    /// bench.py's training throughput (forward, loss, backward, SGD on batch `batch`), images/s.
    public func trainImagesPerSecond(threads: Int, batch: Int, steps: Int, channelsLast: Bool) throws -> Double {
        try run(["--threads", String(threads), "--batch", String(batch), "--steps", String(steps)] + (channelsLast ? ["--channels-last"] : []),
                key: "torch_train_img_per_s")
    }

    /// bench.py's batch-1 forward latency under `torch.inference_mode()`, milliseconds.
    public func inferMilliseconds(threads: Int, iterations: Int, channelsLast: Bool) throws -> Double {
        try run(["--infer", "--threads", String(threads), "--iters", String(iterations)] + (channelsLast ? ["--channels-last"] : []),
                key: "torch_infer_ms")
    }

    /// Runs bench.py and reads its `key=value` line as a number.
    private func run(_ arguments: [String], key: String) throws -> Double {
        let command = ["python3", "-c", Self.runner, overridesJSON, config, folder.appendingPathComponent("bench.py").path, "--config", config] + arguments
        let label = (["bench.py", "--config", config] + arguments).joined(separator: " ")
        let text = try output(of: command, label: label, key: key)
        guard let v = Double(text) else { throw BenchmarkError("the PyTorch reference (\(label)) printed \(key)=\(text), not a number") }
        return v
    }

    /// Runs `command` in the reference's folder and returns the value of its `key=value` line; the error
    /// names it by `label` and carries the end of what it printed.
    func output(of command: [String], label: String, key: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = command
        p.currentDirectoryURL = folder
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        if p.terminationStatus == 0, let line = out.split(separator: "\n").last(where: { $0.hasPrefix(key + "=") }) {
            return String(line.dropFirst(key.count + 1))
        }
        let tail = out.split(separator: "\n").suffix(3).joined(separator: "\n")
        throw BenchmarkError("the PyTorch reference (\(label)) failed: \(tail) "
                             + "(it needs torch: scripts/setup.sh --bench)")
    }
}
