import Boxes
import Detection
import Engine
import Foundation
import Images
import Shards
import TestSupport
import Training
import XCTest

/// `uidetect train`, `model` and `evaluate --checkpoint` end to end on a tiny config.
final class TrainCommandTests: XCTestCase {
    func testModelPrintsTheSpecsParameterCounts() throws {
        var run = try runUIDetect(["model", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        var object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["parameters"] as? Int, 1_250_024)
        XCTAssertEqual(object?["anchors_per_image"] as? Int, 21_760)
        let modules = object?["modules"] as? [String: Int] ?? [:]
        XCTAssertEqual(modules.values.reduce(0, +), 1_250_024, "the breakdown adds up")
        run = try runUIDetect(["model", "--json", "--set", "model.input_width=384", "--set", "model.input_height=768", "--set", "model.alpha=1",
                               "--set", "model.fpn_depth=128", "--set", "model.head_layers=4", "--set", "model.max_level=7"])
        object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["parameters"] as? Int, 5_512_136)
        run = try runUIDetect(["model", "--set", "model.input_width=100"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("model.input_width"), run.stderr)
    }

    /// 12 synthetic screens (128 x 256) split into `train` and `val` under `dir/data`.
    func syntheticData(in dir: URL) throws -> URL {
        try syntheticSplits(in: dir, count: 12, size: "128x256", seed: 1, fractions: "0.7,0.3")
    }

    func testCtrlCWritesLastAndResumeFinishesTheRun() throws {
        let dir = try scratchFolder(prefix: "uidetect-train-cli")
        let data = try syntheticData(in: dir)
        let config = dir.appendingPathComponent("tiny.yaml")
        try """
        name: tiny
        threads: 2
        data: {train: [\(data.path)/train], val: [\(data.path)/val]}
        model: {input_width: 64, input_height: 128, alpha: 0.25, fpn_depth: 8, head_layers: 1}
        optimizer: {name: adamw, learning_rate: 0.005}
        schedule: {warmup_steps: 2}
        batch_size: 2
        steps: 100
        eval_interval: 50
        checkpoint_interval: 25
        log_interval: 1
        """.write(to: config, atomically: true, encoding: .utf8)
        let runs = dir.appendingPathComponent("runs")
        let folder = runs.appendingPathComponent("tiny")

        // Ctrl-C while it trains: the current step finishes, checkpoints/last is written, exit 130.
        let process = try startUIDetect(["train", "--config", config.path, "--runs", runs.path])
        let metrics = folder.appendingPathComponent("metrics.csv")
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, ((try? String(contentsOf: metrics, encoding: .utf8))?.split(separator: "\n").count ?? 0) < 4 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let log = try String(contentsOf: folder.appendingPathComponent("train.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("interrupted at step"), log)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("checkpoints/last/model.safetensors").path))

        var run = try runUIDetect(["train", "--config", config.path, "--runs", runs.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("--resume"), run.stderr)
        run = try runUIDetect(["train", "--name", "tiny", "--runs", runs.path, "--resume"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("resumed at step"), run.stdout)
        XCTAssertTrue(run.stdout.contains("finished 100 steps"), run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("checkpoints/best/model.safetensors").path))
    }

    func testEvaluateACheckpointWritesDetectionsThatScoreTheSameWithoutTheModel() throws {
        let dir = try scratchFolder(prefix: "uidetect-eval-cli")
        let data = try syntheticData(in: dir)
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

    /// The planted detector's boxes are its anchors, so every box predict writes must be an anchor
    /// mapped back through the letterbox: divided by the scale and clipped to the screenshot.
    func testPredictMapsDetectionsBackToEachScreenshotsPixels() throws {
        let dir = try scratchFolder(prefix: "uidetect-predict-cli")
        let checkpoint = try plantedCheckpoint(in: dir)
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        // 384 x 768 is the input (64 x 128) scaled by 6; 300 x 400 fits by width and leaves padding below.
        let sizes = ["tall": Size(width: 384, height: 768), "wide": Size(width: 300, height: 400)]
        for (name, size) in sizes {
            var image = RGBImage(size: size, fill: RGB(240, 240, 240))
            image.fill(Box(xMin: 20, yMin: 30, xMax: 200, yMax: 90), color: RGB(20, 20, 20))
            try ImageCodec.writePNG(image, to: shots.appendingPathComponent("\(name).png"))
        }
        try Data("not an image".utf8).write(to: shots.appendingPathComponent("broken.png"))
        let thresholds = dir.appendingPathComponent("thresholds.json")
        try #"{"strategy": "max_f1", "classes": {"text": {"threshold": 0.5, "precision": 1, "recall": 1, "f1": 1}}}"#
            .write(to: thresholds, atomically: true, encoding: .utf8)
        let predicted = dir.appendingPathComponent("predicted")
        let run = try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--thresholds", thresholds.path, "--score-threshold", "0.999",
                                   shots.path, "--out", predicted.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("skipped \(shots.appendingPathComponent("broken.png").path)"), run.stdout)
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: predicted.appendingPathComponent("detections.json"))) as! [[String: Any]]
        let config = try plantedConfig()
        let anchors = AnchorGenerator(config: config).anchors().map { $0.clipped(to: config.inputSize) }
        for (name, size) in sizes {
            XCTAssertTrue(FileManager.default.fileExists(atPath: predicted.appendingPathComponent("\(name).png").path), "overlay of \(name)")
            let mine = records.filter { $0["image_id"] as? String == name }
            XCTAssertGreaterThan(mine.count, 10, "\(name): the planted detector fires everywhere")
            let scale = min(Float(config.inputWidth) / Float(size.width), Float(config.inputHeight) / Float(size.height))
            for r in mine {
                XCTAssertEqual(r["class"] as? String, "text")
                let b = (r["box"] as! [Double]).map { Float($0) }
                let box = Box(xMin: b[0], yMin: b[1], xMax: b[2], yMax: b[3])
                XCTAssertTrue(box.xMin >= 0 && box.yMin >= 0 && box.xMax <= Float(size.width) && box.yMax <= Float(size.height), "\(box) outside \(size)")
                let matches = anchors.contains { a in
                    let back = Box(xMin: a.xMin / scale, yMin: a.yMin / scale, xMax: a.xMax / scale, yMax: a.yMax / scale)
                        .clipped(to: size)
                    return abs(back.xMin - box.xMin) < 0.01 && abs(back.yMin - box.yMin) < 0.01 && abs(back.xMax - box.xMax) < 0.01 && abs(back.yMax - box.yMax) < 0.01
                }
                XCTAssertTrue(matches, "\(name): \(box) is no anchor mapped back by 1 / \(scale)")
            }
        }
        // index.html beside the overlays links each of them, with its size and what was found.
        let index = try String(contentsOf: predicted.appendingPathComponent("index.html"), encoding: .utf8)
        for (name, size) in sizes {
            XCTAssertTrue(index.contains("<a href=\"\(name).png\"><img src=\"\(name).png\""), "\(name) in index.html")
            XCTAssertTrue(index.contains("\(size.width) &times; \(size.height)"), index)
        }
        XCTAssertTrue(index.contains("1 files could not be read as images and are not shown"), index)
        XCTAssertTrue(run.stdout.contains("index.html"), run.stdout)
    }

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
