import Boxes
import Evaluation
import Foundation
import Images
@testable import Reports
import Shards
import TestSupport
import XCTest

/// What the report says it scored, its screens, the all-classes PR plot, and labels kept in view.
final class EvaluationReportPicturesTests: XCTestCase {
    func testTheReportSaysWhatItScored() {
        var summary = smallSummary()
        summary.source = EvaluationSource(data: ["/data/val-00000.h5", "/data/val-00001.h5"], groundTruthBoxes: 3, checkpoint: "Experiments/run",
                                          weights: "Experiments/run/checkpoints/best/model.safetensors", step: 1500,
                                          weightsKind: "ema (decay 0.999, 1500 updates)")
        let html = EvaluationReport(summary, title: "Small").html()
        let scored = section(html, from: "<table class=\"kv\">", to: "</table>")
        XCTAssertTrue(scored.contains("<code>/data/val-00000.h5</code><br><code>/data/val-00001.h5</code>"), scored)
        XCTAssertTrue(scored.contains("<th>screens</th><td>1 screens, 3 boxes</td>"), scored)
        XCTAssertTrue(scored.contains("<th>checkpoint</th><td><code>Experiments/run</code></td>"), scored)
        XCTAssertTrue(scored.contains("<code>Experiments/run/checkpoints/best/model.safetensors</code> (ema (decay 0.999, 1500 updates), step 1500)"), scored)
        XCTAssertTrue(scored.contains("AP50-95 over IoU 0.50:0.05:0.95"), scored)
        XCTAssertTrue(scored.contains("no AP by size: the screens' sizes are unknown"), scored)
        XCTAssertTrue(html.contains("mAP50 <strong>75.0</strong> &middot; mAP50-95 <strong>75.0</strong>"), html)
    }

    func testSizeBucketsAreNamedInTheReport() {
        let input = EvaluationInput(classNames: ["a"],
                                    images: [GroundTruthImage(imageID: "s", boxes: [box(0, 0, 5, 5), box(0, 0, 50, 50)], labels: [0, 0], screenArea: 10_000)],
                                    detections: [Detection(imageID: "s", label: 0, score: 0.9, box: box(0, 0, 5, 5))])
        let html = EvaluationReport(Evaluator().summarize(input), title: "Sizes").html()
        XCTAssertTrue(html.contains("small &lt; 0.5%, medium 0.5%-5%, large &gt;= 5%"), html)
        // Small found (100), no medium boxes (dash), large missed (0).
        XCTAssertTrue(html.contains("<td title=\"1 boxes\">100.0</td><td title=\"0 boxes\">&ndash;</td><td title=\"1 boxes\">0.0</td>"), html)
        let table = EvaluationTable.render(Evaluator().summarize(input))
        XCTAssertTrue(table.hasPrefix("1 images, IoU 0.5, all_point interpolation; AP50-95 over IoU 0.50:0.05:0.95; AP-S/M/L: AP50 of boxes < 0.5%, 0.5%-5%, >= 5% of the screen's area"), table)
    }

    func testAClassWithoutAPickedThresholdHasNoMarker() {
        // "text" has two boxes and only false alarms: its best F1 is 0.
        let input = EvaluationInput(classNames: ["icon", "text"],
                                    images: [GroundTruthImage(imageID: "s", boxes: [box(0, 0, 10, 10), box(20, 0, 40, 10), box(20, 20, 40, 30)], labels: [0, 1, 1])],
                                    detections: [Detection(imageID: "s", label: 0, score: 0.8, box: box(0, 0, 10, 10)),
                                                 Detection(imageID: "s", label: 1, score: 0.4, box: box(60, 60, 70, 70))])
        let html = EvaluationReport(Evaluator().summarize(input), title: "No pick").html()
        XCTAssertTrue(html.contains("<td>2</td><td>1</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td><td>&ndash;</td>"), html)
        let curves = section(html, from: "<h2>Precision-recall curves</h2>", to: "<h2>F1 against threshold</h2>")
        XCTAssertEqual(curves.components(separatedBy: "<circle").count - 1, 1, "icon's pick only")
    }

