import Boxes
import Evaluation
import Foundation
import Images

/// A single self-contained HTML page for a person: what was scored (data, screens, checkpoint and
/// weights), the per-class table (AP50, AP-center, AP50-95, AP50 by size), validation screens with
/// their true boxes beside the detections, the PR curves of all classes with their mean on one plot,
/// a PR curve per class with the picked threshold marked (as the paper's Figure 5), F1 against
/// threshold, and the confusion matrix as heat maps with counts, raw and normalised by row (as the
/// paper's Figure 6). Pictures are inline SVG drawn here, screenshots inline PNG data; nothing is
/// fetched from the network.
public struct EvaluationReport {
    public var summary: EvaluationSummary
    /// Figures to show beside ours; the paper's for its vocabulary unless set otherwise.
    public var reference: ReferenceFigures?
    public var title: String
    /// Screens drawn with their boxes; none leaves the section out.
    public var screens: [ReportScreen]
    /// Pictures of the summary's errors; nil shows their table without pictures.
    public var gallery: ErrorGallery?

    /// The page of `summary`, with the paper's figures when it covers the default vocabulary.
    public init(_ summary: EvaluationSummary, title: String, screens: [ReportScreen] = [], gallery: ErrorGallery? = nil) {
        self.summary = summary
        self.reference = ReferenceFigures.paper(for: summary.result.classes.map(\.name))
        self.title = title
        self.screens = screens
        self.gallery = gallery
    }

    var result: EvaluationResult { summary.result }
    private var thresholds: [PickedThreshold?] { summary.picks }
    private var confusion: ConfusionMatrix { summary.confusion }

    /// The whole page: inline CSS and SVG, no external resources.
    public func html() -> String { HTML.page(title: title, body: body()) }

    /// The page's content without its frame, for pages that show an evaluation among other things.
    public func body() -> String {
        var h = scored()
        h += "<p class=\"headline\">mAP50 <strong>\(pct(result.map50))</strong> &middot; mAP50-95 <strong>\(pct(result.map50to95))</strong> &middot; mAP-center <strong>\(pct(result.mapCenter))</strong></p>"
        h += table()
        if !screens.isEmpty { h += screenGrid() }
        if let errors = summary.errors { h += errorsSection(errors) }
        h += "<h2>Precision-recall, all classes</h2><p class=\"note\">Each class's precision against recall (interpolated: the best precision at that recall or beyond); "
            + "the thick line is their mean at each recall, over the classes with ground truth.</p>" + allClassesPlot()
        h += "<h2>Precision-recall curves</h2><p class=\"note\">Blue: precision against recall; the dot marks the picked threshold (none where the best F1 is 0).</p><div class=\"curves\">"
        for (c, pick) in zip(result.classes, thresholds) where c.gtCount > 0 {
            h += "<div class=\"curve\"><h4>\(escape(c.name)) <span class=\"note\">AP50 \(pct(c.ap50))</span></h4>" + prCurve(c, pick) + "</div>"
        }
        h += "</div><h2>F1 against threshold</h2><p class=\"note\">F1 at each distinct score; the dot marks the picked threshold.</p><div class=\"curves\">"
        for (c, pick) in zip(result.classes, thresholds) where c.gtCount > 0 { h += "<div class=\"curve\"><h4>\(escape(c.name))</h4>" + f1Curve(c, pick) + "</div>" }
        h += "</div><h2>Confusion matrix</h2><p class=\"note\">Rows: ground truth; columns: detections at the picked thresholds (0.5 where none); last row and column: background (missed boxes, false alarms).</p>"
        h += "<h3>Counts</h3>" + heatMap(normalised: false) + "<h3>Normalised by row</h3>" + heatMap(normalised: true)
        return h
    }

    /// The page's name in an evaluation folder.
    public static let fileName = "report.html"

    /// Writes the page atomically.
    public func write(to url: URL) throws { try HTML.write(html(), to: url) }

    func pct(_ v: Double?) -> String { v.map { String(format: "%.1f", 100 * $0) } ?? "&ndash;" }

