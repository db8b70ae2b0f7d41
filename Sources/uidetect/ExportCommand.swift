import ArgumentParser
import Detection
import DetectorRuns
import Export
import Evaluation
import Foundation
import Outputs
import Training

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trained detector as ONNX (opset 13) or safetensors, for other runtimes.",
        discussion: """
        onnx: input `images` (N, 3, H, W) float32, RGB letterboxed top-left and scaled by x / 127.5 - 1; outputs `class_logits`
        (N, anchors, K), `box_deltas` (N, anchors, 4) and `anchors` (anchors, 4); class names, input size and normalisation,
        box-coder weights, the preprocessing step by step and the thresholds (if given) in metadata_props.
        onnx --postprocess: one image (1, 3, H, W); the graph ends with SSDDetector's post-processing (decoding, sigmoid, the best
        candidates per level, per-class NMS, the best 100) and outputs `boxes` (D, 4) in input pixels, `scores` (D) and `classes`
        (D, int64), best first; with --thresholds, the deployment filter too (the thresholds, then the similar-class suppression).
        See the README, "Export".
        safetensors: every weight and running statistic by name (HWIO conv weights), the config, class names and thresholds in
        __metadata__. Both are written atomically.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case onnx, safetensors }

    @Option(help: "Weights file, checkpoint folder, or run folder (its best).") var checkpoint: String
    @Option(help: "onnx or safetensors.") var format: Format
    @Option(help: "The file to write.") var out: String
    @Option(help: "A thresholds.json whose per-class thresholds go into the metadata (and, with --postprocess, into the graph).") var thresholds: String?
    @Flag(help: "onnx: end the graph with the post-processing (and the deployment filter when --thresholds is given); outputs boxes, scores, classes.")
    var postprocess = false

    func validate() throws {
        if postprocess && format != .onnx { throw ValidationError("--postprocess applies to --format onnx only") }
    }

    func run() throws {
        try reportingErrors {
            let trained = try TrainedDetector(checkpoint)
            try OutputFile.check(out, writes: format == .onnx ? .onnx : .safetensors, inputs: [checkpoint, trained.files.detector.path] + [thresholds].compactMap { $0 })
            let picked = try DeploymentThresholds(file: thresholds, classNames: trained.classNames)
            let url = URL(fileURLWithPath: out)
            switch format {
            case .onnx:
                // With --postprocess and --thresholds the filter goes into the graph; otherwise the thresholds ride in the metadata.
                let outputs: ONNXExporter.Outputs = !postprocess ? .raw : thresholds == nil ? .detections : .deployment(picked.filter(classNames: trained.classNames, fallback: nil))
                try ONNXExporter(model: trained.model, classNames: trained.classNames, outputs: outputs,
                                 metadata: postprocess ? [:] : picked.metadata).write(to: url)
            case .safetensors:
                try DetectorWeights.write(trained.model, classNames: trained.classNames, step: trained.step, extra: picked.metadata, to: url)
            }
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int) ?? 0
            print("wrote \(url.path) (\(format.rawValue), \(size / 1024) KiB) from \(trained.title)")
        }
    }
}
