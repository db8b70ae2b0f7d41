import ArgumentParser
import Evaluation
import Foundation
import Reports
import Shards

extension Interpolation: ExpressibleByArgument {}

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Per-class AP at an IoU threshold and AP-center of detections against ground-truth shards.",
        discussion: """
        Detections come as JSON ([{"image_id", "class", "score", "box": [x_min, y_min, x_max, y_max]}]) or as a detection shard.
        Writes metrics.json, pr_curves.csv, thresholds.json (max_f1) and confusion_matrix.csv into --out.
        """)

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Ground-truth shards, folders or globs.") var data: [String]
    @Option(help: "Detections: a .json file or a detection shard (.h5).") var detections: String
    @Option(help: "Output folder.") var out: String
    @Option(help: "all_point, coco101 or voc11.") var interpolation: Interpolation = .allPoint
    @Option(help: "IoU a detection needs to match a box.") var iou: Double = 0.5
    @Option(help: "A class-map YAML to score across vocabularies.") var classMap: String?

    func validate() throws {
        guard iou > 0 && iou <= 1 else { throw ValidationError("--iou must be in (0, 1], got \(iou)") }
    }

    func run() throws {
        try reportingErrors {
            let map = try classMap.map { try ClassMap(contentsOf: URL(fileURLWithPath: $0)) }
            let set = try ShardSet(data)
            let (names, images) = EvaluationLoader.groundTruth(set, classMap: map)
            let ids = Set(images.map(\.imageID))
            let url = URL(fileURLWithPath: detections)
            let dets = url.pathExtension.lowercased() == "json"
                ? try EvaluationLoader.detectionsJSON(url, classNames: names, imageIDs: ids, classMap: map)
                : try EvaluationLoader.detectionsShard(url, classNames: names, imageIDs: ids, classMap: map)
            let input = EvaluationInput(classNames: names, images: images, detections: dets)
            let result = Evaluator(iouThreshold: iou, interpolation: interpolation).evaluate(input)
            let picks = result.classes.map { ThresholdPicker.pick($0.curve, groundTruth: $0.gtCount, strategy: .maxF1) }
            let confusion = ConfusionMatrix(input, thresholds: picks.map { $0?.threshold }, iouThreshold: iou)
            let outURL = URL(fileURLWithPath: out)
            try EvaluationFiles.write(result, thresholds: picks, strategy: .maxF1, confusion: confusion, to: outURL)
            let withPaper = names == defaultClassNames
            var reference = EvaluationTable.paper
            reference["mean"] = (71.3, 75.4)
            try EvaluationReport(result: result, thresholds: picks, strategy: .maxF1, confusion: confusion,
                                 reference: withPaper ? reference : [:], referenceName: "paper",
                                 title: "Evaluation of \((detections as NSString).lastPathComponent)")
                .write(to: outURL.appendingPathComponent("report.html"))
            print(EvaluationTable.render(result, picks: picks))
            print("wrote metrics.json, pr_curves.csv, thresholds.json, confusion_matrix.csv and report.html to \(out)")
        }
    }
}

/// The per-class table for a person, with the paper's figures beside ours for the default vocabulary.
enum EvaluationTable {
    /// AP50, AP-center (percent) of Zhang et al., CHI 2021, on their 5,002 test screens (paper-facts.md).
    static let paper: [String: (Double, Double)] = [
        "checkbox_unselected": (77.5, 79.1), "checkbox_selected": (27.4, 27.4), "container": (82.1, 83.0), "dialog": (62.9, 63.3),
        "icon": (79.7, 88.0), "page_control": (65.4, 87.3), "picture": (72.0, 76.9), "segmented_control": (55.1, 57.6),
        "slider": (55.6, 63.0), "text": (87.5, 91.7), "text_field": (79.2, 79.5), "toggle_unselected": (91.7, 91.7), "toggle_selected": (90.5, 92.0),
    ]

    static func render(_ r: EvaluationResult, picks: [PickedThreshold?]) -> String {
        let withPaper = r.classes.map(\.name) == defaultClassNames
        func pct(_ v: Double?) -> String { v.map { String(format: "%5.1f", 100 * $0) } ?? "    -" }
        var header = "class                 AP50  AP-ctr     GT  dets  thresh   prec    rec"
        if withPaper { header += "   paper AP50 AP-ctr" }
        var lines = ["\(r.images) images, IoU \(r.iouThreshold), \(r.interpolation.rawValue) interpolation", header]
        for (c, p) in zip(r.classes, picks) {
            var line = c.name.padding(toLength: 20, withPad: " ", startingAt: 0) + " " + pct(c.ap50) + "  " + pct(c.apCenter)
            line += String(format: " %6d %5d", c.gtCount, c.detections)
            line += p.map { String(format: "   %.3f  %5.1f  %5.1f", $0.threshold, 100 * $0.precision, 100 * $0.recall) } ?? "       -      -      -"
            if withPaper, let f = paper[c.name] { line += String(format: "        %5.1f  %5.1f", f.0, f.1) }
            lines.append(line)
        }
        var mean = "mean".padding(toLength: 20, withPad: " ", startingAt: 0) + " " + pct(r.map50) + "  " + pct(r.mapCenter)
        if withPaper { mean += String(repeating: " ", count: 49) + " 71.3   75.4" }
        lines.append(mean)
        lines.append("weighted by GT count".padding(toLength: 20, withPad: " ", startingAt: 0) + " " + pct(r.map50Weighted) + "  " + pct(r.mapCenterWeighted)
                     + (withPaper ? String(repeating: " ", count: 49) + " 82.7" : ""))
        return lines.joined(separator: "\n")
    }
}
