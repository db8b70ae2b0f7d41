import Boxes
import Detection
import DetectorRuns
import Engine
import Evaluation
import Foundation
import Images
import Interchange
import Shards
import TestSupport
import XCTest

/// A thresholds file as `evaluate` writes it: `text` picked at 0.6, `icon` with no pick (null).
func thresholdsFile(in dir: URL, classes: String = #""text": {"threshold": 0.6, "precision": 1, "recall": 1, "f1": 1}, "icon": null"#) throws -> URL {
    let url = dir.appendingPathComponent("thresholds.json")
    try #"{"strategy": "max_f1", "classes": {\#(classes)}}"#.write(to: url, atomically: true, encoding: .utf8)
    return url
}

/// `--thresholds` turned into the deployment filter in one place, for predict, describe and export.
final class DeploymentThresholdsTests: XCTestCase {
    func testWithoutAFileEveryClassGetsTheFallback() throws {
        let none = try DeploymentThresholds(file: nil, classNames: ["text", "icon"])
        XCTAssertEqual(none.picked, [:])
        XCTAssertEqual(none.filter(classNames: ["text", "icon"], fallback: 0.3).thresholds, ["text": 0.3, "icon": 0.3])
        XCTAssertEqual(none.filter(classNames: ["text", "icon"], fallback: nil).thresholds, [:], "no fallback: every detection kept, as the exported graph")
        XCTAssertEqual(none.metadata, [:])
        XCTAssertEqual(none.describe(fallback: 0.25), "threshold 0.25 for every class")
    }

    func testAFilesPicksWinOverTheFallbackAndTravelAsMetadata() throws {
        let file = try thresholdsFile(in: try scratchFolder(prefix: "uidetect-deployment"))
        let picked = try DeploymentThresholds(file: file.path, classNames: ["text", "icon", "button"])
        XCTAssertEqual(picked.picked, ["text": 0.6], "a class without a pick keeps none")
        XCTAssertEqual(picked.filter(classNames: ["text", "icon", "button"], fallback: 0.3).thresholds, ["text": 0.6, "icon": 0.3, "button": 0.3])
        let metadata = try XCTUnwrap(picked.metadata["thresholds"])
        XCTAssertEqual(try JSONDecoder().decode([String: Float].self, from: Data(metadata.utf8)), ["text": 0.6])
        XCTAssertEqual(picked.describe(fallback: 0.3), "thresholds of \(file.path), 0.3 for classes it leaves out")
    }

    func testAFileNamingAClassTheDetectorLacksIsRefusedNamingTheFile() throws {
        let file = try thresholdsFile(in: try scratchFolder(prefix: "uidetect-deployment"),
                                      classes: #""spaceship": {"threshold": 0.5, "precision": 1, "recall": 1, "f1": 1}"#)
        XCTAssertThrowsError(try DeploymentThresholds(file: file.path, classNames: ["text"])) { e in
            XCTAssertTrue("\(e)".contains(file.path) && "\(e)".contains("'spaceship'"), "\(e)")
        }
    }
}

/// Evaluations and predictions with the planted detector (text everywhere, every box an anchor),
/// whose outputs are known on any machine.
final class DetectorRunTests: XCTestCase {
    /// Four synthetic screens stored at 128 x 256, twice the planted detector's input.
    func shards(_ dir: URL) throws -> ShardSet {
        try ShardSet([try writeSyntheticShard(to: dir.appendingPathComponent("gt.h5"), screens: 0..<4, size: Size(width: 128, height: 256), seed: 9).path])
    }

    /// Boxes come back in stored pixels: inside the screen, and beyond the input's 64 x 128.
    func testShardInferenceMapsBoxesBackToStoredPixelsInBatches() throws {
        let set = try shards(try scratchFolder(prefix: "uidetect-shard-inference"))
        let detector = SSDDetector(model: try plantedModel())
        var progress: [(Int, Int)] = [], batches: [Int] = []
        let found = try ShardInference.detections(detector, set: set, indices: [3, 1, 2], batchSize: 2, progress: { progress.append(($0, $1)) },
                                                  observe: { _, _, targets in batches.append(targets.count) })
        XCTAssertEqual(progress.map(\.0), [2, 3])
        XCTAssertEqual(batches, [2, 1])
        let ids = try [3, 1, 2].map { try set.record(at: $0, withImage: false).imageID }
        XCTAssertEqual(Set(found.map(\.imageID)), Set(ids), "only the screens asked for")
        XCTAssertTrue(found.allSatisfy { $0.box.xMin >= 0 && $0.box.yMin >= 0 && $0.box.xMax <= 128 && $0.box.yMax <= 256 })
        XCTAssertGreaterThan(found.map(\.box.yMax).max() ?? 0, 128)
        XCTAssertTrue(found.allSatisfy { defaultClassNames[$0.label] == "text" })
    }

