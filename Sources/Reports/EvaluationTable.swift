import Evaluation
import Foundation

/// The per-class table for a terminal or a log, with the paper's figures beside ours for the default vocabulary.
public enum EvaluationTable {
    /// The table of `summary`: AP50, AP-center, counts and the picked threshold of each class, then the means.
    public static func render(_ summary: EvaluationSummary) -> String {
        let r = summary.result
        let reference = ReferenceFigures.paper(for: r.classes.map(\.name))
        func pct(_ v: Double?) -> String { v.map { String(format: "%5.1f", 100 * $0) } ?? "    -" }
        var header = "class                 AP50  AP-ctr     GT  dets  thresh   prec    rec"
        if let reference { header += "   \(reference.name) AP50 AP-ctr" }
        var lines = ["\(r.images) images, IoU \(r.iouThreshold), \(r.interpolation.rawValue) interpolation", header]
        for (c, p) in zip(r.classes, summary.picks) {
            var line = c.name.padding(toLength: 20, withPad: " ", startingAt: 0) + " " + pct(c.ap50) + "  " + pct(c.apCenter)
            line += String(format: " %6d %5d", c.gtCount, c.detections)
            line += p.map { String(format: "   %.3f  %5.1f  %5.1f", $0.threshold, 100 * $0.precision, 100 * $0.recall) } ?? "       -      -      -"
            if let f = reference?.perClass[c.name] { line += String(format: "        %5.1f  %5.1f", f.ap50, f.apCenter) }
            lines.append(line)
        }
        // The means' reference figures line up under the per-class ones: 49 columns past the AP-center column.
        let gap = String(repeating: " ", count: 49)
        var mean = "mean".padding(toLength: 20, withPad: " ", startingAt: 0) + " " + pct(r.map50) + "  " + pct(r.mapCenter)
        if let m = reference?.mean { mean += gap + String(format: "%5.1f  %5.1f", m.ap50, m.apCenter) }
        lines.append(mean)
        lines.append("weighted by GT count".padding(toLength: 20, withPad: " ", startingAt: 0) + " " + pct(r.map50Weighted) + "  " + pct(r.mapCenterWeighted)
                     + (reference.map { gap + String(format: "%5.1f", $0.weightedAP50) } ?? ""))
        return lines.joined(separator: "\n")
    }
}
