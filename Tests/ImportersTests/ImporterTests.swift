import Boxes
import Foundation
import Importers
import Shards
import TestSupport
import XCTest

final class ImporterTests: XCTestCase {
    let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
    let size = Size(width: 64, height: 128)  // 60x120 screens scale by 64/60 = 1.0667

    /// An output folder that does not exist yet.
    func outputFolder() throws -> URL { try scratchFolder(prefix: "uidetect-import").appendingPathComponent("out") }

    func testCOCOImportMapsBoxesAndReportsEveryProblem() throws {
        let source = try COCOSource(json: fixtures.appendingPathComponent("coco/instances.json"), imagesFolder: fixtures.appendingPathComponent("coco/images"))
        XCTAssertEqual(source.classNames, ["text", "icon", "picture"])  // by category id
        let out = try outputFolder()
        let report = try DatasetImporter(sourceClasses: source.classNames, classMap: nil, size: size, prefix: "coco").run(source.screens, into: out)
        XCTAssertEqual(report.screens, 2)
        XCTAssertEqual(report.count(.degenerate), 1)
        XCTAssertEqual(report.count(.outside), 1)
        XCTAssertEqual(report.count(.clipped), 1)
        XCTAssertEqual(report.count(.unknownClass), 1)
        XCTAssertTrue(report.problems.allSatisfy { $0.file == "b.png" }, "\(report.problems)")
        let shard = try ShardReader(url: report.shards[0])
        XCTAssertEqual(shard.classNames, ["text", "icon", "picture"])
        XCTAssertEqual(shard.imageSize, size)
        XCTAssertEqual(shard.originalSizes, [Size(width: 60, height: 120), Size(width: 60, height: 120)])
        let a = try shard.record(at: 0)
        let s: Float = 64.0 / 60.0
        XCTAssertEqual(a.labels, [0, 1, 2])
        XCTAssertEqual(a.boxes[0].xMin, 5 * s, accuracy: 1e-4)
        XCTAssertEqual(a.boxes[0].yMax, 21 * s, accuracy: 1e-4)
        let b = try shard.record(at: 1)
        XCTAssertEqual(b.labels, [2])
        XCTAssertEqual(b.boxes[0], Box(xMin: 50, yMin: 100, xMax: 60, yMax: 120).transformed(scaleX: s, scaleY: s))  // clipped
    }

    func testVOCImportReadsJPEGAndOneBasedCoordinates() throws {
        let source = try VOCSource(folder: fixtures.appendingPathComponent("voc"))
        XCTAssertEqual(source.classNames, ["icon", "picture", "slider", "text"])
        let out = try outputFolder()
        let report = try DatasetImporter(sourceClasses: source.classNames, classMap: nil, size: size, prefix: "voc").run(source.screens, into: out)
        XCTAssertEqual(report.screens, 2)
        XCTAssertEqual(report.count(.degenerate), 1)  // xmax < xmin (xmin == xmax is one pixel wide in VOC)
        XCTAssertEqual(report.count(.clipped), 1)     // icon below the image
        let x = try ShardReader(url: report.shards[0]).record(at: 0)
        let s: Float = 64.0 / 60.0
        XCTAssertEqual(x.boxes[0], Box(xMin: 5, yMin: 10, xMax: 41, yMax: 21).transformed(scaleX: s, scaleY: s))
        // The JPEG decoded: the "text" rectangle is blue-ish inside its box.
        let image = try XCTUnwrap(x.image)
        let p = image.pixel(x: 20, y: 16)
        XCTAssertGreaterThan(Int(p.b), Int(p.r) + 100)
    }

    func testClassMapRenamesAndDrops() throws {
        let dir = try outputFolder()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let mapURL = dir.appendingPathComponent("map.yaml")
        try "common_classes: [text, image]\nsource:\n  picture: image\n".write(to: mapURL, atomically: true, encoding: .utf8)
        let map = try ClassMap(contentsOf: mapURL)
        let source = try COCOSource(json: fixtures.appendingPathComponent("coco/instances.json"), imagesFolder: fixtures.appendingPathComponent("coco/images"))
        let report = try DatasetImporter(sourceClasses: source.classNames, classMap: map, size: size, prefix: "coco")
            .run(source.screens, into: dir.appendingPathComponent("out"))
        XCTAssertEqual(report.count(.unmapped), 2)  // the icons (one valid, one outside: unmapped is checked first)
        let shard = try ShardReader(url: report.shards[0])
        XCTAssertEqual(shard.classNames, ["text", "image"])
        XCTAssertEqual(try shard.record(at: 0).labels, [0, 1])
    }

