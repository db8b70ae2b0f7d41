import Foundation
import Shards
import XCTest

/// What a run of the built `uidetect` printed.
struct CLIRun { let status: Int32; let stdout: String; let stderr: String }

/// The built `uidetect`, next to the test bundle.
func uidetectBinary() throws -> URL {
    let candidates = [Bundle.main.bundleURL, Bundle(for: CommandLineTests.self).bundleURL.deletingLastPathComponent()]
    guard let binary = candidates.map({ $0.appendingPathComponent("uidetect") })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        // `swift test` builds the tool with the test targets that depend on it: its absence is a broken build, not a reason to skip.
        throw MissingBinary()
    }
    return binary
}

/// The end-to-end tests cannot run without the tool they test.
struct MissingBinary: Error, CustomStringConvertible {
    var description: String { "uidetect binary not found next to the test bundle: build it with `swift build --product uidetect`" }
}

/// Runs the built `uidetect` and reads what it prints; `environment` adds to (or replaces) this process's variables.
func runUIDetect(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> CLIRun {
    try runProgram(try uidetectBinary(), arguments, environment: environment, in: folder)
}

/// Runs a program (in `folder`, if given) and reads what it prints.
func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> CLIRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes while the process runs, so a full pipe never blocks it.
    final class Box: @unchecked Sendable { var data = Data() }
    let stderrBox = Box()
    let reader = Thread { stderrBox.data = err.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    let stderrData = stderrBox.data
    return CLIRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                  stderr: String(decoding: stderrData, as: UTF8.self))
}

extension XCTestCase {
    /// A fresh folder under the temporary directory, removed when the test ends.
    func temporaryFolder(_ name: String) -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-\(name)-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }
}

final class CommandLineTests: XCTestCase {
    func uidetect(_ arguments: [String]) throws -> CLIRun { try runUIDetect(arguments) }

    func testHelpListsExactlyTheCommandsThatExist() throws {
        let run = try uidetect(["--help"])
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
        let run = try uidetect(["selfcheck", "--threads", "2"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("12 passed, 0 failed"), run.stdout)
    }

    func testBenchEngineJSONHasTheTrackedKeys() throws {
        let run = try uidetect(["bench", "engine", "--json", "--repeats", "1", "--batch", "1", "--sgemm-size", "256"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        XCTAssertGreaterThan(object?["sgemm_gflops"] as? Double ?? 0, 0)
        XCTAssertGreaterThan(object?["conv_min_ratio"] as? Double ?? 0, 0)
        XCTAssertEqual((object?["convolutions"] as? [Any])?.count, 35)
    }

    func testBenchTrainJSONHasTheStepAloneAndTheWholeLoop() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-bench-train-test-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("tiny.yaml")
        try "model: {input_width: 64, input_height: 128, alpha: 0.25, fpn_depth: 8, head_layers: 1}\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try uidetect(["bench", "train", "--config", config.path, "--batch-size", "2", "--steps", "1", "--runs", "1", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let alone = object?["images_per_second"] as? Double ?? 0, loop = object?["loop_images_per_second"] as? Double ?? 0
        XCTAssertGreaterThan(alone, 0)
        XCTAssertGreaterThan(loop, 0)
        XCTAssertEqual(object?["step_seconds"] as? Double ?? 0, 2 / alone, accuracy: 1e-9 * 2 / alone)
        XCTAssertEqual(object?["loop_step_seconds"] as? Double ?? 0, 2 / loop, accuracy: 1e-9 * 2 / loop)
        XCTAssertNotNil((object?["part_seconds"] as? [String: Double])?["data_wait"])
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
        let folder = temporaryFolder("fuzz-findings")
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
        let run = try uidetect(["bench", "engine", "--repeats", "0"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("--repeats must be at least 1"), run.stderr)
        let threads = try uidetect(["selfcheck", "--threads", "0"])
        XCTAssertNotEqual(threads.status, 0)
        XCTAssertTrue(threads.stderr.contains("--threads must be at least 1"), threads.stderr)
    }
}

/// The data commands end to end, as a newcomer would run them.
final class DataCommandLineTests: XCTestCase {
    func uidetect(_ arguments: [String]) throws -> CLIRun { try runUIDetect(arguments) }

    func testSynthShowStatsSplitAndImport() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-cli-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let synth = try uidetect(["synth", "--count", "24", "--size", "128x256", "--seed", "3", "--out", dir.appendingPathComponent("syn").path, "--shard-size", "10"])
        XCTAssertEqual(synth.status, 0, synth.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("syn").path).sorted(),
                       ["synth-00000.h5", "synth-00001.h5", "synth-00002.h5"])
        let again = try uidetect(["synth", "--count", "2", "--out", dir.appendingPathComponent("syn").path])
        XCTAssertNotEqual(again.status, 0, "existing shards must not be overwritten")

        let show = try uidetect(["show", dir.appendingPathComponent("syn/synth-00001.h5").path, "--index", "3", "--out", dir.appendingPathComponent("s.png").path])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.png").path))

        let stats = try uidetect(["stats", dir.appendingPathComponent("syn").path, "--json"])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["images"] as? Int, 24)
        XCTAssertGreaterThan(object?["boxes"] as? Int ?? 0, 100)
        XCTAssertEqual((object?["classes"] as? [String: Int])?.count, 13)

        let split = try uidetect(["split", dir.appendingPathComponent("syn").path, "--out", dir.appendingPathComponent("parts").path, "--seed", "1"])
        XCTAssertEqual(split.status, 0, split.stderr)
        XCTAssertTrue(split.stdout.contains("largest gap"))
        let train = try uidetect(["stats", dir.appendingPathComponent("parts/train").path, "--json"])
        let trainImages = (try JSONSerialization.jsonObject(with: Data(train.stdout.utf8)) as? [String: Any])?["images"] as? Int ?? 0
        XCTAssertGreaterThan(trainImages, 12)

        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../ImportersTests/Fixtures").standardized
        let coco = try uidetect(["import", "coco", fixtures.appendingPathComponent("coco/instances.json").path, "--images",
                                 fixtures.appendingPathComponent("coco/images").path, "--out", dir.appendingPathComponent("coco").path])
        XCTAssertEqual(coco.status, 0, coco.stderr)
        XCTAssertTrue(coco.stdout.contains("imported 2 screens"), coco.stdout)
        XCTAssertTrue(coco.stdout.contains("1 x degenerate box"), coco.stdout)
        let report = try String(contentsOf: dir.appendingPathComponent("coco/import-report.txt"), encoding: .utf8)
        XCTAssertTrue(report.contains("b.png: box outside the image, dropped"), report)
        let voc = try uidetect(["import", "voc", fixtures.appendingPathComponent("voc").path, "--out", dir.appendingPathComponent("voc").path])
        XCTAssertEqual(voc.status, 0, voc.stderr)
    }

    func testStatsRefusesADamagedShardNamingIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-cli-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        _ = try uidetect(["synth", "--count", "3", "--size", "64x128", "--out", dir.path])
        let shard = dir.appendingPathComponent("synth-00000.h5")
        var bytes = try Data(contentsOf: shard)
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: shard)
        let run = try uidetect(["stats", dir.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("synth-00000.h5"), run.stderr)
    }
}

final class EvaluateCommandLineTests: XCTestCase {
    func testEvaluateWritesTheSpecFilesAndRefusesBadDetections() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-eval-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
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
