import Boxes
import Foundation
import Images
import TestSupport
import XCTest

/// predict and export refuse a thresholds.json whose threshold for a class lies outside [0, 1], as
/// they refuse such a --score-threshold, naming the file, the class and the value; nothing is written.
final class ThresholdsRangeTests: XCTestCase {
    func testOutOfRangeThresholdsAreRefusedByPredictAndExport() throws {
        let dir = try scratchFolder(prefix: "uidetect-thresholds-range")
        let checkpoint = try plantedCheckpoint(in: dir)
        let shot = dir.appendingPathComponent("shot.png")
        try ImageCodec.writePNG(RGBImage(size: Size(width: 64, height: 128), fill: RGB(240, 240, 240)), to: shot)
        for value in ["-1", "5"] {
            let thresholds = dir.appendingPathComponent("thresholds\(value).json")
            try Data(#"{"strategy": "max_f1", "classes": {"text": {"threshold": \#(value), "precision": 1, "recall": 1, "f1": 1}}}"#.utf8).write(to: thresholds)
            let expected = "\(thresholds.path): classes.text.threshold: \(Double(value)!) for class 'text' is not a score threshold: it must lie in [0, 1]"
            let predicted = dir.appendingPathComponent("predicted\(value)")
            var run = try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--thresholds", thresholds.path, shot.path, "--out", predicted.path])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(expected), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: predicted.appendingPathComponent("detections.json").path))
            let exported = dir.appendingPathComponent("model\(value).onnx")
            run = try runUIDetect(["export", "--checkpoint", checkpoint.path, "--format", "onnx", "--postprocess", "--thresholds", thresholds.path, "--out", exported.path])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(expected), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: exported.path))
        }
    }
}