    func testScreensShowTrueBoxesBesideTheDetectionsKeptAtThePickedThresholds() throws {
        // A 100 x 200 screen shown 260 wide (scale 2.6): the detection at 0.6 is below text's pick (0.9) and left out.
        let summary = smallSummary()
        let input = EvaluationInput(classNames: ["<b>bold</b>", "text", "empty"],
                                    images: [GroundTruthImage(imageID: "s", boxes: [box(0, 0, 10, 10), box(20, 0, 40, 10), box(20, 20, 40, 30)], labels: [0, 1, 1])],
                                    detections: [Detection(imageID: "s", label: 0, score: 0.8, box: box(0, 0, 10, 10)),
                                                 Detection(imageID: "s", label: 1, score: 0.9, box: box(20, 0, 40, 10)),
                                                 Detection(imageID: "s", label: 1, score: 0.6, box: box(60, 60, 70, 70))])
        let kept = ReportScreen.kept(input, picks: summary.picks)["s"]!
        XCTAssertEqual(kept.map(\.score), [0.9, 0.8], "best first; 0.6 is below text's threshold")
        let screen = ReportScreen(imageID: "s", image: RGBImage(size: Size(width: 100, height: 200), fill: RGB(250, 250, 250)),
                                  truth: zip(input.images[0].boxes, input.images[0].labels).map { ($0, $1) }, detections: kept)
        let html = EvaluationReport(summary, title: "Screens", screens: [screen]).html()
        let grid = section(html, from: "<h2>Validation screens</h2>", to: "<h2>Precision-recall, all classes</h2>")
        let pictures = grid.components(separatedBy: "<svg").dropFirst()
        XCTAssertEqual(pictures.count, 2, "ground truth and detections side by side")
        XCTAssertTrue(pictures.allSatisfy { $0.contains("href=\"data:image/png;base64,") })
        XCTAssertEqual(pictures.first!.components(separatedBy: "stroke-width=\"2\"").count - 1, 3, "three true boxes, 2 px wide")
        XCTAssertEqual(pictures.last!.components(separatedBy: "stroke-width=\"2\"").count - 1, 2, "two kept detections")
        XCTAssertTrue(pictures.last!.contains(">text 0.90</text>"))
        XCTAssertTrue(grid.contains("<figcaption>ground truth: 3</figcaption>") && grid.contains("<figcaption>detections: 2</figcaption>"))
        // Every tag lies inside the 260 x 520 picture: the boxes at the top edge put theirs inside the box.
        for picture in pictures {
            for tag in picture.components(separatedBy: "fill-opacity=\"0.85\"").dropLast() {
                let attributes = " " + tag.components(separatedBy: "<rect ").last!
                func value(_ name: String) -> Double { Double(section(attributes, from: " \(name)=\"", to: "\""))! }
                XCTAssertGreaterThanOrEqual(value("x"), 0)
                XCTAssertGreaterThanOrEqual(value("y"), 0)
                XCTAssertLessThanOrEqual(value("x") + value("width"), 260)
                XCTAssertLessThanOrEqual(value("y") + value("height"), 520)
            }
        }
    }

    func testScreensComeFromTheShardsFirstScreensWithBoxes() throws {
        let dir = try scratchFolder(prefix: "uidetect-report")
        let url = dir.appendingPathComponent("val.h5")
        let writer = try ShardWriter(url: url, classNames: ["a"], imageSize: Size(width: 40, height: 80))
        for i in 0..<4 {
            let boxes = i == 0 ? [] : [box(2, 2, 20, 10)]
            try writer.append(ScreenRecord(imageID: "s\(i)", groupID: "g", image: RGBImage(size: Size(width: 40, height: 80), fill: RGB(UInt8(i * 50), 0, 0)),
                                           boxes: boxes, labels: boxes.map { _ in 0 }))
        }
        try writer.finish()
        let set = try ShardSet([url.path])
        let (names, images) = try EvaluationLoader.groundTruth(set, classMap: nil)
        let input = EvaluationInput(classNames: names, images: images, detections: [Detection(imageID: "s2", label: 0, score: 0.7, box: box(2, 2, 20, 10))])
        let picks = Evaluator().summarize(input).picks
        let screens = try ReportScreen.first(2, of: set, input: input, picks: picks)
        XCTAssertEqual(screens.map(\.imageID), ["s1", "s2"], "s0 has no boxes")
        XCTAssertEqual(screens[1].image.pixel(x: 0, y: 0), RGB(100, 0, 0))
        XCTAssertEqual(screens.map(\.detections.count), [0, 1])
    }

    func testCurvePointsArePrintedInTenthsAndRepeatsDrawnOnce() {
        for (v, text) in [(12.34, "12.3"), (-0.5, "-0.5"), (0.0, "0.0"), (199.96, "200.0"), (-13.0, "-13.0")] {
            var s = ""
            EvaluationReport.appendTenths(Int((v * 10).rounded()), to: &s)
            XCTAssertEqual(s, text, "\(v)")
        }
        // text's curve: (R 0.5, P 1), (R 0.5, P 0.5), drawn from (R 0, P 1). Its three points are distinct; a
        // curve of many detections at one recall and precision would repeat a point, which is drawn once.
        let html = EvaluationReport(smallSummary(), title: "Small").html()
        let curves = html.components(separatedBy: "<polyline fill=\"none\" stroke=\"#1f6fd0\" stroke-width=\"1.5\" points=\"").dropFirst()
            .map { String($0.prefix { $0 != "\"" }) }
        XCTAssertTrue(curves.contains { $0.split(separator: " ").count == 3 }, "\(curves)")
        for curve in curves {
            let points = curve.split(separator: " ")
            XCTAssertTrue(zip(points, points.dropFirst()).allSatisfy { $0 != $1 }, "no point repeats the one before it: \(curve)")
            XCTAssertTrue(points.allSatisfy { $0.split(separator: ",").allSatisfy { Double($0) != nil && $0.contains(".") } }, curve)
        }
    }

