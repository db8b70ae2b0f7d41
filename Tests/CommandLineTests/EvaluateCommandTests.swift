import Detection
import Foundation
import Shards
import TestSupport
import Training
import XCTest

/// `uidetect evaluate` (of a detections file and of a checkpoint), `thresholds` and `compare` end to end.
final class EvaluateCommandTests: XCTestCase {
    func testEvaluateACheckpointWritesDetectionsThatScoreTheSameWithoutTheModel() throws {
        let dir = try scratchFolder(prefix: "uidetect-eval-cli")
        let data = try syntheticSplits(in: dir, count: 12, size: "128x256", seed: 1, fractions: "0.7,0.3")
        let checkpoint = try plantedCheckpoint(in: dir)
        let out = dir.appendingPathComponent("eval")
        var run = try runUIDetect(["evaluate", "--data", data.appendingPathComponent("val").path, "--checkpoint", checkpoint.path, "--out", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        for file in ["detections.json", "metrics.json", "report.html", "thresholds.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
        }
        XCTAssertTrue(run.stdout.contains("report: "), run.stdout)
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("detections.json"))) as! [[String: Any]]
        XCTAssertFalse(records.isEmpty, "the planted detector finds a text box at every location")
        XCTAssertTrue(records.allSatisfy { $0["class"] as? String == "text" })
        run = try runUIDetect(["evaluate", "--data", data.appendingPathComponent("val").path, "--detections",
                               out.appendingPathComponent("detections.json").path, "--out", dir.appendingPathComponent("eval2").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The same figures; only what was scored differs (the checkpoint, then the detections file).
        var first = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("metrics.json"))) as! [String: Any]
        var second = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("eval2/metrics.json"))) as! [String: Any]
        let (source1, source2) = (first.removeValue(forKey: "source") as! [String: Any], second.removeValue(forKey: "source") as! [String: Any])
        XCTAssertEqual(NSDictionary(dictionary: first), NSDictionary(dictionary: second))
        XCTAssertNotNil(first["map50_95"] as? Double)
        XCTAssertEqual(source1["checkpoint"] as? String, checkpoint.path)
        XCTAssertEqual(source1["weights"] as? String, try ModelFiles(resolving: checkpoint.path).detector.path)
        XCTAssertTrue(source1["detections"] is NSNull)
        XCTAssertEqual(source2["detections"] as? String, out.appendingPathComponent("detections.json").path)
        XCTAssertTrue(source2["checkpoint"] is NSNull)
        XCTAssertEqual(source1["data"] as? [String], source2["data"] as? [String])
        let report = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(report.contains("<th>checkpoint</th><td><code>\(checkpoint.path)</code></td>"), "the report says what it scored")
        XCTAssertTrue(report.contains("<h2>Validation screens</h2>") && report.contains("href=\"data:image/png;base64,"), "screens with their boxes")
    }

    func testEvaluateWritesTheSpecFilesAndRefusesBadDetections() throws {
        let dir = try scratchFolder(prefix: "uidetect-eval")
        XCTAssertEqual(try runUIDetect(["synth", "--count", "6", "--size", "64x128", "--out", dir.appendingPathComponent("gt").path]).status, 0)
        // Ground truth as detections: every class with boxes gets AP 1.
        let stats = try runUIDetect(["stats", dir.appendingPathComponent("gt").path, "--json"])
        let classes = (try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as! [String: Any])["classes"] as! [String: Int]
        let shard = try ShardReader(url: dir.appendingPathComponent("gt/synth-00000.h5"))
        var records: [[String: Any]] = []
        for i in 0..<shard.count {
            for row in shard.boxRange(i) {
                let b = shard.boxes[row]
                records.append(["image_id": shard.imageIDs[i], "class": shard.classNames[Int(shard.labels[row])], "score": 0.9,
                                "box": [Double(b.xMin), Double(b.yMin), Double(b.xMax), Double(b.yMax)]])
            }
        }
        let json = try JSONSerialization.data(withJSONObject: records)
        try json.write(to: dir.appendingPathComponent("dets.json"))
        let run = try runUIDetect(["evaluate", "--data", dir.appendingPathComponent("gt").path, "--detections", dir.appendingPathComponent("dets.json").path,
                                   "--out", dir.appendingPathComponent("eval").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("paper AP50"), "the default vocabulary shows the paper's figures")
        let metrics = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("eval/metrics.json"))) as! [String: Any]
        XCTAssertEqual(metrics["map50"] as? Double, 1)
        XCTAssertEqual(metrics["images"] as? Int, 6)
        let perClass = metrics["classes"] as! [[String: Any]]
        XCTAssertEqual(perClass.count, 13)
        for c in perClass {
            let name = c["name"] as! String
            if classes[name, default: 0] == 0 { XCTAssertTrue(c["ap50"] is NSNull, name) } else { XCTAssertEqual(c["ap50"] as? Double, 1, name) }
        }
        for file in ["pr_curves.csv", "thresholds.json", "confusion_matrix.csv", "report.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("eval/\(file)").path), file)
        }
        let report = try String(contentsOf: dir.appendingPathComponent("eval/report.html"), encoding: .utf8)
        XCTAssertTrue(report.contains("<svg") && report.contains("Confusion matrix") && report.contains("paper AP50"))
        let outside = report.components(separatedBy: "http").dropFirst().filter { !$0.hasPrefix("://www.w3.org/2000/svg") }
        XCTAssertTrue(outside.isEmpty, "the report must open without the network")
        let csv = try String(contentsOf: dir.appendingPathComponent("eval/confusion_matrix.csv"), encoding: .utf8)
        XCTAssertTrue(csv.hasPrefix("ground_truth,checkbox_unselected,"))

        // The folder is replaced whole: a failed evaluation leaves it as it was, and a folder with
        // other files (a run folder given by mistake) is refused rather than replaced.
        let before = try Data(contentsOf: dir.appendingPathComponent("eval/metrics.json"))
        try Data(#"[{"image_id": "nope", "class": "text", "score": 1, "box": [0, 0, 1, 1]}]"#.utf8).write(to: dir.appendingPathComponent("bad.json"))
        let failed = try runUIDetect(["evaluate", "--data", dir.appendingPathComponent("gt").path, "--detections", dir.appendingPathComponent("bad.json").path,
                                      "--out", dir.appendingPathComponent("eval").path])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("eval/metrics.json")), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".eval") }, [], "no staging folder left")
        let refused = try runUIDetect(["evaluate", "--data", dir.appendingPathComponent("gt").path, "--detections", dir.appendingPathComponent("dets.json").path,
                                       "--out", dir.appendingPathComponent("gt").path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("gt/synth-00000.h5, one of this command's inputs"), refused.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("gt/synth-00000.h5").path))

        // A worse detector: every third box missed, scores spread; then thresholds and compare.
        var worse = records.enumerated().filter { $0.offset % 3 != 0 }.map { $0.element }
        for k in worse.indices { worse[k]["score"] = 0.2 + 0.7 * Double(k % 10) / 10 }
        try JSONSerialization.data(withJSONObject: worse).write(to: dir.appendingPathComponent("worse.json"))
        let second = try runUIDetect(["evaluate", "--data", dir.appendingPathComponent("gt").path, "--detections", dir.appendingPathComponent("worse.json").path,
                                      "--out", dir.appendingPathComponent("eval-worse").path, "--interpolation", "coco101"])
        XCTAssertEqual(second.status, 0, second.stderr)
        // Both say where they fail: one record per kept detection and per missed box, and the gallery in the report.
        for (folder, perfect) in [("eval", true), ("eval-worse", false)] {
            let errors = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("\(folder)/errors.json"))) as! [[String: Any]]
            let kinds = errors.map { $0["kind"] as! String }
            XCTAssertTrue(Set(kinds).isSubset(of: ["true_positive", "background", "duplicate", "wrong_class", "poor_localization", "missed"]), "\(Set(kinds))")
            if perfect {
                XCTAssertEqual(kinds, [String](repeating: "true_positive", count: records.count), "ground truth as detections: every box a true positive")
            } else {
                XCTAssertGreaterThan(kinds.filter { $0 == "missed" }.count, 0)
            }
            let page = try String(contentsOf: dir.appendingPathComponent("\(folder)/report.html"), encoding: .utf8)
            XCTAssertTrue(page.contains("<h2 id=\"errors\">Where it fails</h2>"), folder)
            XCTAssertEqual(page.contains("<figure class=\"tile\""), !perfect, folder)
        }
        XCTAssertTrue(second.stdout.contains("Errors at the picked thresholds"), second.stdout)
        let picked = try runUIDetect(["thresholds", dir.appendingPathComponent("eval-worse").path, "--class", "text=min_recall:0.5",
                                      "--out", dir.appendingPathComponent("t.json").path])
        XCTAssertEqual(picked.status, 0, picked.stderr)
        let t = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("t.json"))) as! [String: Any]
        let text = (t["classes"] as! [String: Any])["text"] as! [String: Any]
        XCTAssertEqual(text["strategy"] as? String, "min_recall 0.5")
        XCTAssertGreaterThanOrEqual(text["recall"] as! Double, 0.5)
        // Straight from ground truth and detections: the same picks as from the evaluation folder.
        let direct = try runUIDetect(["thresholds", "--data", dir.appendingPathComponent("gt").path, "--detections", dir.appendingPathComponent("worse.json").path,
                                      "--class", "text=min_recall:0.5", "--out", dir.appendingPathComponent("t2.json").path])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("t2.json")), try Data(contentsOf: dir.appendingPathComponent("t.json")))
        XCTAssertNotEqual(try runUIDetect(["thresholds", "--data", dir.appendingPathComponent("gt").path]).status, 0, "--data needs --detections")
        let compare = try runUIDetect(["compare", dir.appendingPathComponent("eval").path, dir.appendingPathComponent("eval-worse").path])
        XCTAssertEqual(compare.status, 0, compare.stderr)
        XCTAssertTrue(compare.stdout.contains("text"), compare.stdout)
        XCTAssertTrue(compare.stdout.contains("-"), "the worse run shows losses")
        XCTAssertNotEqual(try runUIDetect(["thresholds", dir.appendingPathComponent("eval").path, "--class", "nosuch=max_f1"]).status, 0)

        try #"[{"image_id": "nope", "class": "text", "score": 0.5, "box": [1, 2, 3, 4]}]"#.write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try runUIDetect(["evaluate", "--data", dir.appendingPathComponent("gt").path, "--detections", dir.appendingPathComponent("bad.json").path,
                                   "--out", dir.appendingPathComponent("eval2").path])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("detection 0: image_id 'nope' is not in the ground truth"), bad.stderr)
    }
}
