import Foundation
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

    func testTrainInterruptResumeAndEvaluateTheCheckpoint() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-train-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data")
        XCTAssertEqual(try runUIDetect(["synth", "--count", "12", "--size", "128x256", "--seed", "1", "--apps", "3", "--out", data.appendingPathComponent("all").path]).status, 0)
        XCTAssertEqual(try runUIDetect(["split", data.appendingPathComponent("all").path, "--out", data.path, "--fractions", "0.7,0.3", "--names", "train,val"]).status, 0)
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

        // The run folder as a checkpoint: its best, run over the validation screens.
        let out = dir.appendingPathComponent("eval")
        run = try runUIDetect(["evaluate", "--data", data.appendingPathComponent("val").path, "--checkpoint", folder.path, "--out", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        for file in ["detections.json", "metrics.json", "report.html", "thresholds.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
        }
        XCTAssertTrue(run.stdout.contains("report: "), run.stdout)
        // The detections it wrote evaluate to the same figures without the model.
        let again = try runUIDetect(["evaluate", "--data", data.appendingPathComponent("val").path, "--detections",
                                     out.appendingPathComponent("detections.json").path, "--out", dir.appendingPathComponent("eval2").path])
        XCTAssertEqual(again.status, 0, again.stderr)
        let first = try Data(contentsOf: out.appendingPathComponent("metrics.json"))
        let second = try Data(contentsOf: dir.appendingPathComponent("eval2/metrics.json"))
        XCTAssertEqual(first, second)

        // Predict on screenshots of another size, with the picked thresholds; a broken file is skipped.
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let valShard = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("val").path).first { $0.hasSuffix(".h5") }!
        XCTAssertEqual(try runUIDetect(["show", data.appendingPathComponent("val/\(valShard)").path, "--index", "0", "--scale", "3",
                                        "--out", shots.appendingPathComponent("big.png").path]).status, 0)
        try Data("not an image".utf8).write(to: shots.appendingPathComponent("broken.png"))
        let predicted = dir.appendingPathComponent("predicted")
        run = try runUIDetect(["predict", "--checkpoint", folder.appendingPathComponent("checkpoints/last").path, "--thresholds",
                               out.appendingPathComponent("thresholds.json").path, "--score-threshold", "0.01", shots.path, "--out", predicted.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("skipped \(shots.appendingPathComponent("broken.png").path)"), run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: predicted.appendingPathComponent("big.png").path))
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: predicted.appendingPathComponent("detections.json"))) as! [[String: Any]]
        XCTAssertFalse(records.isEmpty, "a score threshold of 0.01 keeps some detections")
        for r in records {
            XCTAssertEqual(r["image_id"] as? String, "big")
            let box = r["box"] as! [Double]
            XCTAssertTrue(box[0] >= 0 && box[1] >= 0 && box[2] <= 384 && box[3] <= 768 && box[0] < box[2] && box[1] < box[3], "\(box) outside the 384 x 768 screenshot")
        }

        // Export both formats; a file that is not a detector checkpoint is refused, naming it.
        for format in ["onnx", "safetensors"] {
            let file = dir.appendingPathComponent("export.\(format)")
            run = try runUIDetect(["export", "--checkpoint", folder.path, "--format", format, "--out", file.path,
                                   "--thresholds", out.appendingPathComponent("thresholds.json").path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0, 10_000)
        }
        run = try runUIDetect(["export", "--checkpoint", out.appendingPathComponent("metrics.json").path, "--format", "onnx", "--out", dir.appendingPathComponent("x.onnx").path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("metrics.json"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.onnx").path))
    }
}

/// Starts the built `uidetect` without waiting; its output goes to /dev/null.
func startUIDetect(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = try uidetectBinary()
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}
