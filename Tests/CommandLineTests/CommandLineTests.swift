import Foundation
import Shards
import TestSupport
import XCTest

/// The tool as a whole: its help, the self-check and benchmarks, files fuzzing found, bad options.
final class CommandLineTests: XCTestCase {
    func testHelpListsExactlyTheCommandsThatExist() throws {
        let run = try runUIDetect(["--help"])
        XCTAssertEqual(run.status, 0)
        // Entries start at column 3; wrapped descriptions are indented further.
        let section = (run.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? "").components(separatedBy: "\n\n")[0]
        let listed = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else { return nil }
            return String(word)
        }
        XCTAssertEqual(listed, ["synth", "show", "import", "stats", "split", "check", "model", "train", "evaluate", "predict", "describe", "train-icons", "train-icon-classifier", "classify-icons", "evaluate-icons", "evaluate-description", "export", "export-data", "thresholds", "compare", "selfcheck", "bench"])
    }

    func testSelfCheckPasses() throws {
        let run = try runUIDetect(["selfcheck", "--threads", "2"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("13 passed, 0 failed"), run.stdout)
    }

    func testBenchEngineJSONHasTheTrackedKeys() throws {
        let run = try runUIDetect(["bench", "engine", "--json", "--repeats", "1", "--batch", "1", "--sgemm-size", "256"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        XCTAssertGreaterThan(object?["sgemm_gflops"] as? Double ?? 0, 0)
        XCTAssertGreaterThan(object?["conv_min_ratio"] as? Double ?? 0, 0)
        XCTAssertEqual((object?["convolutions"] as? [Any])?.count, 35)
    }

    func testBenchTrainJSONHasTheStepAloneAndTheWholeLoop() throws {
        let folder = try scratchFolder(prefix: "uidetect-bench-train")
        let config = folder.appendingPathComponent("tiny.yaml")
        try "model: {input_width: 64, input_height: 128, alpha: 0.25, fpn_depth: 8, head_layers: 1}\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try runUIDetect(["bench", "train", "--config", config.path, "--batch-size", "2", "--steps", "1", "--runs", "1", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let alone = object?["images_per_second"] as? Double ?? 0, loop = object?["loop_images_per_second"] as? Double ?? 0
        XCTAssertGreaterThan(alone, 0)
        XCTAssertGreaterThan(loop, 0)
        XCTAssertEqual(object?["step_seconds"] as? Double ?? 0, 2 / alone, accuracy: 1e-9 * 2 / alone)
        XCTAssertEqual(object?["loop_step_seconds"] as? Double ?? 0, 2 / loop, accuracy: 1e-9 * 2 / loop)
        XCTAssertNotNil((object?["part_seconds"] as? [String: Double])?["data_wait"])
        // One run: the loop over the step alone timed beside it is the ratio of the two rates.
        XCTAssertEqual((object?["loop_to_step_runs"] as? [Double])?.count, 1)
        XCTAssertEqual(object?["loop_to_step"] as? Double ?? 0, loop / alone, accuracy: 1e-9)
    }

    /// The damaged shards fuzzing found (Fuzz/Findings/libhdf5) make Debian bookworm's HDF5 1.10.8 read out
    /// of bounds inside its global heap; HDF5 1.14 and later refuse them. Where the library can, `stats`
    /// must refuse each with an error naming the file, never end by a signal.
    func testShardsDamagedByFuzzingAreRefusedWhereHDF5CanRefuseThem() throws {
        let v = HDF5Library.version
        guard (v.major, v.minor) >= (1, 14) else {
            throw XCTSkip("HDF5 \(v.major).\(v.minor).\(v.release) crashes inside its own global-heap code on these files (Experiments/fuzzing); 1.14 or later refuses them")
        }
        let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Findings/libhdf5")
        let crashes = try FileManager.default.contentsOfDirectory(atPath: findings.path).filter { $0.hasPrefix("crash-") }.sorted()
        XCTAssertGreaterThan(crashes.count, 0)
        let folder = try scratchFolder(prefix: "uidetect-fuzz-findings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in crashes {
            let shard = folder.appendingPathComponent(name + ".h5")
            try FileManager.default.copyItem(at: findings.appendingPathComponent(name), to: shard)
            let process = Process()
            process.executableURL = try uidetectBinary()
            process.arguments = ["stats", shard.path]
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit, "\(name): ended by signal \(process.terminationStatus)")
            XCTAssertNotEqual(process.terminationStatus, 0, name)
            XCTAssertTrue(stderr.contains(shard.path), "\(name): \(stderr)")
        }
    }

    func testBadOptionsAreClearErrors() throws {
        let run = try runUIDetect(["bench", "engine", "--repeats", "0"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("--repeats must be at least 1"), run.stderr)
        let threads = try runUIDetect(["selfcheck", "--threads", "0"])
        XCTAssertNotEqual(threads.status, 0)
        XCTAssertTrue(threads.stderr.contains("--threads must be at least 1"), threads.stderr)
    }
}