    func testTheAllClassesPlotDrawsEachClassAndTheirMean() {
        // bold: precision 1 up to recall 1. text: (1, 0.5) then (0.5, 0.5): 1 up to recall 0.5, nothing beyond.
        let summary = smallSummary()
        XCTAssertEqual(EvaluationReport.interpolatedPrecision(summary.result.classes[0].curve), [Double](repeating: 1, count: 101))
        let text = EvaluationReport.interpolatedPrecision(summary.result.classes[1].curve)
        XCTAssertEqual(Array(text[0...50]), [Double](repeating: 1, count: 51))
        XCTAssertEqual(Array(text[51...]), [Double](repeating: 0, count: 50))
        let html = EvaluationReport(summary, title: "All").html()
        let plot = section(html, from: "<h2>Precision-recall, all classes</h2>", to: "<h2>Precision-recall curves</h2>")
        XCTAssertEqual(plot.components(separatedBy: "<polyline").count - 1, 3, "two classes with ground truth and the mean")
        // The mean: 1 to recall 0.5, then 0.5 (y = 12 + 0.5 * 320 = 172) to the end (x = 48 + 380 = 428).
        XCTAssertTrue(plot.contains("stroke-width=\"3.5\" points=\"48.0,12.0 ") && plot.contains("428.0,172.0\"/>"), plot)
        XCTAssertTrue(plot.contains(">mean of 2 classes: mAP50 75.0</text>"))
        XCTAssertTrue(plot.contains(">text 50.0</text>"))
        // The legend lies right of the plot and inside the picture's width.
        let width = Double(section(plot, from: "width=\"", to: "\""))!
        XCTAssertGreaterThanOrEqual(width, 48 + 380 + 24 + 26 + Double("mean of 2 classes: mAP50 75.0".count) * 7)
    }

    func testLongClassNamesFitTheHeatMapAndMarkersStayInTheirPlot() {
        var summary = smallSummary()
        let long = "a rather long class name, 40 characters"
        summary.confusion.classNames[1] = long
        let html = EvaluationReport(summary, title: "Long").html()
        let counts = section(html, from: "<h3>Counts</h3>", to: "<h3>Normalised by row</h3>")
        // Row labels end 6 px left of the first cell; the first cell starts after the longest name.
        let firstCell = Double(section(counts, from: "<rect x=\"", to: "\""))!
        XCTAssertGreaterThanOrEqual(firstCell, Double(long.count) * 6)
        // bold's pick sits at recall 1, the plot's right edge: its label is drawn leftwards.
        let bold = section(html, from: "<h2>Precision-recall curves</h2>", to: "</svg>")
        XCTAssertTrue(bold.contains("text-anchor=\"end\">t=0.80</text>"), bold)
    }
}

/// predict's index.html.
final class PredictionIndexTests: XCTestCase {
    func testEachOverlayIsLinkedWithItsSizeAndWhatWasFound() {
        let page = PredictionIndex(title: "Detections", notes: ["checkpoint: run"], classNames: ["text", "<icon>"],
                                   entries: [PredictionIndex.Entry(imageID: "home #1", overlay: "home #1.png", source: "/shots/home #1.png", width: 1170, height: 2532,
                                                                   labels: [0, 1, 0]),
                                             PredictionIndex.Entry(imageID: "blank", overlay: "blank.png", source: "/shots/blank.png", width: 10, height: 20, labels: [])]).html()
        XCTAssertTrue(page.contains("<a href=\"home%20%231.png\"><img src=\"home%20%231.png\" alt=\"home #1\""), page)
        XCTAssertTrue(page.contains("1170 &times; 2532 &middot; 3 detections<br><span class=\"found\">text 2, &lt;icon&gt; 1</span>"), page)
        XCTAssertTrue(page.contains("nothing found"))
        XCTAssertTrue(page.contains("2 screenshots, 3 detections"))
        XCTAssertTrue(page.contains("<p class=\"note\">checkpoint: run</p>"))
        XCTAssertFalse(page.contains("<icon>"), "names are escaped")
    }
}
