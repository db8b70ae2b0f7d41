import Foundation
import TestSupport
import XCTest

/// `uidetect export` end to end with the planted detector.
final class ExportCommandTests: XCTestCase {
    func testExportWritesBothFormatsAndRefusesWhatIsNotACheckpoint() throws {
        let dir = try scratchFolder(prefix: "uidetect-export-cli")
        let checkpoint = try plantedCheckpoint(in: dir)
        let thresholds = dir.appendingPathComponent("thresholds.json")
        try #"{"strategy": "max_f1", "classes": {"text": {"threshold": 0.5, "precision": 1, "recall": 1, "f1": 1}}}"#
            .write(to: thresholds, atomically: true, encoding: .utf8)
        for format in ["onnx", "safetensors"] {
            let file = dir.appendingPathComponent("export.\(format)")
            let run = try runUIDetect(["export", "--checkpoint", checkpoint.path, "--format", format, "--out", file.path, "--thresholds", thresholds.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0, 10_000)
        }
        for (name, extra) in [("detections", [String]()), ("deployment", ["--thresholds", thresholds.path])] {
            let file = dir.appendingPathComponent("\(name).onnx")
            let run = try runUIDetect(["export", "--checkpoint", checkpoint.path, "--format", "onnx", "--postprocess", "--out", file.path] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(String(decoding: try Data(contentsOf: file), as: UTF8.self).contains(name == "deployment" ? "; in the graph" : "not in the graph"))
        }
        let refused = try runUIDetect(["export", "--checkpoint", checkpoint.path, "--format", "safetensors", "--postprocess", "--out", dir.appendingPathComponent("x.st").path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--postprocess applies to --format onnx only"), refused.stderr)
        let run = try runUIDetect(["export", "--checkpoint", thresholds.path, "--format", "onnx", "--out", dir.appendingPathComponent("x.onnx").path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("thresholds.json"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.onnx").path))
    }
}
