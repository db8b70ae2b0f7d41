import Evaluation
import Foundation

/// A single self-contained HTML page for a person: the per-class table, a PR
/// curve per class with the picked threshold marked (as the paper's Figure 5),
/// F1 against threshold, and the confusion matrix as heat maps with counts,
/// raw and normalised by row (as the paper's Figure 6). Pictures are inline
/// SVG drawn here; nothing is fetched from the network.
public struct EvaluationReport {
    public var summary: EvaluationSummary
    /// Figures to show beside ours; the paper's for its vocabulary unless set otherwise.
    public var reference: ReferenceFigures?
    public var title: String

    /// The page of `summary`, with the paper's figures when it covers the default vocabulary.
    public init(_ summary: EvaluationSummary, title: String) {
        self.summary = summary
        self.reference = ReferenceFigures.paper(for: summary.result.classes.map(\.name))
        self.title = title
    }

    private var result: EvaluationResult { summary.result }
    private var thresholds: [PickedThreshold?] { summary.picks }
    private var confusion: ConfusionMatrix { summary.confusion }

    /// The whole page: inline CSS and SVG, no external resources.
    public func html() -> String {
        var h = HTMLPage.head(title: title, maxWidth: 1200, style: HTMLPage.tableStyle + """

        .curves{display:flex;flex-wrap:wrap;gap:12px}.curve{border:1px solid #ddd;padding:6px}
        .curve h4{margin:0 0 4px 0;font-size:13px}.note{color:#666;font-size:12px}
        """)
        h += """
        <p>\(result.images) images, IoU \(result.iouThreshold), \(result.interpolation.rawValue) interpolation; thresholds picked by \(escape(summary.strategy.description)).</p>
        """
        h += table()
        h += "<h2>Precision-recall curves</h2><p class=\"note\">Blue: precision against recall; the dot marks the picked threshold.</p><div class=\"curves\">"
        for (c, pick) in zip(result.classes, thresholds) where c.gtCount > 0 { h += "<div class=\"curve\"><h4>\(escape(c.name))</h4>" + prCurve(c, pick) + "</div>" }
        h += "</div><h2>F1 against threshold</h2><p class=\"note\">F1 at each distinct score; the dot marks the picked threshold.</p><div class=\"curves\">"
        for (c, pick) in zip(result.classes, thresholds) where c.gtCount > 0 { h += "<div class=\"curve\"><h4>\(escape(c.name))</h4>" + f1Curve(c, pick) + "</div>" }
        h += "</div><h2>Confusion matrix</h2><p class=\"note\">Rows: ground truth; columns: detections at the picked thresholds (0.5 where none); last row and column: background (missed boxes, false alarms).</p>"
        h += "<h3>Counts</h3>" + heatMap(normalised: false) + "<h3>Normalised by row</h3>" + heatMap(normalised: true)
        h += "</body></html>\n"
        return h
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws {
        try Data(html().utf8).write(to: url, options: .atomic)
    }

    private func table() -> String {
        var h = "<table><tr><th>class</th><th>AP50</th><th>AP-center</th><th>GT</th><th>detections</th><th>threshold</th><th>precision</th><th>recall</th><th>F1</th>"
        if let reference { h += "<th>\(escape(reference.name)) AP50</th><th>\(escape(reference.name)) AP-center</th>" }
        h += "</tr>"
        func pct(_ v: Double?) -> String { v.map { String(format: "%.1f", 100 * $0) } ?? "&ndash;" }
        for (c, p) in zip(result.classes, thresholds) {
            h += "<tr><td>\(escape(c.name))</td><td>\(pct(c.ap50))</td><td>\(pct(c.apCenter))</td><td>\(c.gtCount)</td><td>\(c.detections)</td>"
            h += "<td>\(p.map { String(format: "%.3f", $0.threshold) } ?? "&ndash;")</td><td>\(pct(p?.precision))</td><td>\(pct(p?.recall))</td><td>\(pct(p?.f1))</td>"
            if let reference { h += reference.perClass[c.name].map { String(format: "<td>%.1f</td><td>%.1f</td>", $0.ap50, $0.apCenter) } ?? "<td></td><td></td>" }
            h += "</tr>"
        }
        h += "<tr><th>mean</th><th>\(pct(result.map50))</th><th>\(pct(result.mapCenter))</th><th colspan=\"6\"></th>"
        if let m = reference?.mean { h += String(format: "<th>%.1f</th><th>%.1f</th>", m.ap50, m.apCenter) }
        h += "</tr><tr><th>weighted by GT</th><th>\(pct(result.map50Weighted))</th><th>\(pct(result.mapCenterWeighted))</th><th colspan=\"6\"></th></tr></table>"
        return h
    }

    /// Axes of a unit square plot, 220 x 220 with margins; returns the SVG prefix and the point mapping.
    private func axes(xLabel: String, yLabel: String) -> (String, (Double, Double) -> (Double, Double)) {
        let (w, hgt, left, top, size) = (260.0, 250.0, 40.0, 10.0, 200.0)
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(hgt))\" font-size=\"10\">"
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(size)\" height=\"\(size)\" fill=\"#fafafa\" stroke=\"#999\"/>"
        for t in stride(from: 0.0, through: 1.0, by: 0.25) {
            let x = left + t * size, y = top + (1 - t) * size
            s += "<line x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(top + size)\" stroke=\"#e4e4e4\"/><line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + size)\" y2=\"\(y)\" stroke=\"#e4e4e4\"/>"
            s += "<text x=\"\(x)\" y=\"\(top + size + 12)\" text-anchor=\"middle\">\(String(format: "%.2g", t))</text>"
            s += "<text x=\"\(left - 4)\" y=\"\(y + 3)\" text-anchor=\"end\">\(String(format: "%.2g", t))</text>"
        }
        s += "<text x=\"\(left + size / 2)\" y=\"\(top + size + 26)\" text-anchor=\"middle\">\(xLabel)</text>"
        s += "<text x=\"10\" y=\"\(top + size / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 10 \(top + size / 2))\">\(yLabel)</text>"
        return (s, { (left + min(1, max(0, $0)) * size, top + (1 - min(1, max(0, $1))) * size) })
    }