    /// The truth given back as detections scores AP 1 on every class that has boxes; the files are written.
    func testTheTruthAsADetectionsFileScoresOne() throws {
        let dir = try scratchFolder(prefix: "uidetect-evaluation-run")
        let set = try shards(dir)
        var records: [[String: Any]] = []
        for i in 0..<set.count {
            let r = try set.record(at: i, withImage: false)
            for (b, l) in zip(r.boxes, r.labels) {
                records.append(["image_id": r.imageID, "class": defaultClassNames[Int(l)], "score": 0.9, "box": [b.xMin, b.yMin, b.xMax, b.yMax].map(Double.init)])
            }
        }
        let file = dir.appendingPathComponent("dets.json")
        try JSONSerialization.data(withJSONObject: records).write(to: file)
        let run = try EvaluationRun(set: set)
        XCTAssertEqual(run.images.count, 4)
        XCTAssertEqual(run.source().groundTruthBoxes, records.count)
        let evaluated = try run.score(file: file.path)
        XCTAssertEqual(evaluated.summary.result.map50, 1)
        XCTAssertEqual(evaluated.summary.source?.detections, file.path)
        XCTAssertNil(evaluated.found, "a file's detections are not the run's to write again")
        let out = dir.appendingPathComponent("eval")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try run.write(evaluated, title: "t", files: .json, to: out)
        for name in ["metrics.json", "pr_curves.csv", "thresholds.json", "confusion_matrix.csv", ErrorsFile.fileName, "report.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), name)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent(DetectionsFile.fileName).path))
        XCTAssertEqual(try EvaluationRun(set: set, limit: 2).images.count, 2, "a limit keeps the first screens")
    }

    /// The planted detector run over the shards: its detections kept for the files, all `text`.
    func testADetectorIsRunOverTheScreensAndItsDetectionsWritten() throws {
        let dir = try scratchFolder(prefix: "uidetect-evaluation-run")
        let set = try shards(dir)
        let run = try EvaluationRun(set: set)
        var source = run.source()
        source.checkpoint = "planted"
        let evaluated = try run.score(detector: SSDDetector(model: try plantedModel()), classNames: defaultClassNames, batchSize: 3, source: source)
        let found = try XCTUnwrap(evaluated.found)
        XCTAssertFalse(found.detections.isEmpty)
        XCTAssertEqual(found.classNames, defaultClassNames)
        XCTAssertEqual(evaluated.summary.source?.checkpoint, "planted")
        let text = try XCTUnwrap(evaluated.summary.result.classes.first { $0.name == "text" })
        XCTAssertEqual(text.detections, found.detections.count, "every detection is text")
        let out = dir.appendingPathComponent("eval")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let left = try run.write(evaluated, title: "t", files: .jsonAndCOCO(run.exportNumbering), to: out)
        XCTAssertEqual(left, COCOResultsFile.LeftOut(), "export-data's numbering has every screen and class")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(DetectionsFile.fileName))) as? [[String: Any]]
        XCTAssertEqual(written?.count, found.detections.count)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(COCOResultsFile.fileName).path))
    }

    /// Screenshots of any size: the boxes in each one's own pixels, an unreadable file skipped and said.
    func testPredictionRunWritesItsFilesAndSkipsWhatIsNoImage() throws {
        let dir = try scratchFolder(prefix: "uidetect-prediction-run")
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 300, height: 400), fill: RGB(240, 240, 240)), to: shots.appendingPathComponent("wide.png"))
        try Data("not an image".utf8).write(to: shots.appendingPathComponent("broken.png"))
        let detector = SSDDetector(model: try plantedModel())
        let filter = DeploymentFilter(thresholds: ["text": 0.5])
        for overlays in [true, false] {
            let out = dir.appendingPathComponent("out-\(overlays)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let run = PredictionRun(detector: detector, classNames: defaultClassNames, filter: filter, overlays: overlays, notes: ["planted"])
            let outcome = try run.run(try ScreenshotFiles([shots.path]), cocoIDs: nil, into: out)
            XCTAssertEqual(outcome.screenshots, 1)
            XCTAssertEqual(outcome.skipped.count, 1)
            XCTAssertTrue(outcome.skipped[0].hasPrefix(shots.appendingPathComponent("broken.png").path), outcome.skipped[0])
            XCTAssertGreaterThan(outcome.detections, 0)
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
            XCTAssertTrue(files.isSuperset(of: [DetectionsFile.fileName, ImagesFile.fileName, COCOResultsFile.fileName]), "\(files)")
            XCTAssertEqual(files.contains("wide.png"), overlays)
            XCTAssertEqual(files.contains("index.html"), overlays)
            let records = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(DetectionsFile.fileName))) as! [[String: Any]]
            XCTAssertEqual(records.count, outcome.detections)
            for r in records {
                let b = r["box"] as! [Double]
                XCTAssertTrue(b[0] >= 0 && b[1] >= 0 && b[2] <= 300 && b[3] <= 400, "\(b) inside the 300 x 400 screenshot")
            }
        }
    }
}