    /// What was scored: the data, the screens, where the detections came from, how they were scored.
    private func scored() -> String {
        var rows: [(String, String)] = []
        if let s = summary.source {
            let shown = s.data.prefix(8).map { "<code>\(escape($0))</code>" }.joined(separator: "<br>")
            rows.append(("ground truth", shown + (s.data.count > 8 ? "<br>and \(s.data.count - 8) more shards" : "")))
            rows.append(("screens", "\(result.images) screens, \(s.groundTruthBoxes) boxes"))
            if let d = s.detections { rows.append(("detections", "<code>\(escape(d))</code>")) }
            if let c = s.checkpoint { rows.append(("checkpoint", "<code>\(escape(c))</code>")) }
            if let w = s.weights {
                var text = "<code>\(escape(w))</code>"
                let about = [s.weightsKind.map { escape($0) }, s.step.map { "step \($0)" }].compactMap { $0 }
                if !about.isEmpty { text += " (" + about.joined(separator: ", ") + ")" }
                rows.append(("weights", text))
            }
            if let m = s.classMap { rows.append(("class map", "<code>\(escape(m))</code>")) }
        } else {
            rows.append(("screens", "\(result.images) screens"))
        }
        rows.append(("detections scored", "\(result.classes.reduce(0) { $0 + $1.detections }) in \(result.classes.count) classes"))
        rows.append(("scoring", "IoU \(result.iouThreshold), \(result.interpolation.rawValue) interpolation; AP50-95 over IoU 0.50:0.05:0.95; thresholds picked by \(escape(summary.strategy.description))"))
        if let b = result.sizeBuckets {
            rows.append(("sizes", "box area as a share of the screen's area: small " + escape(b.label(.small)) + ", medium " + escape(b.label(.medium)) + ", large " + escape(b.label(.large))))
        } else {
            rows.append(("sizes", "no AP by size: the screens' sizes are unknown"))
        }
        return "<table class=\"kv\">" + rows.map { "<tr><th>\($0.0)</th><td>\($0.1)</td></tr>" }.joined() + "</table>"
    }

    private func table() -> String {
        var h = "<table><tr><th>class</th><th>AP50</th><th>AP-center</th><th>AP50-95</th><th>AP50 small</th><th>AP50 medium</th><th>AP50 large</th>"
            + "<th>GT</th><th>detections</th><th>threshold</th><th>precision</th><th>recall</th><th>F1</th>"
        if let reference { h += "<th>\(escape(reference.name)) AP50</th><th>\(escape(reference.name)) AP-center</th>" }
        h += "</tr>"
        for (c, p) in zip(result.classes, thresholds) {
            h += "<tr><td>\(escape(c.name))</td><td>\(pct(c.ap50))</td><td>\(pct(c.apCenter))</td><td>\(pct(c.ap50to95))</td>"
            for b in SizeBucket.allCases {
                let count = c.gtCountBySize.map { " title=\"\($0[b]) boxes\"" } ?? ""
                h += "<td\(count)>\(pct(c.apBySize[b]))</td>"
            }
            h += "<td>\(c.gtCount)</td><td>\(c.detections)</td>"
            h += "<td>\(p.map { String(format: "%.3f", $0.threshold) } ?? "&ndash;")</td><td>\(pct(p?.precision))</td><td>\(pct(p?.recall))</td><td>\(pct(p?.f1))</td>"
            if let reference { h += reference.perClass[c.name].map { String(format: "<td>%.1f</td><td>%.1f</td>", $0.ap50, $0.apCenter) } ?? "<td></td><td></td>" }
            h += "</tr>"
        }
        h += "<tr><th>mean</th><th>\(pct(result.map50))</th><th>\(pct(result.mapCenter))</th><th>\(pct(result.map50to95))</th>"
        for b in SizeBucket.allCases { h += "<th>\(pct(result.map50BySize[b]))</th>" }
        h += "<th colspan=\"6\"></th>"
        if let m = reference?.mean { h += String(format: "<th>%.1f</th><th>%.1f</th>", m.ap50, m.apCenter) }
        h += "</tr><tr><th>weighted by GT</th><th>\(pct(result.map50Weighted))</th><th>\(pct(result.mapCenterWeighted))</th><th colspan=\"10\"></th>"
        if let reference { h += String(format: "<th>%.1f</th><th></th>", reference.weightedAP50) }
        h += "</tr></table>"
        if let b = result.sizeBuckets {
            h += "<p class=\"note\">AP50 by size: boxes by their share of the screen's area, small \(escape(b.label(.small))), medium \(escape(b.label(.medium))), "
                + "large \(escape(b.label(.large))) (COCO's rules for an area range; hover a figure for its number of boxes). &ndash;: no boxes of that size.</p>"
        }
        return h
    }

