import Foundation
import Shards
import TestSupport
import XCTest

/// Issue 25's probes as tests: every output path that is also an input, a file where a folder
/// goes, the current folder or a folder of the user's is refused before any work, naming the path,
/// and what was there is left byte for byte.
final class OutputSafetyTests: XCTestCase {
    /// Every file under `folder` with its bytes, to compare before and after a refused command.
    func snapshot(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in e where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            out[url.path] = try Data(contentsOf: url)
        }
        return out
    }

    func assertRefused(_ run: ProgramRun, naming path: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(run.status, 0, run.stdout, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(path), "the error names \(path): \(run.stderr)", file: file, line: line)
    }

    /// A validation shard and the planted detector's detections on it (from evaluate --checkpoint).
    func evaluated(_ dir: URL) throws -> (shards: URL, checkpoint: URL, evaluation: URL) {
        let data = dir.appendingPathComponent("data")
        XCTAssertEqual(try runUIDetect(["synth", "--count", "3", "--size", "128x256", "--seed", "1", "--out", data.path]).status, 0)
        let checkpoint = try plantedCheckpoint(in: dir)
        let ev = dir.appendingPathComponent("ev")
        let run = try runUIDetect(["evaluate", "--data", data.path, "--checkpoint", checkpoint.path, "--out", ev.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return (data, checkpoint, ev)
    }

    func testEvaluateNeverReplacesItsInputsAFileOrTheCurrentFolder() throws {
        let dir = try scratchFolder(prefix: "uidetect-out-evaluate")
        let (data, _, ev) = try evaluated(dir)
        let dets = ev.appendingPathComponent("detections.json")
        let before = try snapshot(dir)
        // The detections file as --out, and the folder holding it.
        assertRefused(try runUIDetect(["evaluate", "--data", data.path, "--detections", dets.path, "--out", dets.path]), naming: dets.path)
        assertRefused(try runUIDetect(["evaluate", "--data", data.path, "--detections", dets.path, "--out", ev.path]), naming: ev.path)
        // The current folder, holding an old metrics.json beside the user's folders.
        let work = dir.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: work.appendingPathComponent("metrics.json"))
        try Data("mine".utf8).write(to: work.appendingPathComponent("data/notes.txt"))
        let here = try snapshot(work)
        assertRefused(try runUIDetect(["evaluate", "--data", data.path, "--detections", dets.path, "--out", "."], in: work), naming: ".")
        XCTAssertEqual(try snapshot(work), here)
        XCTAssertEqual(try snapshot(dir).filter { !$0.key.hasPrefix(work.path) }, before)
        // evaluate-description: the folder holding its description file.
        let described = dir.appendingPathComponent("described")
        XCTAssertEqual(try runUIDetect(["describe", "--data", data.path, "--boxes-from-truth", "--no-ocr", "--no-pages", "--out", described.path]).status, 0)
        let description = described.appendingPathComponent("description.json")
        assertRefused(try runUIDetect(["evaluate-description", "--data", data.path, "--description", description.path, "--out", described.path]),
                      naming: described.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: description.path))
    }

    func testDescribeNeverTurnsAFileIntoAFolder() throws {
        let dir = try scratchFolder(prefix: "uidetect-out-describe")
        let data = dir.appendingPathComponent("data")
        XCTAssertEqual(try runUIDetect(["synth", "--count", "2", "--size", "128x256", "--seed", "1", "--out", data.path]).status, 0)
        let file = dir.appendingPathComponent("afile")
        try Data("keep".utf8).write(to: file)
        assertRefused(try runUIDetect(["describe", "--data", data.path, "--boxes-from-truth", "--no-ocr", "--out", file.path]), naming: file.path)
        XCTAssertEqual(try Data(contentsOf: file), Data("keep".utf8))
    }

    func testPredictNeverWritesIntoItsInputFolderAndReplacesOnlyItsOwnOutput() throws {
        let dir = try scratchFolder(prefix: "uidetect-out-predict")
        let checkpoint = try plantedCheckpoint(in: dir)
        let shots = dir.appendingPathComponent("shots")
        XCTAssertEqual(try runUIDetect(["synth", "--count", "1", "--size", "128x256", "--seed", "1", "--out", dir.appendingPathComponent("s").path]).status, 0)
        XCTAssertEqual(try runUIDetect(["show", dir.appendingPathComponent("s/synth-00000.h5").path, "--out", dir.appendingPathComponent("shot.png").path]).status, 0)
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("shot.png"), to: shots.appendingPathComponent("shot.png"))
        let before = try snapshot(shots)
        assertRefused(try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--out", shots.path, shots.path]), naming: shots.path)
        XCTAssertEqual(try snapshot(shots), before)
        // Its own earlier output is replaced whole: nothing of it stays beside the new files.
        let out = dir.appendingPathComponent("predicted")
        XCTAssertEqual(try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--out", out.path, shots.path]).status, 0)
        try FileManager.default.copyItem(at: shots.appendingPathComponent("shot.png"), to: shots.appendingPathComponent("second.png"))
        XCTAssertEqual(try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--no-overlays", "--out", out.path,
                                        shots.appendingPathComponent("second.png").path]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("shot.png").path), "the earlier run's overlay is gone with its output")
        // A file of the user's added there makes the folder not ours any more.
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.md"))
        assertRefused(try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--out", out.path, shots.path]), naming: "notes.md")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("notes.md").path))
    }

    func testExportShowAndThresholdsNeverWriteOverTheirInputs() throws {
        let dir = try scratchFolder(prefix: "uidetect-out-files")
        let (data, checkpoint, ev) = try evaluated(dir)
        let shard = data.appendingPathComponent("synth-00000.h5")
        let before = try snapshot(dir)
        assertRefused(try runUIDetect(["export", "--checkpoint", checkpoint.path, "--format", "safetensors", "--out", checkpoint.path]), naming: checkpoint.path)
        assertRefused(try runUIDetect(["show", shard.path, "--out", shard.path]), naming: shard.path)
        assertRefused(try runUIDetect(["thresholds", "--data", data.path, "--detections", ev.appendingPathComponent("detections.json").path,
                                       "--out", shard.path]), naming: shard.path)
        // A shard that is not among the inputs is still no place for a PNG.
        XCTAssertEqual(try runUIDetect(["synth", "--count", "1", "--size", "128x256", "--seed", "2", "--out", dir.appendingPathComponent("other").path]).status, 0)
        let other = dir.appendingPathComponent("other/synth-00000.h5")
        let otherBytes = try Data(contentsOf: other)
        let run = try runUIDetect(["show", shard.path, "--out", other.path])
        assertRefused(run, naming: other.path)
        XCTAssertTrue(run.stderr.contains("HDF5"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: other), otherBytes)
        XCTAssertEqual(try snapshot(dir).filter { !$0.key.contains("/other/") }, before)
    }

    func testTrainNeverClearsAFolderOfTheUsers() throws {
        let dir = try scratchFolder(prefix: "uidetect-out-train")
        let experiment = dir.appendingPathComponent("Experiments/myexp")
        try FileManager.default.createDirectory(at: experiment.appendingPathComponent("notes"), withIntermediateDirectories: true)
        let config = experiment.appendingPathComponent("config.yaml")
        let data = dir.appendingPathComponent("data")
        XCTAssertEqual(try runUIDetect(["synth", "--count", "3", "--size", "128x256", "--seed", "1", "--out", data.path]).status, 0)
        try Data("""
            name: myexp
            steps: 1
            batch_size: 2
            data: {train: [\(data.path)], val: []}
            model: {input_width: 64, input_height: 128, alpha: 0.25, fpn_depth: 8, head_layers: 1}
            schedule: {warmup_steps: 0}
            """.utf8).write(to: config)
        try Data("results so far".utf8).write(to: experiment.appendingPathComponent("notes/results.md"))
        let before = try snapshot(experiment)
        let run = try runUIDetect(["train", "--config", config.path, "--runs", dir.appendingPathComponent("Experiments").path])
        assertRefused(run, naming: experiment.path)
        XCTAssertEqual(try snapshot(experiment), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: experiment.appendingPathComponent(".lock").path))
        // Pointed at it with --resume, it is not taken for a run either.
        assertRefused(try runUIDetect(["train", "--name", "myexp", "--runs", dir.appendingPathComponent("Experiments").path, "--resume"]),
                      naming: experiment.path)
        XCTAssertEqual(try snapshot(experiment), before)
    }
}
