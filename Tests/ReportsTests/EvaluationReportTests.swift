import Boxes
import Evaluation
import Foundation
import Reports
import Shards
import TestSupport
import XCTest


/// Three classes: `<b>bold</b>` (one box, found), `text` (two boxes, one found above a false alarm), `empty` (no boxes).
func smallSummary() -> EvaluationSummary {
    let input = EvaluationInput(
        classNames: ["<b>bold</b>", "text", "empty"],
        images: [GroundTruthImage(imageID: "s", boxes: [box(0, 0, 10, 10), box(20, 0, 40, 10), box(20, 20, 40, 30)], labels: [0, 1, 1])],
        detections: [Detection(imageID: "s", label: 0, score: 0.8, box: box(0, 0, 10, 10)),
                     Detection(imageID: "s", label: 1, score: 0.9, box: box(20, 0, 40, 10)),
                     Detection(imageID: "s", label: 1, score: 0.6, box: box(60, 60, 70, 70))])
    return Evaluator().summarize(input)
}

/// The part of `text` from `start` up to `end` (or to its end).
func section(_ text: String, from start: String, to end: String? = nil) -> String {
    guard let a = text.range(of: start) else { return "" }
    let rest = text[a.upperBound...]
    guard let end, let b = rest.range(of: end) else { return String(rest) }
    return String(rest[..<b.lowerBound])
}

final class EvaluationReportTests: XCTestCase {
    func testTheTableHoldsEachClassWithItsPercentages() {
        let html = EvaluationReport(smallSummary(), title: "Small").html()
        // text: curve (P 1, R .5), (P .5, R .5): AP 50; max F1 at 0.9 with P 100, R 50, F1 66.7.
        XCTAssertTrue(html.contains("<tr><td>text</td><td>50.0</td><td>50.0</td><td>50.0</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>2</td><td>2</td><td>0.900</td><td>100.0</td><td>50.0</td><td>66.7</td></tr>"), html)
        XCTAssertTrue(html.contains("<tr><td>&lt;b&gt;bold&lt;/b&gt;</td><td>100.0</td><td>100.0</td><td>100.0</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>1</td><td>1</td><td>0.800</td><td>100.0</td><td>100.0</td><td>100.0</td></tr>"), html)
        XCTAssertTrue(html.contains("<tr><td>empty</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>0</td><td>0</td><td>&ndash;</td>"), html)
        XCTAssertTrue(html.contains("<tr><th>mean</th><th>75.0</th><th>75.0</th><th>75.0</th>"), html)
        XCTAssertFalse(html.contains("paper"), "another vocabulary has no reference figures")
    }

    func testOnePRCurvePerClassWithGroundTruthAndBothHeatMaps() {
        let html = EvaluationReport(smallSummary(), title: "Small").html()
        let curves = section(html, from: "<h2>Precision-recall curves</h2>", to: "<h2>F1 against threshold</h2>")
        XCTAssertEqual(curves.components(separatedBy: "<svg").count - 1, 2, "bold and text have ground truth; empty has none")
        XCTAssertEqual(section(html, from: "<h2>F1 against threshold</h2>", to: "<h2>Confusion matrix</h2>").components(separatedBy: "<svg").count - 1, 2)
        let counts = section(html, from: "<h3>Counts</h3>", to: "<h3>Normalised by row</h3>")
        XCTAssertTrue(counts.hasPrefix("<svg"), counts)
        XCTAssertEqual(counts.components(separatedBy: "<rect").count - 1, 16, "4 x 4 cells: three classes and background")
        XCTAssertTrue(section(html, from: "<h3>Normalised by row</h3>").hasPrefix("<svg"))
        XCTAssertTrue(counts.contains(">background</text>"))
    }