    // MARK: Screens

    /// Each screen twice, side by side: its true boxes, then the detections kept at the picked thresholds.
    private func screenGrid() -> String {
        var h = "<h2>Validation screens</h2><p class=\"note\">The first \(screens.count) screens with boxes: ground truth on the left, "
            + "detections at the picked thresholds (0.5 where none) with their scores on the right.</p>"
        h += "<div class=\"legend\">" + result.classes.enumerated().map { k, c in
            "<span><i style=\"background:\(Self.hex(ClassColors.color(k)))\"></i>\(escape(c.name))</span>"
        }.joined() + "</div><div class=\"screens\">"
        for s in screens {
            let png = (try? ImageCodec.encodePNG(Self.thumbnail(s.image, width: Self.screenWidth)).base64EncodedString()) ?? ""
            h += "<div class=\"screen\"><h4>\(escape(s.imageID))</h4><div class=\"pair\">"
            h += "<figure>" + screenSVG(s.image.size, png: png, boxes: s.truth.map { ($0.box, $0.label, nil) }) + "<figcaption>ground truth: \(s.truth.count)</figcaption></figure>"
            h += "<figure>" + screenSVG(s.image.size, png: png, boxes: s.detections.map { ($0.box, $0.label, $0.score) }) + "<figcaption>detections: \(s.detections.count)</figcaption></figure>"
            h += "</div></div>"
        }
        return h + "</div>"
    }

    /// How many screens `uidetect evaluate` and a validation show.
    public static let screensShown = 8

    /// Screens are drawn this many CSS pixels wide.
    static let screenWidth = 260

    /// `image` at most twice `width` pixels wide (enough for a sharp picture at `width` on a 2x display).
    static func thumbnail(_ image: RGBImage, width: Int) -> RGBImage {
        guard image.width > 2 * width else { return image }
        let w = 2 * width, h = max(1, Int((Double(image.height) * Double(w) / Double(image.width)).rounded()))
        return image.resized(to: Size(width: w, height: h))
    }

    static func hex(_ c: RGB) -> String { String(format: "#%02X%02X%02X", c.r, c.g, c.b) }

    /// One screen as SVG: the picture, then each box outlined 2 px wide in its class colour with a tag
    /// (class name, and score for a detection) kept inside the picture.
    private func screenSVG(_ size: Size, png: String, boxes: [(box: Box, label: Int, score: Double?)]) -> String {
        let w = Double(Self.screenWidth), scale = w / Double(size.width), h = (Double(size.height) * scale).rounded()
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" font-size=\"9\">"
        s += "<image width=\"\(Int(w))\" height=\"\(Int(h))\" preserveAspectRatio=\"none\" href=\"data:image/png;base64,\(png)\"/>"
        // Lowest score first, so that the best detections are drawn on top.
        for b in boxes.reversed() {
            let x0 = Double(b.box.xMin) * scale, y0 = Double(b.box.yMin) * scale
            let bw = max(1, Double(b.box.width) * scale), bh = max(1, Double(b.box.height) * scale)
            let color = ClassColors.color(b.label)
            let c = Self.hex(color)
            // A dark halo under the coloured line keeps it visible on light and dark screens alike.
            s += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#000\" stroke-opacity=\"0.45\" stroke-width=\"3\"/>", x0, y0, bw, bh)
            s += "<rect x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(bw))\" height=\"\(f(bh))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"2\"/>"
            let name = b.label < result.classes.count ? result.classes[b.label].name : "class \(b.label)"
            let label = b.score.map { name + String(format: " %.2f", $0) } ?? name
            let tagW = Double(label.count) * 5.2 + 4, tagH = 11.0
            // Above the box where there is room, else inside its top edge; never past the picture's right edge.
            let ty = y0 - tagH >= 0 ? y0 - tagH : min(y0, h - tagH)
            let tx = max(0, min(x0, w - tagW))
            let ink = color.luminance > 0.55 ? "#000" : "#fff"
            s += "<rect x=\"\(f(tx))\" y=\"\(f(ty))\" width=\"\(f(tagW))\" height=\"\(f(tagH))\" fill=\"\(c)\" fill-opacity=\"0.85\"/>"
            s += "<text x=\"\(f(tx + 2))\" y=\"\(f(ty + 8.5))\" fill=\"\(ink)\">\(escape(label))</text>"
        }
        return s + "</svg>"
    }

