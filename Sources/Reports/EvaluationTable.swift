import Evaluation
import Foundation

/// The per-class table for a terminal or a log, with the paper's figures beside ours for the default vocabulary.
public enum EvaluationTable {
    /// The table of `summary`: AP50, AP-center, AP50-95, AP50 by size, counts and the picked threshold of
    /// each class, then the means. Columns are right-aligned to fixed widths, so that the means and the
    /// reference figures line up under the per-class ones.
    public static func render(_ summary: EvaluationSummary) -> String {
        let r = summary.result
        let reference = ReferenceFigures.paper(for: r.classes.map(\.name))
        /// (header, width) of each column after the class name.
        var columns: [(String, Int)] = [("AP50", 6), ("AP-ctr", 7), ("AP50-95", 8), ("AP-S", 6), ("AP-M", 6), ("AP-L", 6),
                                        ("GT", 7), ("dets", 6), ("thresh", 8), ("prec", 7), ("rec", 7)]
        if let reference { columns += [("\(reference.name) AP50", 13), ("AP-ctr", 7)] }
        func row(_ name: String, _ cells: [String]) -> String {
            var line = name.padding(toLength: 20, withPad: " ", startingAt: 0)
            for (cell, (_, width)) in zip(cells, columns) { line += String(repeating: " ", count: max(1, width - cell.count)) + cell }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        var lines = ["\(r.images) images, IoU \(r.iouThreshold), \(r.interpolation.rawValue) interpolation; AP50-95 over IoU 0.50:0.05:0.95; "
                     + (r.sizeBuckets.map { b in "AP-S/M/L: AP50 of boxes " + SizeBucket.allCases.map { "\(b.label($0))" }.joined(separator: ", ") + " of the screen's area" }
                        ?? "AP by size: screen sizes unknown"),
                     row("class", columns.map(\.0))]
        for (c, p) in zip(r.classes, summary.picks) {
            var cells = [pct(c.ap50), pct(c.apCenter), pct(c.ap50to95), pct(c.apBySize.small), pct(c.apBySize.medium), pct(c.apBySize.large),
                         "\(c.gtCount)", "\(c.detections)", p.map { String(format: "%.3f", $0.threshold) } ?? "-", pct(p?.precision), pct(p?.recall)]
            if let reference { cells += reference.perClass[c.name].map { [String(format: "%.1f", $0.ap50), String(format: "%.1f", $0.apCenter)] } ?? ["", ""] }
            lines.append(row(c.name, cells))
        }
        let blank = [String](repeating: "", count: 5)
        var mean = [pct(r.map50), pct(r.mapCenter), pct(r.map50to95), pct(r.map50BySize.small), pct(r.map50BySize.medium), pct(r.map50BySize.large)] + blank
        if let m = reference?.mean { mean += [String(format: "%.1f", m.ap50), String(format: "%.1f", m.apCenter)] }
        lines.append(row("mean", mean))
        var weighted = [pct(r.map50Weighted), pct(r.mapCenterWeighted)] + [String](repeating: "", count: 9)
        if let reference { weighted += [String(format: "%.1f", reference.weightedAP50)] }
        lines.append(row("weighted by GT count", weighted))
        if let errors = summary.errors { lines += [""] + errorLines(errors, result: r) }
        return lines.joined(separator: "\n")
    }

    /// The error kinds of each class at its threshold, then the AP50 that fixing each kind alone would add
    /// (TIDE's breakdown, README "Where a detector fails"), with the means over classes with ground truth.
    static func errorLines(_ errors: ErrorAnalysis, result r: EvaluationResult) -> [String] {
        let counts = ErrorKind.allCases.map { (shortName($0), $0) }
        let gains = APGains.kinds.map { ("+" + shortName($0), $0) }
        func row(_ name: String, _ left: [String], _ right: [String]) -> String {
            var line = name.padding(toLength: 20, withPad: " ", startingAt: 0)
            for cell in left { line += String(repeating: " ", count: max(1, 7 - cell.count)) + cell }
            line += " |"
            for cell in right { line += String(repeating: " ", count: max(1, 6 - cell.count)) + cell }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        var lines = ["Errors at the picked thresholds (0.5 where none): true positives, false positives by kind (background, duplicate, "
                     + "wrong class, poor localisation), missed boxes; then AP50 and what fixing each kind alone adds to it (TIDE)",
                     row("class", ["thresh"] + counts.map(\.0), ["AP50"] + gains.map(\.0))]
        for (c, e) in zip(r.classes, errors.classes) {
            let threshold = String(format: "%.3f", e.threshold) + (e.thresholdPicked ? "" : "*")
            lines.append(row(e.name, [threshold] + counts.map { "\(e.counts[$0.1])" }, [pct(c.ap50)] + gains.map { k in pct(e.gains?[k.1]) }))
        }
        lines.append(row("mean", [String](repeating: "", count: counts.count + 1), [pct(r.map50)] + gains.map { k in pct(errors.meanGains?[k.1]) }))
        if errors.classes.contains(where: { !$0.thresholdPicked }) { lines.append("* no picked threshold: 0.5") }
        return lines
    }

    /// A kind's column heading in the terminal's narrow table.
    static func shortName(_ kind: ErrorKind) -> String {
        switch kind {
        case .truePositive: "TP"
        case .background: "bkg"
        case .duplicate: "dupe"
        case .wrongClass: "cls"
        case .poorLocalization: "loc"
        case .missed: "miss"
        }
    }

    /// A fraction as a percentage with one decimal, "-" when there is none.
    static func pct(_ v: Double?) -> String { v.map { String(format: "%.1f", 100 * $0) } ?? "-" }
}
