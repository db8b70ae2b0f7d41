import ArgumentParser
import Detection
import Export
import Evaluation
import Foundation
import Training

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trained detector as ONNX (opset 13) or safetensors, for other runtimes.",
        discussion: """
        onnx: input `images` (N, 3, H, W) float32, RGB letterboxed top-left and scaled by x / 127.5 - 1; outputs `class_logits`
        (N, anchors, K), `box_deltas` (N, anchors, 4) and `anchors` (anchors, 4); class names, input size and normalisation,
        box-coder weights and the thresholds (if given) in metadata_props. See the README, "Export".
        safetensors: every weight and running statistic by name (HWIO conv weights), the config, class names and thresholds in
        __metadata__. Both are written atomically.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case onnx, safetensors }

    @Option(help: "Weights file, checkpoint folder, or run folder (its best).") var checkpoint: String
    @Option(help: "onnx or safetensors.") var format: Format
    @Option(help: "The file to write.") var out: String
    @Option(help: "A thresholds.json whose per-class thresholds go into the metadata.") var thresholds: String?

    func run() throws {
        try reportingErrors {
            let weights = try DetectorWeights.resolve(checkpoint)
            let (model, names, step) = try DetectorWeights.read(weights)
            var extra: [String: String] = [:]
            if let thresholds {
                let picked = try ThresholdsFile(contentsOf: URL(fileURLWithPath: thresholds)).thresholdsByClass
                if let unknown = picked.keys.sorted().first(where: { !names.contains($0) }) {
                    throw ValidationError("\(thresholds) names class '\(unknown)', which \(weights.path) does not have")
                }
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys]
                extra["thresholds"] = String(decoding: try e.encode(picked), as: UTF8.self)
            }
            let url = URL(fileURLWithPath: out)
            switch format {
            case .onnx: try ONNXExporter(model: model, classNames: names, metadata: extra).write(to: url)
            case .safetensors: try DetectorWeights.write(model, classNames: names, step: step, extra: extra, to: url)
            }
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int) ?? 0
            print("wrote \(url.path) (\(format.rawValue), \(size / 1024) KiB) from \(weights.path)" + (step.map { ", step \($0)" } ?? ""))
        }
    }
}
