import Evaluation
import Foundation
import Shards

/// What an evaluation produced: the metrics, the picked thresholds, the confusion matrix.
public struct EvaluationOutcome {
    public var result: EvaluationResult
    public var picks: [PickedThreshold?]
    public var confusion: ConfusionMatrix
}

/// One call for a whole evaluation: metrics, thresholds (max F1), the confusion matrix, and
/// every file of evaluation.md plus `report.html` written into a folder.
public enum EvaluationWriter {
    public static func evaluate(_ input: EvaluationInput, iou: Double = 0.5, interpolation: Interpolation = .allPoint,
                                title: String, to folder: URL) throws -> EvaluationOutcome {
        let result = Evaluator(iouThreshold: iou, interpolation: interpolation).evaluate(input)
        let picks = result.classes.map { ThresholdPicker.pick($0.curve, groundTruth: $0.gtCount, strategy: .maxF1) }
        let confusion = ConfusionMatrix(input, thresholds: picks.map { $0?.threshold }, iouThreshold: iou)
        try EvaluationFiles.write(result, thresholds: picks, strategy: .maxF1, confusion: confusion, to: folder)
        let withPaper = input.classNames == defaultClassNames
        var reference = EvaluationTable.paper
        reference["mean"] = (71.3, 75.4)
        try EvaluationReport(result: result, thresholds: picks, strategy: .maxF1, confusion: confusion,
                             reference: withPaper ? reference : [:], referenceName: "paper", title: title)
            .write(to: folder.appendingPathComponent("report.html"))
        return EvaluationOutcome(result: result, picks: picks, confusion: confusion)
    }
}

/// The per-class table for a person, with the paper's figures beside ours for the default vocabulary.
public enum EvaluationTable {
    /// AP50, AP-center (percent) of Zhang et al., CHI 2021, on their 5,002 test screens (paper-facts.md).
    public static let paper: [String: (Double, Double)] = [
        "checkbox_unselected": (77.5, 79.1), "checkbox_selected": (27.4, 27.4), "container": (82.1, 83.0), "dialog": (62.9, 63.3),
        "icon": (79.7, 88.0), "page_control": (65.4, 87.3), "picture": (72.0, 76.9), "segmented_control": (55.1, 57.6),
        "slider": (55.6, 63.0), "text": (87.5, 91.7), "text_field": (79.2, 79.5), "toggle_unselected": (91.7, 91.7), "toggle_selected": (90.5, 92.0),
    ]

    public static func render(_ r: EvaluationResult, picks: [PickedThreshold?]) -> String {
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