    func testClassMapErrorsNameTheField() throws {
        let dir = try outputFolder()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("bad.yaml")
        try "common_classes: [text]\nsource:\n  Text: txt\n".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ClassMap(contentsOf: url)) { XCTAssertEqual(($0 as? ClassMapError)?.field, "source.Text") }
        try "common_classes: [text]\ncolours: 3\n".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ClassMap(contentsOf: url)) { XCTAssertEqual(($0 as? ClassMapError)?.field, "colours") }
        // A renaming given twice: YAML would keep the second silently.
        try "common_classes: [text, image]\nsource:\n  Text: text\n  Picture: image\n  Text: image\n".write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ClassMap(contentsOf: url)) { e in
            XCTAssertEqual("\(e)", "\(url.path): field 'source.Text': given twice in one mapping (lines 3 and 5); YAML would keep the last silently: keep one")
        }
    }

    func testYOLOImportOfRealScreensWithPolygonsAndBadLines() throws {
        let real = try realUIScreens()
        // A handful of real screens in the YOLO layout, class names from data.yaml in the parent.
        let root = try outputFolder()
        let split = root.appendingPathComponent("train")
        let fm = FileManager.default
        try fm.createDirectory(at: split.appendingPathComponent("images"), withIntermediateDirectories: true)
        try fm.createDirectory(at: split.appendingPathComponent("labels"), withIntermediateDirectories: true)
        try fm.copyItem(at: real.appendingPathComponent("data.yaml"), to: root.appendingPathComponent("data.yaml"))
        let names = try fm.contentsOfDirectory(atPath: real.appendingPathComponent("valid/images").path).sorted().prefix(5)
        for name in names {
            let stem = (name as NSString).deletingPathExtension
            try fm.copyItem(at: real.appendingPathComponent("valid/images/\(name)"), to: split.appendingPathComponent("images/\(name)"))
            try fm.copyItem(at: real.appendingPathComponent("valid/labels/\(stem).txt"), to: split.appendingPathComponent("labels/\(stem).txt"))
        }
        let firstStem = (names.first! as NSString).deletingPathExtension
        let label = split.appendingPathComponent("labels/\(firstStem).txt")
        let extra = "14 0.1 0.1 0.3 0.1 0.3 0.2 0.1 0.2\nnot a line\n25 0.5 0.5 0.1 0.1\n"
        try (try String(contentsOf: label, encoding: .utf8) + (try String(contentsOf: label, encoding: .utf8).hasSuffix("\n") ? "" : "\n") + extra)
            .write(to: label, atomically: true, encoding: .utf8)

        let source = try YOLOSource(folder: split)
        XCTAssertEqual(source.classNames.count, 19)
        XCTAssertEqual(source.classNames[14], "Text")
        let report = try DatasetImporter(sourceClasses: source.classNames, classMap: nil, size: Size(width: 256, height: 512), prefix: "yolo")
            .run(source.screens, into: root.appendingPathComponent("shards"))
        XCTAssertEqual(report.screens, 5)
        XCTAssertEqual(report.count(.polygon), 1)
        XCTAssertEqual(report.count(.badLine), 1)
        XCTAssertEqual(report.count(.unknownClass), 1)  // class 25 of 19
        let shard = try ShardReader(url: report.shards[0])
        let first = try shard.record(at: 0)
        let original = try XCTUnwrap(first.originalSize)
        XCTAssertGreaterThan(original.height, original.width)
        let scale = min(256 / Float(original.width), 512 / Float(original.height))
        // The polygon became its bounding box, in stored pixels.
        let polygon = try XCTUnwrap(first.boxes.last)
        XCTAssertEqual(polygon.xMin, 0.1 * Float(original.width) * scale, accuracy: 0.01)
        XCTAssertEqual(polygon.yMax, 0.2 * Float(original.height) * scale, accuracy: 0.01)
        XCTAssertEqual(first.labels.last, 14)
        for b in first.boxes { XCTAssertTrue(b.xMax <= 256.001 && b.yMax <= 512.001) }
    }
}
