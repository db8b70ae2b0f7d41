import Foundation
import TestSupport
import Images
import Boxes
import XCTest

/// `import` end to end: what a source's files get wrong is in OUT/import-report.txt with the counts
/// at the end, or refused with a message naming the file; never a crash, never silence.
final class ImportReportTests: XCTestCase {
    func image(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 40, height: 80), fill: RGB(90, 90, 90)), to: url)
    }

    func testALabelFileNotInUTF8OrUTF16IsReportedAndItsScreenLeftOut() throws {
        let dir = try scratchFolder(prefix: "uidetect-import-latin1")
        let yolo = dir.appendingPathComponent("yolo")
        try image(yolo.appendingPathComponent("images/good.png"))
        try image(yolo.appendingPathComponent("images/accent.png"))
        try FileManager.default.createDirectory(at: yolo.appendingPathComponent("labels"), withIntermediateDirectories: true)
        try Data("names: [button]\n".utf8).write(to: yolo.appendingPathComponent("data.yaml"))
        try Data("0 0.5 0.5 0.5 0.5\n".utf8).write(to: yolo.appendingPathComponent("labels/good.txt"))
        try Data(Array("0 0.5 0.5 0.5 0.5 ".utf8) + [0xE9, 0x0A]).write(to: yolo.appendingPathComponent("labels/accent.txt"))
        let out = dir.appendingPathComponent("out")
        let run = try runUIDetect(["import", "yolo", yolo.path, "--out", out.path, "--size", "40x80"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("imported 1 screens with 1 boxes"), run.stdout)
        let report = try String(contentsOf: out.appendingPathComponent("import-report.txt"), encoding: .utf8)
        XCTAssertTrue(report.contains("accent.png: label file unreadable or not UTF-8 or UTF-16 text, screen skipped: \(yolo.path)/labels/accent.txt: byte 18: 0xE9 is not UTF-8"), report)
        XCTAssertTrue(report.hasSuffix("\n1 x label file unreadable or not UTF-8 or UTF-16 text, screen skipped\n"), report)
    }

    func testCOCOAnnotationsOfNoImageAreReportedAndCategoriesOfOneNameRefused() throws {
        let dir = try scratchFolder(prefix: "uidetect-import-coco-faults")
        try image(dir.appendingPathComponent("a.png"))
        let json = dir.appendingPathComponent("instances.json")
        func instances(categories: String) throws {
            try Data("""
            {"images": [{"id": 1, "file_name": "a.png"}],
             "annotations": [{"id": 5, "image_id": 1, "category_id": 1, "bbox": [1, 2, 10, 20]},
                             {"id": 6, "image_id": 2, "category_id": 1, "bbox": [1, 2, 10, 20]}],
             "categories": [\(categories)]}
            """.utf8).write(to: json)
        }
        try instances(categories: #"{"id": 1, "name": "button"}"#)
        let out = dir.appendingPathComponent("out")
        var run = try runUIDetect(["import", "coco", json.path, "--out", out.path, "--size", "40x80"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try String(contentsOf: out.appendingPathComponent("import-report.txt"), encoding: .utf8)
        XCTAssertTrue(report.hasPrefix("instances.json: annotation of an image the file does not list, dropped: annotations[1] (id 6): image_id 2 is not in images\n"), report)
        XCTAssertTrue(report.hasSuffix("\n1 x annotation of an image the file does not list, dropped\n"), report)
        // Two categories of one name: a clear error (it was SIGILL), nothing written.
        try instances(categories: #"{"id": 1, "name": "button"}, {"id": 4, "name": "button"}"#)
        let second = dir.appendingPathComponent("second")
        run = try runUIDetect(["import", "coco", json.path, "--out", second.path, "--size", "40x80"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(json.path): categories[1].name: categories 1 and 4 are both named 'button'"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: second.path))
    }
}
