import Boxes
import Foundation
import Images
import Shards
import TestSupport
import XCTest

/// `export-data`, `import yolo DATA.yaml`, COCO results of `evaluate` and `predict`, and predict's images.json, end to end.
final class InterchangeCommandTests: XCTestCase {
    /// 10 synthetic screens (64 x 128) split by app into `train` and `val` under `dir/data`.
    func syntheticData(in dir: URL) throws -> URL {
        try syntheticSplits(in: dir, count: 10, size: "64x128", seed: 3, fractions: "0.6,0.4")
    }

    func testExportedSplitsImportBackThroughDataYAML() throws {
        let dir = try scratchFolder(prefix: "uidetect-export-yolo-cli")
        let data = try syntheticData(in: dir)
        let yolo = dir.appendingPathComponent("yolo")
        for split in ["train", "val"] {
            let run = try runUIDetect(["export-data", "yolo", data.appendingPathComponent(split).path, "--out", yolo.path, "--split", split])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let imported = dir.appendingPathComponent("imported")
        let run = try runUIDetect(["import", "yolo", yolo.appendingPathComponent("data.yaml").path, "--out", imported.path, "--size", "64x128"])
        XCTAssertEqual(run.status, 0, run.stderr)
        for split in ["train", "val"] {
            let original = try ShardSet([data.appendingPathComponent(split).path])
            let back = try ShardSet([imported.appendingPathComponent(split).path])
            XCTAssertEqual(back.readers.flatMap(\.imageIDs), original.readers.flatMap(\.imageIDs), split)
            XCTAssertEqual(back.classNames, original.classNames)
            XCTAssertEqual(back.readers.flatMap(\.labels), original.readers.flatMap(\.labels), split)
            let report = try String(contentsOf: imported.appendingPathComponent("\(split)/import-report.txt"), encoding: .utf8)
            XCTAssertFalse(report.contains("clipped"), "boxes on the edge stay within the rounding of 6 decimals: \(report)")
        }
        let again = try runUIDetect(["import", "yolo", yolo.appendingPathComponent("data.yaml").path, "--out", imported.path])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("already holds shards"), again.stderr)
    }

    /// evaluate --checkpoint writes COCO results numbered as export-data coco numbers the same shards,
    /// and evaluating those COCO results against the exported instances gives the same metrics.json.
    func testCOCOResultsOfACheckpointScoreAsItsOwnDetections() throws {
        let dir = try scratchFolder(prefix: "uidetect-coco-results-cli")
        let data = try syntheticData(in: dir)
        let checkpoint = try plantedCheckpoint(in: dir)
        let val = data.appendingPathComponent("val").path
        let first = dir.appendingPathComponent("first")
        var run = try runUIDetect(["evaluate", "--data", val, "--checkpoint", checkpoint.path, "--out", first.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let results = first.appendingPathComponent("detections.coco.json")
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: results)) as! [[String: Any]]
        XCTAssertFalse(records.isEmpty)
        XCTAssertEqual(Set(records.map { Set($0.keys) }), [["image_id", "category_id", "bbox", "score"]])

        let instances = dir.appendingPathComponent("gt.json"), images = dir.appendingPathComponent("images")
        run = try runUIDetect(["export-data", "coco", val, "--out", instances.path, "--images", images.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let gt = try JSONSerialization.jsonObject(with: Data(contentsOf: instances)) as! [String: Any]
        let files = (gt["images"] as! [[String: Any]]).map { $0["file_name"] as! String }
        XCTAssertEqual(files.count, try ShardSet([val]).count)
        for file in files { XCTAssertNoThrow(try ImageCodec.read(images.appendingPathComponent(file)), file) }

        let second = dir.appendingPathComponent("second")
        run = try runUIDetect(["evaluate", "--data", val, "--detections", results.path, "--coco-instances", instances.path, "--out", second.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The same figures; `source` says what each scored (the checkpoint, then the COCO results).
        func figures(_ folder: URL) throws -> NSDictionary {
            var m = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("metrics.json"))) as! [String: Any]
            m["source"] = nil
            return NSDictionary(dictionary: m)
        }
        XCTAssertEqual(try figures(first), try figures(second))
        run = try runUIDetect(["evaluate", "--data", val, "--detections", results.path, "--out", dir.appendingPathComponent("third").path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("--coco-instances"), run.stderr)
    }

    /// Two screenshots with one name get ids `shot` and `shot-2`; images.json gives each its path, size
    /// and COCO id, and detections.coco.json uses those ids.
    func testPredictWritesImagesJSONWithDistinctIDs() throws {
        let dir = try scratchFolder(prefix: "uidetect-predict-images-cli")
        let checkpoint = try plantedCheckpoint(in: dir)
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        for (folder, size) in [(a, Size(width: 100, height: 150)), (b, Size(width: 90, height: 200))] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try ImageCodec.writePNG(RGBImage(size: size, fill: RGB(200, 200, 200)), to: folder.appendingPathComponent("shot.png"))
        }
        let out = dir.appendingPathComponent("out")
        let run = try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--no-overlays", "--score-threshold", "0.5", a.path, b.path, "--out", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("images.json"))) as! [[String: Any]]
        XCTAssertEqual(entries.map { $0["image_id"] as? String }, ["shot", "shot-2"])
        XCTAssertEqual(entries.map { $0["path"] as? String }, [a.appendingPathComponent("shot.png").path, b.appendingPathComponent("shot.png").path])
        XCTAssertEqual(entries.map { $0["width"] as? Int }, [100, 90])
        XCTAssertEqual(entries.map { $0["height"] as? Int }, [150, 200])
        XCTAssertEqual(entries.map { $0["coco_id"] as? Int }, [1, 2])
        let detections = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("detections.json"))) as! [[String: Any]]
        let coco = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("detections.coco.json"))) as! [[String: Any]]
        XCTAssertEqual(coco.count, detections.count)
        XCTAssertEqual(Set(detections.map { $0["image_id"] as! String }), ["shot", "shot-2"])
        for (ours, theirs) in zip(detections, coco) {
            XCTAssertEqual(theirs["image_id"] as? Int, ours["image_id"] as? String == "shot" ? 1 : 2)
            XCTAssertEqual(theirs["category_id"] as? Int, 10, "text is the 10th default class")
            let box = ours["box"] as! [Double], bbox = theirs["bbox"] as! [Double]
            // detections.json prints float32 values; the COCO results their doubles: equal once both are float32 again.
            XCTAssertEqual([bbox[0], bbox[1], bbox[0] + bbox[2], bbox[1] + bbox[3]].map { Float($0) }, box.map { Float($0) })
        }
    }
}