    private func polyline(_ points: [(Double, Double)], _ map: (Double, Double) -> (Double, Double)) -> String {
        let coords = points.map { p -> String in let (x, y) = map(p.0, p.1); return String(format: "%.1f,%.1f", x, y) }.joined(separator: " ")
        return "<polyline fill=\"none\" stroke=\"#1f6fd0\" stroke-width=\"1.5\" points=\"\(coords)\"/>"
    }

    private func marker(_ x: Double, _ y: Double, _ map: (Double, Double) -> (Double, Double), label: String) -> String {
        let (px, py) = map(x, y)
        return "<circle cx=\"\(px)\" cy=\"\(py)\" r=\"4\" fill=\"#e03a3a\"/><text x=\"\(px + 6)\" y=\"\(py - 6)\" fill=\"#e03a3a\">\(label)</text>"
    }

    private func prCurve(_ c: ClassResult, _ pick: PickedThreshold?) -> String {
        var (s, map) = axes(xLabel: "recall", yLabel: "precision")
        s += polyline([(0, c.curve.first?.precision ?? 0)] + c.curve.map { ($0.recall, $0.precision) }, map)
        if let p = pick { s += marker(p.recall, p.precision, map, label: String(format: "t=%.2f", p.threshold)) }
        return s + String(format: "<text x=\"46\" y=\"204\">AP50 %.1f</text></svg>", 100 * (c.ap50 ?? 0))
    }

    private func f1Curve(_ c: ClassResult, _ pick: PickedThreshold?) -> String {
        var (s, map) = axes(xLabel: "threshold", yLabel: "F1")
        let g = Double(c.gtCount)
        var points: [(Double, Double)] = []
        for (i, p) in c.curve.enumerated() where i == c.curve.count - 1 || c.curve[i + 1].threshold != p.threshold {
            points.append((p.threshold, 2 * Double(p.tp) / (Double(p.tp + p.fp) + g)))
        }
        s += polyline(points.sorted { $0.0 < $1.0 }, map)
        if let p = pick { s += marker(p.threshold, p.f1, map, label: String(format: "F1 %.2f", p.f1)) }
        return s + "</svg>"
    }

    private func heatMap(normalised: Bool) -> String {
        let names = confusion.classNames + ["background"]
        let n = names.count
        let cell = 34.0, left = 130.0, top = 110.0
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(left + cell * Double(n) + 60))\" height=\"\(Int(top + cell * Double(n) + 10))\" font-size=\"10\">"
        for (j, name) in names.enumerated() {
            let x = left + (Double(j) + 0.5) * cell
            s += "<text x=\"\(x)\" y=\"\(top - 6)\" transform=\"rotate(-50 \(x) \(top - 6))\">\(escape(name))</text>"
            s += "<text x=\"\(left - 6)\" y=\"\(top + (Double(j) + 0.6) * cell)\" text-anchor=\"end\">\(escape(name))</text>"
        }
        let maxCount = max(1, confusion.counts.flatMap { $0 }.max() ?? 1)
        for i in 0..<n {
            let rowTotal = max(1, confusion.counts[i].reduce(0, +))
            for j in 0..<n {
                let count = confusion.counts[i][j]
                let value = normalised ? Double(count) / Double(rowTotal) : (count == 0 ? 0 : log(1 + Double(count)) / log(1 + Double(maxCount)))
                let shade = Int(255 * (1 - value))
                let fill = "rgb(\(shade),\(min(255, shade + 30)),255)"
                s += "<rect x=\"\(left + Double(j) * cell)\" y=\"\(top + Double(i) * cell)\" width=\"\(cell)\" height=\"\(cell)\" fill=\"\(fill)\" stroke=\"#fff\"/>"
                let text = normalised ? (count == 0 ? "" : String(format: "%.2f", Double(count) / Double(rowTotal))) : (count == 0 ? "" : "\(count)")
                s += "<text x=\"\(left + (Double(j) + 0.5) * cell)\" y=\"\(top + (Double(i) + 0.6) * cell)\" text-anchor=\"middle\" fill=\"\(value > 0.55 ? "#fff" : "#222")\">\(text)</text>"
            }
        }
        return s + "</svg>"
    }

    private func escape(_ s: String) -> String { escapeHTML(s) }
}
