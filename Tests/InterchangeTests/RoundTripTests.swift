import Boxes
import Foundation
import Images
import Importers
import Interchange
import Shards
import TestSupport
import XCTest

/// Hand-made shards: two files, three screens of 48 x 96 (not square), boxes at coordinates no grid holds,
/// one screen without boxes, and an image id that is no file name.
func handMadeShards(in dir: URL) throws -> ShardSet {
    let classes = ["button", "text", "icon"]
    let size = Size(width: 48, height: 96)
    func screen(_ id: String, group: String, shade: UInt8, _ boxes: [(Box, Int32)]) -> ScreenRecord {
        var image = RGBImage(size: size, fill: RGB(shade, 200, 255 - shade))
        for (k, (b, _)) in boxes.enumerated() { image.fill(b, color: RGB(UInt8(40 * k), 20, 90)) }
        return ScreenRecord(imageID: id, groupID: group, image: image, boxes: boxes.map(\.0), labels: boxes.map(\.1))
    }
    let first = try ShardWriter(url: dir.appendingPathComponent("a.h5"), classNames: classes, imageSize: size)
    try first.append(screen("app1/screen 1é", group: "app1", shade: 10, [
        (Box(xMin: 3.3, yMin: 7.1, xMax: 20.77, yMax: 15.25), 1),
        (Box(xMin: 0, yMin: 0.1, xMax: 48, yMax: 96), 0),
        (Box(xMin: 30.123456, yMin: 50.9, xMax: 41.000004, yMax: 61.3), 2),
    ]))
    try first.append(screen("scr-2", group: "app1", shade: 120, []))
    try first.finish()
    let second = try ShardWriter(url: dir.appendingPathComponent("b.h5"), classNames: classes, imageSize: size)
    try second.append(screen("scr-3", group: "app2", shade: 240, [
        (Box(xMin: 1.0 / 3, yMin: 2.0 / 3, xMax: 47.9, yMax: 95.99), 2),
        // Float(x) + Float(w) rounds twice and misses x_max here; x + w in double does not.
        (Box(xMin: 8.663976, yMin: 28.12163, xMax: 30.347689, yMax: 62.171436), 0),
    ]))
    try second.finish()
    return try ShardSet([dir.appendingPathComponent("a.h5").path, dir.appendingPathComponent("b.h5").path])
}

final class RoundTripTests: XCTestCase {
    /// Imports `screens` at the shards' own size (so the letterbox scale is 1) and reads every screen back.
    func imported(_ classes: [String], _ screens: [SourceScreen], into dir: URL) throws -> [ScreenRecord] {
        let report = try DatasetImporter(sourceClasses: classes, classMap: nil, size: Size(width: 48, height: 96), prefix: "back").run(screens, into: dir)
        XCTAssertTrue(report.problems.isEmpty, "\(report.problems)")
        let set = try ShardSet([dir.path])
        return try (0..<set.count).map { try set.record(at: $0) }
    }

    func testShardsToCOCOAndBackKeepEveryBoxBitForBit() throws {
        let dir = try scratchFolder(prefix: "uidetect-coco-trip")
        let set = try handMadeShards(in: dir)
        let json = dir.appendingPathComponent("instances.json"), images = dir.appendingPathComponent("images")
        let summary = try COCOExport.write(set, to: json, imagesFolder: images)
        XCTAssertEqual(summary, ExportSummary(images: 3, boxes: 5, classes: 3))

        let instances = try COCOInstances(contentsOf: json)
        XCTAssertEqual(instances.categories, [.init(id: 1, name: "button"), .init(id: 2, name: "text"), .init(id: 3, name: "icon")])
        XCTAssertEqual(instances.images.map(\.id), [1, 2, 3])
        XCTAssertEqual(instances.images.map(\.fileName), ["app1_screen_1_.png", "scr-2.png", "scr-3.png"])
        XCTAssertEqual(instances.images.map(\.uidetectImageID), ["app1/screen 1é", "scr-2", "scr-3"])
        XCTAssertTrue(instances.images.allSatisfy { $0.width == 48 && $0.height == 96 })
        let first = instances.annotations[0]
        XCTAssertEqual(first.imageID, 1)
        XCTAssertEqual(first.categoryID, 2)
        XCTAssertEqual(first.iscrowd, 0)
        XCTAssertEqual(first.bbox, [Double(Float(3.3)), Double(Float(7.1)), Double(Float(20.77)) - Double(Float(3.3)), Double(Float(15.25)) - Double(Float(7.1))])
        XCTAssertEqual(first.area, first.bbox[2] * first.bbox[3])
        XCTAssertEqual(instances.annotations.map(\.imageID), [1, 1, 1, 3, 3])

        let source = try COCOSource(json: json, imagesFolder: images)
        XCTAssertEqual(source.classNames, set.classNames)
        let back = try imported(source.classNames, source.screens, into: dir.appendingPathComponent("back"))
        XCTAssertEqual(back.count, set.count)
        for (k, record) in back.enumerated() {
            let original = try set.record(at: k)
            XCTAssertEqual(record.imageID, original.imageID)
            XCTAssertEqual(record.groupID, original.groupID)
            XCTAssertEqual(record.labels, original.labels)
            XCTAssertEqual(record.boxes, original.boxes, "float32 boxes come back bit for bit")
            XCTAssertEqual(record.image, original.image, "PNG keeps the pixels")
        }
    }

