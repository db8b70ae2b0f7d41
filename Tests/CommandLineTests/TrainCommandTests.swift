import Foundation
import TestSupport
import XCTest

/// `uidetect model` and `uidetect train` end to end on a tiny config.
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

    func testCtrlCWritesLastAndResumeFinishesTheRun() throws {
        let dir = try scratchFolder(prefix: "uidetect-train-cli")
        let data = try syntheticSplits(in: dir, count: 12, size: "128x256", seed: 1, fractions: "0.7,0.3")
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
}
