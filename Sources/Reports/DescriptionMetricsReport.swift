import Foundation
import IconVocabulary
import Images
import ScreenDescription

/// Description metrics beside the paper's, as an HTML page and as a table for a terminal.
public struct DescriptionMetricsReport {
    /// Icon crops the page shows at most.
    static let iconsShown = 120

    public var metrics: DescriptionMetricsFile
    public var title: String
    /// Matched icons as the page shows them: the crop, its true type and what the description said.
    public var icons: [(crop: RGBImage, truth: IconType?, said: IconType?)]

    /// The report of `metrics`, with a strip of icon crops when given.
    public init(_ metrics: DescriptionMetricsFile, title: String, icons: [(crop: RGBImage, truth: IconType?, said: IconType?)] = []) {
        self.metrics = metrics
        self.title = title
        self.icons = icons
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
            ("icon type accuracy", percent(m.iconTypeAccuracy.value), "-", "\(c.iconTypesTrue) matched icons with a true type"),
            ("icon type coverage", percent(m.iconTypeCoverage.value), "-", "\(c.iconTypesOfVocabulary) matched icons of the 52 types"),
            ("icon label precision", percent(m.iconLabelPrecision.value), "-", "\(c.iconTypesGiven) icon types given"),
            ("icon buttons with a label", percent(m.iconButtonsLabelled.value), "-", "\(c.iconButtons) matched true icon buttons"),
            ("interactive elements recall", percent(m.interactiveRecall.value), "-", "\(c.interactiveTruePositives + c.interactiveFalseNegatives) known interactive boxes"),
            ("interactive elements precision", percent(m.interactivePrecision.value), "-",
             c.interactiveKnownNegatives == 0 ? "no box known not interactive" : "\(c.interactiveTruePositives + c.interactiveFalsePositives) said interactive"),
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
        h += "</table>"
        if !icons.isEmpty {
            // What was said first where it was wrong: the errors are what a reader of this page looks for.
            let wrong = icons.filter { $0.said != $0.truth && !($0.truth?.isOther == true && $0.said == nil) }
            let shown = Array((wrong + icons.filter { i in !wrong.contains { $0.crop == i.crop } }).prefix(Self.iconsShown))
            h += "<h2>Icons: what was said</h2><p>\(wrong.count) of \(icons.count) matched icons said wrong (shown first), then icons said right. "
                + "Under each crop: its true type, then what a screen reader says for it.</p><div style=\"display:flex;flex-wrap:wrap;gap:6px\">"
            for icon in shown {
                let size = IconClassifierPage.thumbnailSize(icon.crop)
                let png = (try? ImageCodec.encodePNG(icon.crop.resized(to: size)).base64EncodedString()) ?? ""
                let right = icon.said == icon.truth || (icon.truth?.isOther == true && icon.said == nil)
                h += "<figure style=\"margin:0;text-align:center;font-size:11px;width:80px\"><img alt=\"icon\" src=\"data:image/png;base64,\(png)\"><figcaption>"
                    + "\(HTML.escape(icon.truth?.name ?? "?"))<br><b style=\"color:\(right ? "#2a9d4a" : "#d03030")\">\(HTML.escape(icon.said?.label ?? "(no label)"))</b></figcaption></figure>"
            }
            h += "</div>"
        }
        h += "</body></html>\n"
        return h
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws {
        try Data(html().utf8).write(to: url, options: .atomic)
    }
}
