import Foundation
import IconVocabulary
import Boxes
import Images

/// An icon-classifier run's page for a person: its curves, the figures of icon-recognition.md at
/// the picked threshold, accuracy per type, the confusion matrix, and the crops it confuses most
/// as pictures (what it said beside what they are).
public struct IconClassifierPage {
    /// One logged step.
    public struct Point: Sendable {
        public var step: Int
        public var loss: Double
        public var validationLoss, validationTop1, heldOutTop1: Double?
        public init(step: Int, loss: Double, validationLoss: Double?, validationTop1: Double?, heldOutTop1: Double?) {
            (self.step, self.loss, self.validationLoss, self.validationTop1, self.heldOutTop1) = (step, loss, validationLoss, validationTop1, heldOutTop1)
        }
    }

    /// The figures of one set of crops.
    public struct Figures {
        public var name: String
        public var crops: Int
        public var top1: Double?
        public var labelPrecision: Double?
        public var coverage: Double?
        /// Per type: crops and right at top-1.
        public var perType: [(type: IconType, crops: Int, correct: Int)]
        /// `confusion[truth][top-1]`, vocabulary order.
        public var confusion: [[Int]]
        /// The most frequent confusions, each with a few of its crops.
        public var confused: [(truth: IconType, named: IconType, times: Int, crops: [RGBImage])]
        public init(name: String, crops: Int, top1: Double?, labelPrecision: Double?, coverage: Double?,
                    perType: [(type: IconType, crops: Int, correct: Int)], confusion: [[Int]],
                    confused: [(truth: IconType, named: IconType, times: Int, crops: [RGBImage])]) {
            (self.name, self.crops, self.top1, self.labelPrecision, self.coverage) = (name, crops, top1, labelPrecision, coverage)
            (self.perType, self.confusion, self.confused) = (perType, confusion, confused)
        }
    }

    public var title: String
    public var notes: [String]
    public var points: [Point]
    public var threshold: Float?
    public var figures: [Figures]

    public init(title: String, notes: [String], points: [Point], threshold: Float?, figures: [Figures]) {
        (self.title, self.notes, self.points, self.threshold, self.figures) = (title, notes, points, threshold, figures)
    }

    public func html() -> String {
        func pct(_ v: Double?) -> String { v.map { String(format: "%.1f%%", 100 * $0) } ?? "&ndash;" }
        var h = notes.map { "<p>\(HTML.escape($0))</p>" }.joined()
        h += "<div class=\"curves\">"
        h += LineChart(title: "Loss", xLabel: "step", yLabel: "cross-entropy", series: [
            .init(name: "training", color: "#1f6fd0", points: points.map { (Double($0.step), $0.loss) }),
            .init(name: "validation", color: "#e03a3a", points: points.compactMap { p in p.validationLoss.map { (Double(p.step), $0) } }),
        ]).svg()
        h += LineChart(title: "Top-1 accuracy (%)", xLabel: "step", yLabel: "percent", series: [
            .init(name: "validation glyphs", color: "#1f6fd0", points: points.compactMap { p in p.validationTop1.map { (Double(p.step), 100 * $0) } }),
            .init(name: "held-out families", color: "#2a9d4a", points: points.compactMap { p in p.heldOutTop1.map { (Double(p.step), 100 * $0) } }),
        ]).svg()
        h += "</div>"
        guard !figures.isEmpty else { return HTML.page(title: title, body: h + "<p class=\"note\">No validation yet.</p>") }
        h += "<h2>Figures</h2><p class=\"note\">Top-1 accuracy: crops whose true type is one of the 52, the threshold ignored. "
            + "At the threshold\(threshold.map { String(format: " (%.3f)", $0) } ?? ""): label precision (right labels over labels given, "
            + "<code>other</code> crops included, where any label is wrong) and coverage (labels given on crops of the 52 types).</p>"
        h += "<table><tr><th>crops</th><th>number</th><th>top-1</th><th>label precision</th><th>coverage</th></tr>"
        for f in figures { h += "<tr><td>\(HTML.escape(f.name))</td><td>\(f.crops)</td><td>\(pct(f.top1))</td><td>\(pct(f.labelPrecision))</td><td>\(pct(f.coverage))</td></tr>" }
        h += "</table>"
        for f in figures {
            h += "<h2>\(HTML.escape(f.name)): the crops most often confused</h2><div class=\"screens\">"
            for c in f.confused {
                h += "<div class=\"screen\"><h4>\(HTML.escape(c.truth.name)) named \(HTML.escape(c.named.name)) (\(c.times)&times;)</h4>"
                for crop in c.crops {
                    let png = (try? ImageCodec.encodePNG(crop.resized(to: Self.thumbnailSize(crop))).base64EncodedString()) ?? ""
                    h += "<img alt=\"\(HTML.escape(c.truth.name))\" style=\"margin:2px;border:1px solid #ccc\" src=\"data:image/png;base64,\(png)\">"
                }
                h += "</div>"
            }
            h += "</div><h3>Per type</h3><table><tr><th>type</th><th>crops</th><th>top-1</th></tr>"
            for row in f.perType where row.crops > 0 {
                h += "<tr><td>\(HTML.escape(row.type.name))</td><td>\(row.crops)</td><td>\(pct(Double(row.correct) / Double(row.crops)))</td></tr>"
            }
            h += "</table><h3>Confusion matrix (rows: true type; columns: top-1)</h3>"
            h += HeatMap(names: IconVocabulary.types.map(\.name), counts: f.confusion, cell: 16).svg(normalised: true)
        }
        return HTML.page(title: title, body: h)
    }

    /// Crops shown at 64 pixels on their longer side.
    static func thumbnailSize(_ crop: RGBImage) -> Size {
        let s = 64 / Float(max(1, max(crop.width, crop.height)))
        return Size(width: max(1, Int(Float(crop.width) * s)), height: max(1, Int(Float(crop.height) * s)))
    }

    /// Writes the page atomically.
    public func write(to url: URL) throws { try HTML.write(html(), to: url) }
}