    // MARK: Curves

    /// The interpolated precision of `curve` (the best at that recall or beyond) at recall 0, 0.01, ..., 1.
    static func interpolatedPrecision(_ curve: [PRPoint]) -> [Double] {
        var envelope = curve.map(\.precision)
        for i in stride(from: envelope.count - 2, through: 0, by: -1) { envelope[i] = max(envelope[i], envelope[i + 1]) }
        var out: [Double] = [], j = 0
        for i in 0...100 {
            let r = Double(i) / 100
            while j < curve.count && curve[j].recall < r { j += 1 }
            out.append(j < curve.count ? envelope[j] : 0)
        }
        return out
    }

    /// Every class's interpolated PR curve in its colour and their mean in a thick dark line, with a
    /// legend beside the plot (never over it) naming each class with its AP50.
    private func allClassesPlot() -> String {
        let scoredClasses = result.classes.enumerated().filter { $0.element.gtCount > 0 }
        let (left, top, plotW, plotH) = (48.0, 12.0, 380.0, 320.0)
        let legendX = left + plotW + 24, lineHeight = 15.0
        func plain(_ v: Double?) -> String { v.map { String(format: "%.1f", 100 * $0) } ?? "-" }
        let labels = scoredClasses.map { "\($0.element.name) \(plain($0.element.ap50))" } + ["mean of \(scoredClasses.count) classes: mAP50 \(plain(result.map50))"]
        let longest = labels.map(\.count).max() ?? 0
        // 7 px a character is wider than any of Helvetica's at 11 px, bold included: the legend is never cut.
        let width = legendX + 26 + Double(longest) * 7 + 12
        let height = max(top + plotH + 40, top + lineHeight * Double(labels.count + 1))
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-size=\"11\">"
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotW)\" height=\"\(plotH)\" fill=\"#fafafa\" stroke=\"#999\"/>"
        func px(_ r: Double) -> Double { left + r * plotW }
        func py(_ p: Double) -> Double { top + (1 - p) * plotH }
        for t in stride(from: 0.0, through: 1.0, by: 0.2) {
            s += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>", px(t), top, px(t), top + plotH)
            s += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>", left, py(t), left + plotW, py(t))
            s += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.1f</text>", px(t), top + plotH + 14, t)
            s += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>", left - 5, py(t) + 4, t)
        }
        s += "<text x=\"\(left + plotW / 2)\" y=\"\(top + plotH + 32)\" text-anchor=\"middle\">recall</text>"
        s += "<text x=\"12\" y=\"\(top + plotH / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 12 \(top + plotH / 2))\">precision</text>"
        var sum = [Double](repeating: 0, count: 101)
        for (k, c) in scoredClasses {
            let p = Self.interpolatedPrecision(c.curve)
            for i in 0...100 { sum[i] += p[i] }
            let coords = (0...100).map { String(format: "%.1f,%.1f", px(Double($0) / 100), py(p[$0])) }.joined(separator: " ")
            s += "<polyline fill=\"none\" stroke=\"\(Self.hex(ClassColors.color(k)))\" stroke-width=\"1.2\" stroke-opacity=\"0.8\" points=\"\(coords)\"/>"
        }
        if !scoredClasses.isEmpty {
            let coords = (0...100).map { String(format: "%.1f,%.1f", px(Double($0) / 100), py(sum[$0] / Double(scoredClasses.count))) }.joined(separator: " ")
            s += "<polyline fill=\"none\" stroke=\"#1a1a5e\" stroke-width=\"3.5\" points=\"\(coords)\"/>"
        }
        for (n, label) in labels.enumerated() {
            let y = top + 10 + Double(n) * lineHeight
            let isMean = n == labels.count - 1
            let color = isMean ? "#1a1a5e" : Self.hex(ClassColors.color(scoredClasses[n].offset))
            s += "<line x1=\"\(f(legendX))\" y1=\"\(f(y - 4))\" x2=\"\(f(legendX + 20))\" y2=\"\(f(y - 4))\" stroke=\"\(color)\" stroke-width=\"\(isMean ? "3.5" : "2")\"/>"
            s += "<text x=\"\(f(legendX + 26))\" y=\"\(f(y))\"\(isMean ? " font-weight=\"bold\"" : "")>\(escape(label))</text>"
        }
        return s + "</svg>"
    }

    /// Axes of a unit square plot, 200 x 200 with margins; returns the SVG prefix and the point mapping.
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

    /// The curve in tenths of a pixel. A class's curve has a point per detection (tens of thousands on a
    /// large test set) but a 200-pixel plot shows far fewer: runs of points on one tenth are drawn once.
    /// Formatting is by hand, as `String(format:)` for every point made this the slowest part of `evaluate`.
    private func polyline(_ points: [(Double, Double)], _ map: (Double, Double) -> (Double, Double)) -> String {
        var coords = ""
        coords.reserveCapacity(16 * min(points.count, 4096))
        var last: (Int, Int)? = nil
        for p in points {
            let (x, y) = map(p.0, p.1)
            let tenths = (Int((x * 10).rounded()), Int((y * 10).rounded()))
            // A repeated point draws nothing; every corner of a step has coordinates of its own and stays.
            if let l = last, l == tenths { continue }
            if last != nil { coords += " " }
            Self.appendTenths(tenths.0, to: &coords)
            coords += ","
            Self.appendTenths(tenths.1, to: &coords)
            last = tenths
        }
        return "<polyline fill=\"none\" stroke=\"#1f6fd0\" stroke-width=\"1.5\" points=\"\(coords)\"/>"
    }

    /// `tenths / 10` with one decimal, as "%.1f" would print it.
    static func appendTenths(_ tenths: Int, to s: inout String) {
        if tenths < 0 { s += "-" }
        let m = tenths.magnitude
        s += String(m / 10)
        s += "."
        s += String(m % 10)
    }

    /// A dot with its label on whichever side keeps the label inside the plot (the plot spans x 40...240, y 10...210).
    private func marker(_ x: Double, _ y: Double, _ map: (Double, Double) -> (Double, Double), label: String) -> String {
        let (px, py) = map(x, y)
        let right = px < 170
        let ty = py < 26 ? py + 14 : py - 6
        return "<circle cx=\"\(px)\" cy=\"\(py)\" r=\"4\" fill=\"#e03a3a\"/><text x=\"\(right ? px + 6 : px - 6)\" y=\"\(ty)\" fill=\"#e03a3a\""
            + (right ? "" : " text-anchor=\"end\"") + ">\(label)</text>"
    }

    private func prCurve(_ c: ClassResult, _ pick: PickedThreshold?) -> String {
        var (s, map) = axes(xLabel: "recall", yLabel: "precision")
        s += polyline([(0, c.curve.first?.precision ?? 0)] + c.curve.map { ($0.recall, $0.precision) }, map)
        if let p = pick { s += marker(p.recall, p.precision, map, label: String(format: "t=%.2f", p.threshold)) }
        return s + "</svg>"
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

    /// The matrix as a heat map; its margins grow with the longest class name, so that no label is cut.
    private func heatMap(normalised: Bool) -> String {
        HeatMap(names: confusion.classNames + ["background"], counts: confusion.counts).svg(normalised: normalised)
    }

    func escape(_ s: String) -> String { HTML.escape(s) }

    /// A coordinate with one decimal.
    private func f(_ v: Double) -> String { String(format: "%.1f", v) }
}