    func testShardsToYOLOAndBackKeepBoxesWithinAThousandthOfAPixel() throws {
        let dir = try scratchFolder(prefix: "uidetect-yolo-trip")
        let set = try handMadeShards(in: dir)
        let folder = dir.appendingPathComponent("yolo")
        XCTAssertEqual(try YOLOExport.write(set, to: folder, split: nil), ExportSummary(images: 3, boxes: 5, classes: 3))
        let data = try UltralyticsData(contentsOf: folder.appendingPathComponent("data.yaml"))
        XCTAssertEqual(data.names, ["button", "text", "icon"])
        XCTAssertEqual(data.train, ["images"])
        XCTAssertEqual(data.val, ["images"])
        let lines = try String(contentsOf: folder.appendingPathComponent("labels/scr-3.txt"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.map { $0.split(separator: " ").count }, [5, 5])
        XCTAssertTrue(lines[1].hasPrefix("0 0.406"), "class cx cy w h: \(lines[1])")

        let source = try YOLOSource(folder: folder)
        let back = try imported(source.classNames, source.screens, into: dir.appendingPathComponent("back"))
        XCTAssertEqual(back.map(\.imageID), ["app1_screen_1_", "scr-2", "scr-3"], "ids that are file names survive; others are made file names")
        for (k, record) in back.enumerated() {
            let original = try set.record(at: k)
            XCTAssertEqual(record.labels, original.labels)
            XCTAssertEqual(record.image, original.image)
            XCTAssertEqual(record.boxes.count, original.boxes.count)
            for (b, o) in zip(record.boxes, original.boxes) {
                for (x, y) in [(b.xMin, o.xMin), (b.yMin, o.yMin), (b.xMax, o.xMax), (b.yMax, o.yMax)] { XCTAssertEqual(x, y, accuracy: 1e-3, "\(b) vs \(o)") }
            }
        }
    }

    func testSplitExportsShareOneDataYAMLThatUltralyticsReads() throws {
        let dir = try scratchFolder(prefix: "uidetect-yolo-splits")
        let set = try handMadeShards(in: dir)
        let folder = dir.appendingPathComponent("yolo")
        _ = try YOLOExport.write(try ShardSet([dir.appendingPathComponent("a.h5").path]), to: folder, split: "train")
        _ = try YOLOExport.write(try ShardSet([dir.appendingPathComponent("b.h5").path]), to: folder, split: "val")
        XCTAssertThrowsError(try YOLOExport.write(set, to: folder, split: "val")) { XCTAssertTrue("\($0)".contains("already holds files"), "\($0)") }
        let dataset = try UltralyticsDataset(yaml: folder.appendingPathComponent("data.yaml"))
        XCTAssertEqual(dataset.splits.map(\.name), ["train", "val"])
        XCTAssertEqual(dataset.splits.map { $0.source.screens.map(\.imageID) }, [["app1_screen_1_", "scr-2"], ["scr-3"]])

        // The same folder read the Ultralytics way by a reference script (PyYAML, numpy; no Ultralytics).
        try requirePython(["yaml", "numpy"])
        let out = dir.appendingPathComponent("reference.json")
        let script = Bundle.module.resourceURL!.appendingPathComponent("Scripts/ultralytics_layout.py")
        let python = try runProgram(["python3", script.path, folder.appendingPathComponent("data.yaml").path, out.path])
        XCTAssertEqual(python.status, 0, python.output)
        struct Reference: Decodable {
            struct Image: Decodable { let size: [Int]; let classes: [Int]; let boxes: [[Double]] }
            let names: [String]
            let splits: [String: [String: Image]]
        }
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: out))
        XCTAssertEqual(reference.names, set.classNames)
        XCTAssertEqual(reference.splits.keys.sorted(), ["train", "val"])
        var compared = 0
        for k in 0..<set.count {
            let original = try set.record(at: k)
            let split = k < 2 ? "train" : "val"
            let image = try XCTUnwrap(reference.splits[split]?[UniqueNames.fileName(for: original.imageID)], "\(original.imageID) in \(split)")
            XCTAssertEqual(image.size, [48, 96])
            XCTAssertEqual(image.classes, original.labels.map(Int.init))
            for (b, o) in zip(image.boxes, original.boxes) {
                for (x, y) in zip(b, [o.xMin, o.yMin, o.xMax, o.yMax]) { XCTAssertEqual(x, Double(y), accuracy: 1e-3) }
                compared += 1
            }
        }
        XCTAssertEqual(compared, 5)
    }

    func testExportRefusesDetectionShardsAndRepeatedIDs() throws {
        let dir = try scratchFolder(prefix: "uidetect-export-refusals")
        _ = try handMadeShards(in: dir)
        let copy = dir.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("b.h5"), to: copy.appendingPathComponent("b.h5"))
        let twice = try ShardSet([dir.appendingPathComponent("b.h5").path, copy.appendingPathComponent("b.h5").path])
        XCTAssertThrowsError(try COCOExport.write(twice, to: dir.appendingPathComponent("x.json"), imagesFolder: nil)) {
            XCTAssertTrue("\($0)".contains("image_id 'scr-3' is also in"), "\($0)")
        }
        let detections = try ShardWriter(url: dir.appendingPathComponent("dets.h5"), classNames: ["text"], imageSize: nil)
        try detections.append(ScreenRecord(imageID: "s", groupID: "s", image: nil, boxes: [Box(xMin: 0, yMin: 0, xMax: 1, yMax: 1)], labels: [0], scores: [0.5]))
        try detections.finish()
        XCTAssertThrowsError(try YOLOExport.write(try ShardSet([dir.appendingPathComponent("dets.h5").path]), to: dir.appendingPathComponent("y"), split: nil)) {
            XCTAssertTrue("\($0)".contains("a detection shard"), "\($0)")
        }
    }
}
