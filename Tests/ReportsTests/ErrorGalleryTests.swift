import Boxes
import Evaluation
import Foundation
import Images
@testable import Reports
import ScreenDescription
import Shards
import TestSupport
import XCTest

/// The report's "Where it fails" section and its gallery, on a shard of letterboxed screenshots.
final class ErrorGalleryTests: XCTestCase {
    /// Two screens stored 200 x 400, screenshots of 100 x 400 (so the right half is padding): on s0 a
    /// true a and b, an a detection on the b box (wrong class), a b detection on nothing (background);
    /// on s1 a true b found and a true a missed.
    func shardAndInput() throws -> (ShardSet, EvaluationInput) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-gallery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("val.h5")
        let writer = try ShardWriter(url: url, classNames: ["a", "b"], imageSize: Size(width: 200, height: 400))
        let truth: [[(Box, Int32)]] = [[(box(10, 10, 40, 30), 0), (box(50, 50, 90, 70), 1)], [(box(10, 100, 90, 140), 1), (box(20, 300, 60, 320), 0)]]
        for (i, boxes) in truth.enumerated() {
            var image = RGBImage(size: Size(width: 200, height: 400), fill: RGB(0, 0, 0))
            image.paste(RGBImage(size: Size(width: 100, height: 400), fill: RGB(240, 240, 240)), x: 0, y: 0)
            try writer.append(ScreenRecord(imageID: "s\(i)", groupID: "g", image: image, boxes: boxes.map(\.0), labels: boxes.map(\.1),
                                           originalSize: Size(width: 100, height: 400)))
        }
        try writer.finish()
        let set = try ShardSet([url.path])
        let (names, images) = try EvaluationLoader.groundTruth(set, classMap: nil)
        let input = EvaluationInput(classNames: names, images: images, detections: [
            Detection(imageID: "s0", label: 0, score: 0.9, box: box(50, 50, 90, 70)),
            Detection(imageID: "s0", label: 1, score: 0.8, box: box(20, 200, 60, 230)),
            Detection(imageID: "s1", label: 1, score: 0.95, box: box(10, 100, 90, 140)),
        ])
        return (set, input)
    }

    func testTheReportShowsTheBreakdownAndTheGallery() throws {
        let (set, input) = try shardAndInput()
        // At 0.5 for both classes (b's pick, 0.95, would drop its false alarm).
        var summary = Evaluator().summarize(input)
        let errors = Evaluator().errors(input, picks: [nil, nil])
        summary.errors = errors
        XCTAssertEqual(errors.records.map(\.kind), [.wrongClass, .background, .missed, .missed, .truePositive, .missed])
        let gallery = try ErrorGallery.make(errors, classCount: 2, set: set)
        XCTAssertEqual(Set(gallery.selection.tiles), [0, 1, 2, 3, 5], "every false positive and miss, no true positive")
        XCTAssertEqual(gallery.selection.confusions, [.init(truth: 1, detected: 0, count: 1, examples: [0])])
        XCTAssertEqual(gallery.selection.screens.map(\.image), [0, 1], "s0 has four errors, s1 one")
        // Crops stay inside the screenshot: none reaches the padding at x >= 100.
        for (n, crop) in gallery.crops {
            let r = ErrorGallery.cropRect(errors.records[n].box, errors.records[n].other?.box, content: Size(width: 100, height: 400))
            XCTAssertLessThanOrEqual(r.x1, 100)
            XCTAssertLessThanOrEqual(crop.picture.size.width, crop.picture.shown.width, "small crops are enlarged by the browser, not in the JPEG")
        }
        XCTAssertEqual(gallery.screens.map(\.picture.shown), [Size(width: 100, height: 400), Size(width: 100, height: 400)], "screens without their padding")

        let html = EvaluationReport(summary, title: "Errors", gallery: gallery).html()
        XCTAssertTrue(html.contains("<h2 id=\"errors\">Where it fails</h2>"))
        let table = section(html, from: "<table class=\"sortable\" id=\"error-table\">", to: "</table>")
        XCTAssertTrue(table.contains("<th>+background</th><th>+wrong class</th><th>+poor localisation</th><th>+duplicate</th><th>+missed</th>"), table)
        let tiles = section(html, from: "<div class=\"gallery\" id=\"g-tiles\">", to: "<h3>Class confusions</h3>")
        XCTAssertEqual(tiles.components(separatedBy: "<figure class=\"tile\"").count - 1, 5)
        XCTAssertTrue(tiles.contains("data-c=\"a\" data-k=\"wrong_class\""), tiles)
        XCTAssertTrue(tiles.contains("wrong class: is b"), tiles)
        XCTAssertTrue(tiles.contains("missed: not detected") && tiles.contains("missed: wrong class"), tiles)
        XCTAssertEqual(html.components(separatedBy: "loading=\"lazy\" decoding=\"async\" src=\"data:image/jpeg;base64,").count - 1, 5 + 1 + 2,
                       "tiles, the confusion's example, two screens: each decoded when scrolled near, not with the page")
        XCTAssertTrue(html.contains("<h3>Screens with the most errors</h3>"))
        let outside = html.components(separatedBy: "http").dropFirst().filter { !$0.hasPrefix("://www.w3.org/2000/svg") }
        XCTAssertTrue(outside.isEmpty, "nothing fetched from the web")
        XCTAssertEqual(html.components(separatedBy: "<script>").count, html.components(separatedBy: "</script>").count)
    }

    func testTheGalleryReadsBoundedScreensAndEveryClassGetsItsWorstFirst() {
        // 120 screens, each with one background false positive of each of 3 classes, scores rising with the screen.
        let images = (0..<120).map { GroundTruthImage(imageID: "s\($0)", boxes: [], labels: []) }
        var detections: [Detection] = []
        for i in 0..<120 { for c in 0..<3 { detections.append(Detection(imageID: "s\(i)", label: c, score: Double(i * 3 + c + 1) / 400, box: box(0, 0, 10, 10))) } }
        let input = EvaluationInput(classNames: ["a", "b", "c"], images: images, detections: detections)
        let errors = Evaluator().errors(input, picks: [nil, nil, nil])
        let selection = ErrorGallery.Selection(errors, classCount: 3)
        let screens = Set(selection.tiles.map { errors.records[$0].image } + selection.screens.map(\.image))
        XCTAssertEqual(ErrorGallery.screensRead(of: 120), 32)
        XCTAssertEqual(ErrorGallery.screensRead(of: 800), 50)
        XCTAssertEqual(ErrorGallery.screensRead(of: 5002), 64)
        XCTAssertEqual(screens.count, 32, "as many as the bound allows")
        for c in 0..<3 {
            let mine = selection.tiles.filter { errors.records[$0].label == c }
            XCTAssertEqual(errors.records[mine[0]].image, 119, "the highest-scoring false positive of each class comes first")
            XCTAssertEqual(mine.count, ErrorGallery.perClass)
            XCTAssertEqual(mine.map { errors.records[$0].score! }, mine.map { errors.records[$0].score! }.sorted(by: >))
        }
    }

    func testTheDescriptionReportOutlinesEachError() {
        let errors = ScreenDescriptionErrors(imageID: "d<1>", mixedGroups: [.init(frame: box(0, 0, 50, 20), parts: [box(0, 0, 20, 20), box(30, 0, 50, 20)])],
                                             splitGroups: [], outOfOrder: [.init(frame: box(0, 40, 50, 60), position: 3, rank: 7)])
        let picture = try! OutlinedPicture(RGBImage(size: Size(width: 100, height: 200), fill: RGB(200, 200, 200)))
        let screen = DescriptionMetricsReport.ErrorScreen(errors: errors, picture: picture, fraction: { $0.transformed(scaleX: 0.01, scaleY: 0.005) })
        let report = DescriptionMetricsReport(DescriptionMetricsFile([]), title: "D", errorScreens: [screen])
        let html = report.html()
        let found = section(html, from: "<h2 id=\"errors\">Where it fails: grouping and order</h2>", to: "</script>")
        XCTAssertEqual(found.components(separatedBy: "<figure class=\"dscreen\"").count - 1, 1)
        XCTAssertTrue(found.contains("data-t=\"2\" data-g=\"1\" data-o=\"1\""), found)
        XCTAssertEqual(found.components(separatedBy: "class=\"box rel\"").count - 1, 2, "the two true elements the group mixes, dashed")
        XCTAssertEqual(found.components(separatedBy: "class=\"box\"").count - 1, 2, "the group and the element out of order")
        XCTAssertTrue(found.contains("<b style=\"background:#d03030\">3\u{2192}7</b>"), found)
        XCTAssertTrue(found.contains("left:0.00%;top:20.00%;width:50.00%;height:10.00%"), found)
        XCTAssertTrue(found.contains("d&lt;1&gt;"))
        XCTAssertFalse(DescriptionMetricsReport(DescriptionMetricsFile([]), title: "D").html().contains("Where it fails"), "no errors, no section")
    }
}