    func testThePageIsSelfContainedAndEscapesNames() {
        var summary = smallSummary()
        summary.result.classes[1].name = "a & \"b\""
        let html = EvaluationReport(summary, title: "<script>x</script>").html()
        let outside = html.components(separatedBy: "http").dropFirst().filter { !$0.hasPrefix("://www.w3.org/2000/svg") }
        XCTAssertEqual(outside, [], "the report must open without the network")
        XCTAssertFalse(html.contains("src=") || html.contains("@import"))
        XCTAssertEqual(html.components(separatedBy: "href=\"").dropFirst().filter { !$0.hasPrefix("data:image/png;base64,") }, [],
                       "pictures are inline data")
        XCTAssertFalse(html.contains("<b>"), "class names are escaped")
        XCTAssertFalse(html.contains("<script>"), "the title is escaped")
        XCTAssertTrue(html.contains("&lt;b&gt;bold&lt;/b&gt;"))
        XCTAssertTrue(html.contains("<td>a &amp; &quot;b&quot;</td>"))
    }

    func testTheDefaultVocabularyShowsThePapersFigures() {
        var images: [GroundTruthImage] = []
        var detections: [Detection] = []
        for (k, _) in defaultClassNames.enumerated() {
            images.append(GroundTruthImage(imageID: "s\(k)", boxes: [box(0, 0, 10, 10)], labels: [k]))
            detections.append(Detection(imageID: "s\(k)", label: k, score: 0.9, box: box(0, 0, 10, 10)))
        }
        let summary = Evaluator().summarize(EvaluationInput(classNames: defaultClassNames, images: images, detections: detections))
        let html = EvaluationReport(summary, title: "Default").html()
        XCTAssertTrue(html.contains("<th>paper AP50</th><th>paper AP-center</th>"))
        XCTAssertTrue(html.contains("<tr><td>text</td><td>100.0</td><td>100.0</td><td>100.0</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>1</td><td>1</td><td>0.900</td><td>100.0</td><td>100.0</td><td>100.0</td><td>87.5</td><td>91.7</td></tr>"), html)
        XCTAssertTrue(html.contains("<th>71.3</th><th>75.4</th>"))

        let table = EvaluationTable.render(summary)
        let lines = table.components(separatedBy: "\n")
        XCTAssertTrue(lines[1].hasSuffix("   paper AP50 AP-ctr"), lines[1])
        let text = lines.first { $0.hasPrefix("text ") }!
        XCTAssertTrue(text.hasSuffix("        87.5   91.7"), text)
        let mean = lines.first { $0.hasPrefix("mean ") }!
        XCTAssertTrue(mean.hasSuffix(" 71.3   75.4"))
        // The reference figures of every row end in the same columns.
        XCTAssertEqual(mean.count, text.count)
        XCTAssertEqual(lines[1].count, text.count)
        XCTAssertTrue(lines.last!.hasSuffix(" 82.7"), lines.last!)
        XCTAssertEqual(lines.last!.count, text.count - 7)
    }

    func testTheTextTableOfAnotherVocabularyHasNoPaperColumns() {
        let table = EvaluationTable.render(smallSummary())
        XCTAssertFalse(table.contains("paper"), table)
        XCTAssertFalse(table.contains("71.3"), table)
        let lines = table.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], "1 images, IoU 0.5, all_point interpolation; AP50-95 over IoU 0.50:0.05:0.95; AP by size: screen sizes unknown")
        XCTAssertEqual(lines[1], "class                 AP50 AP-ctr AP50-95  AP-S  AP-M  AP-L     GT  dets  thresh   prec    rec")
        XCTAssertEqual(lines[3], "text                  50.0   50.0    50.0     -     -     -      2     2   0.900  100.0   50.0")
        XCTAssertEqual(lines[4], "empty                    -      -       -     -     -     -      0     0       -      -      -")
        XCTAssertEqual(lines[5], "mean                  75.0   75.0    75.0     -     -     -")
        XCTAssertEqual(lines.count, 7, "header lines, three classes, the mean and the weighted mean")
    }
}
