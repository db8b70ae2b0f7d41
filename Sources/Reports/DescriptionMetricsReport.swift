import Foundation
import ScreenDescription

/// Description metrics beside the paper's, as an HTML page and as a table for a terminal.
public struct DescriptionMetricsReport {
    public var metrics: DescriptionMetricsFile
    public var title: String

    /// The report of `metrics`.
    public init(_ metrics: DescriptionMetricsFile, title: String) {
        self.metrics = metrics
        self.title = title
    }

    /// One row per figure: what it is, ours, the paper's, and what it is computed over.
    var rows: [(name: String, ours: String, paper: String, over: String)] {
        let c = metrics.counts
        func percent(_ v: Double?) -> String { v.map { String(format: "%.1f%%", 100 * $0) } ?? "-" }
        func number(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "-" }
        let m = metrics
        return [
            ("grouping errors per screen", number(m.groupingErrorsPerScreen.value), number(m.groupingErrorsPerScreen.paper), "\(c.screensWithGrouping) screens"),
            ("predicted groups incorrectly grouped", percent(m.incorrectlyGroupedShare.value), percent(m.incorrectlyGroupedShare.paper), "\(c.predictedGroups) groups"),
            ("reduction in elements to navigate", percent(m.elementReduction.value), percent(m.elementReduction.paper), "\(c.boxes) boxes, \(c.topLevelElements) elements"),
            ("screens in perfect order", percent(m.orderPerfectShare.value), percent(m.orderPerfectShare.paper), "\(c.screensWithOrder) screens"),
            ("screens with order errors < n/10", percent(m.orderWithinTenthShare.value), percent(m.orderWithinTenthShare.paper), "\(c.screensWithOrder) screens"),
            ("order errors per screen", number(m.orderMeanErrors.value), number(m.orderMeanErrors.paper), "\(c.screensWithOrder) screens"),
            ("tab buttons: selection right", percent(m.tabButtonSelection.value), percent(m.tabButtonSelection.paper), "\(c.screensWithTabButtons) screens"),
            ("segments: selection right", percent(m.segmentSelection.value), percent(m.segmentSelection.paper), "\(c.screensWithSegments) screens"),
            ("icon button precision", percent(m.iconButtonPrecision.value), percent(m.iconButtonPrecision.paper), "\(c.iconTruePositives + c.iconFalsePositives) predicted buttons"),
            ("icon button recall", percent(m.iconButtonRecall.value), percent(m.iconButtonRecall.paper), "\(c.iconTruePositives + c.iconFalseNegatives) true buttons"),
            ("text character error rate", percent(m.textCharacterErrorRate.value), percent(m.textCharacterErrorRate.paper), "\(c.textTrueLength) characters"),
        ]
    }

    /// The table for a terminal or a log.
    public func text() -> String {
        var lines = ["\(metrics.screens) screens", "figure".padding(toLength: 38, withPad: " ", startingAt: 0) + "    ours   paper  over"]
        for r in rows {
            lines.append(r.name.padding(toLength: 38, withPad: " ", startingAt: 0) + String(repeating: " ", count: max(0, 8 - r.ours.count)) + r.ours
                         + String(repeating: " ", count: max(0, 8 - r.paper.count)) + r.paper + "  " + r.over)
        }
        return lines.joined(separator: "\n")
    }

    /// The whole page: inline CSS, no external resources.
    public func html() -> String {
        var h = HTML.head(title: title, maxWidth: 1000, style: HTML.tableStyle + "td:last-child,th:last-child{text-align:left}")
        h += """
        <p>\(metrics.screens) screens. The paper: Zhang et al., Screen Recognition, CHI 2021, section 5.</p>
        <table><tr><th>figure</th><th>ours</th><th>paper</th><th>over</th></tr>
        """
        for r in rows {
            h += "<tr><td>\(HTML.escape(r.name))</td><td>\(r.ours)</td><td>\(r.paper)</td><td>\(HTML.escape(r.over))</td></tr>"
        }
        h += "</table></body></html>\n"
        return h
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws {
        try Data(html().utf8).write(to: url, options: .atomic)
    }
}
