import Boxes
import Foundation
import IconVocabulary
import Images
import ScreenDescription

/// Description metrics beside the paper's, as an HTML page and as a table for a terminal.
public struct DescriptionMetricsReport {
    /// Icon crops the page shows at most.
    static let iconsShown = 120
    /// Screens with grouping or order errors the page shows at most, and their width in pixels.
    public static let errorScreensShown = 24
    public static let errorScreenWidth = 240

    /// A screen with its grouping and order errors, and the map from its stored pixels to fractions of the picture.
    public struct ErrorScreen {
        public var errors: ScreenDescriptionErrors
        public var picture: OutlinedPicture
        public var fraction: (Box) -> Box

        /// `errors` drawn on `picture`.
        public init(errors: ScreenDescriptionErrors, picture: OutlinedPicture, fraction: @escaping (Box) -> Box) {
            (self.errors, self.picture, self.fraction) = (errors, picture, fraction)
        }
    }

    public var metrics: DescriptionMetricsFile
    public var title: String
    /// Matched icons as the page shows them: the crop, its true type and what the description said.
    public var icons: [(crop: RGBImage, truth: IconType?, said: IconType?)]
    /// The screens with the most grouping and order errors, most first.
    public var errorScreens: [ErrorScreen]

    /// The report of `metrics`, with a strip of icon crops and the screens with errors when given.
    public init(_ metrics: DescriptionMetricsFile, title: String, icons: [(crop: RGBImage, truth: IconType?, said: IconType?)] = [],
                errorScreens: [ErrorScreen] = []) {
        self.metrics = metrics
        self.title = title
        self.icons = icons
        self.errorScreens = errorScreens
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
        if !errorScreens.isEmpty { h += errorsSection() }
        h += "</body></html>\n"
        return h
    }

    /// Outline colours: mixed groups, split groups (and the parts of both, dashed), elements out of order.
    static let mixedColor = "#e07b00", splitColor = "#8a4fd0", orderColor = "#d03030"

    /// "Where it fails": the screens with the most errors, each error outlined, filterable by kind and sortable.
    func errorsSection() -> String {
        var h = "<style>\(OutlinedPicture.style).dscreens{display:flex;flex-wrap:wrap;gap:14px}.dscreen{margin:0;font-size:11px;color:#444}"
            + ".dscreen figcaption{max-width:\(Self.errorScreenWidth)px;overflow-wrap:anywhere}.controls{margin:8px 0;font-size:13px}</style>"
        h += "<h2 id=\"errors\">Where it fails: grouping and order</h2><p>The \(errorScreens.count) screens with the most grouping and order errors (at most \(Self.errorScreensShown)). "
            + "<b style=\"color:\(Self.mixedColor)\">Orange</b>: a predicted group that mixes true elements (dashed: those elements). "
            + "<b style=\"color:\(Self.splitColor)\">Purple</b>: a true group split over elements (dashed: the elements holding its parts). "
            + "<b style=\"color:\(Self.orderColor)\">Red</b>: an element out of order (outside the longest run of elements in their true order), "
            + "marked with its place in the description's order and, after the arrow, its true rank.</p>"
        h += "<div class=\"controls\"><label>show <select id=\"d-kind\"><option value=\"\">all errors</option><option value=\"g\">screens with grouping errors</option>"
            + "<option value=\"o\">screens with order errors</option></select></label> <label>sort <select id=\"d-sort\"><option value=\"t\">most errors first</option>"
            + "<option value=\"g\">most grouping errors first</option><option value=\"o\">most order errors first</option></select></label></div><div class=\"dscreens\" id=\"d-screens\">"
        for s in errorScreens {
            let e = s.errors, grouping = e.mixedGroups.count + e.splitGroups.count
            var outlines: [OutlinedPicture.Outline] = []
            for g in e.mixedGroups {
                outlines += g.parts.map { OutlinedPicture.Outline(s.fraction($0), color: Self.mixedColor, dashed: true) }
                outlines.append(.init(s.fraction(g.frame), color: Self.mixedColor, title: "a group mixing \(g.parts.count) true elements"))
            }
            for g in e.splitGroups {
                outlines += g.parts.map { OutlinedPicture.Outline(s.fraction($0), color: Self.splitColor, dashed: true) }
                outlines.append(.init(s.fraction(g.frame), color: Self.splitColor, title: "a true group split over \(g.parts.count) elements"))
            }
            for o in e.outOfOrder {
                outlines.append(.init(s.fraction(o.frame), color: Self.orderColor, title: "visited \(o.position)th, true rank \(o.rank)", label: "\(o.position)\u{2192}\(o.rank)"))
            }
            h += "<figure class=\"dscreen\" data-t=\"\(e.count)\" data-g=\"\(grouping)\" data-o=\"\(e.outOfOrder.count)\">" + s.picture.html(outlines)
            h += "<figcaption><b>\(HTML.escape(e.imageID))</b><br>\(e.mixedGroups.count) mixed, \(e.splitGroups.count) split, \(e.outOfOrder.count) out of order</figcaption></figure>"
        }
        h += "</div><script>\(Self.errorsScript)</script>"
        return h
    }

    /// Filters the screens by kind of error and sorts them by a count.
    static let errorsScript = """
        (function(){var box=document.getElementById('d-screens'),kind=document.getElementById('d-kind'),sort=document.getElementById('d-sort');
        var all=[].slice.call(box.children);all.forEach(function(f,i){f.setAttribute('data-i',i);});
        function n(f,a){return parseInt(f.getAttribute('data-'+a),10);}
        function update(){var k=kind.value,s=sort.value;all.sort(function(a,b){return (n(b,s)-n(a,s))||(n(a,'i')-n(b,'i'));});
        all.forEach(function(f){f.style.display=!k||n(f,k)>0?'':'none';box.appendChild(f);});}
        kind.addEventListener('change',update);sort.addEventListener('change',update);})();
        """

    /// Writes the page atomically.
    public func write(to url: URL) throws {
        try Data(html().utf8).write(to: url, options: .atomic)
    }
}
