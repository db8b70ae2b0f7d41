import Checkpoints
import Foundation
import TestSupport
import XCTest
@testable import Training

/// Issue 25's probes on run folders: a folder of the user's, damaged links, a stray byte in
/// metrics.csv, a failed extension, impossible steps. Each is reported; nothing is deleted.
final class RunFolderSafetyTests: XCTestCase {
    /// Every file and link under `url` (links by their target), to compare before and after.
    func listing(_ url: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        let fm = FileManager.default
        for item in fm.enumerator(atPath: url.path)!.compactMap({ $0 as? String }) {
            let path = url.appendingPathComponent(item).path
            if let target = try? fm.destinationOfSymbolicLink(atPath: path) { out[item] = "-> " + target; continue }
            var isFolder: ObjCBool = false
            _ = fm.fileExists(atPath: path, isDirectory: &isFolder)
            out[item] = isFolder.boolValue ? "/" : String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64), as: UTF8.self)
        }
        return out
    }

    /// A finished 4-step run (checkpoints at 2 and 4, validated at 3 and 4) with a file of the user's in it.
    func finishedRun() throws -> URL {
        let run = try freshRunFolder()
        _ = try Trainer(config: tinyConfig(steps: 4), folder: run, resume: false).run()
        try Data("my notes".utf8).write(to: run.appendingPathComponent("notes.md"))
        return run
    }

    func testAConfigKeptInItsOwnFolderIsNeverCleared() throws {
        let myexp = try freshRunFolder()
        try FileManager.default.createDirectory(at: myexp.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data(try ConfigLoader.yaml(tinyConfig()).utf8).write(to: myexp.appendingPathComponent("config.yaml"))
        try Data("mine".utf8).write(to: myexp.appendingPathComponent("data/keep.txt"))
        let before = try listing(myexp)
        XCTAssertThrowsError(try Trainer(config: tinyConfig(), folder: myexp, resume: false)) { e in
            XCTAssertTrue("\(e)".contains("not a run folder"), "\(e)")
        }
        XCTAssertThrowsError(try Trainer(config: nil, folder: myexp, resume: true))
        XCTAssertEqual(try listing(myexp), before, "nothing written, nothing deleted (not even a lock file)")
    }

    func testADanglingLastIsReportedAndNothingIsDeleted() throws {
        let run = try finishedRun()
        let last = run.appendingPathComponent("checkpoints/last")
        try FileManager.default.removeItem(at: last)
        try FileManager.default.createSymbolicLink(atPath: last.path, withDestinationPath: "step-00000099")
        let before = try listing(run)
        XCTAssertThrowsError(try Trainer(config: tinyConfig(steps: 4), folder: run, resume: false)) { e in
            XCTAssertTrue("\(e)".contains("--resume"), "\(e)")
        }
        XCTAssertThrowsError(try Trainer(config: nil, folder: run, resume: true)) { e in
            XCTAssertTrue("\(e)".contains("step-00000099, which is missing"), "\(e)")
        }
        XCTAssertEqual(try listing(run), before)
    }

    func testStepFoldersWithoutTheirLinksAreKeptAndTheFixIsNamed() throws {
        let run = try finishedRun()
        for link in ["last", "best"] { try FileManager.default.removeItem(at: run.appendingPathComponent("checkpoints/\(link)")) }
        let before = try listing(run)
        XCTAssertThrowsError(try Trainer(config: nil, folder: run, resume: true)) { e in
            XCTAssertTrue("\(e)".contains("ln -s step-00000004"), "\(e)")
        }
        XCTAssertEqual(try listing(run), before)
    }

    func testAnAbsoluteLastIsNeitherFollowedNorPrunedAround() throws {
        let run = try finishedRun()
        let last = run.appendingPathComponent("checkpoints/last")
        let target = run.appendingPathComponent("checkpoints/step-00000004")
        try FileManager.default.removeItem(at: last)
        try FileManager.default.createSymbolicLink(atPath: last.path, withDestinationPath: target.path)
        let before = try listing(run)
        XCTAssertThrowsError(try Trainer(config: nil, folder: run, resume: true)) { e in
            XCTAssertTrue("\(e)".contains("outside this checkpoints folder"), "\(e)")
        }
        XCTAssertEqual(try listing(run), before)
    }

    func testAStrayByteInMetricsCSVKeepsTheHistory() throws {
        let run = try freshRunFolder()
        var calls = 0
        _ = try Trainer(config: tinyConfig(), folder: run, resume: false).run(shouldStop: { calls += 1; return calls > 3 })
        let metrics = run.appendingPathComponent("metrics.csv")
        var bytes = try Data(contentsOf: metrics)
        let firstRowEnd = bytes.firstIndex(of: UInt8(ascii: "\n"))!
        bytes.insert(0xE9, at: bytes.index(after: firstRowEnd) + 2)  // a Latin-1 byte inside row 1
        try bytes.write(to: metrics)
        _ = try Trainer(config: nil, folder: run, resume: true).run()
        let steps = try Data(contentsOf: metrics).split(separator: UInt8(ascii: "\n")).dropFirst()
            .map { String(decoding: $0.prefix { $0 != UInt8(ascii: ",") }, as: UTF8.self) }
        XCTAssertEqual(steps.count, 6, "rows 1-3 of the first session stay beside 4-6: \(steps)")
        XCTAssertEqual(steps.suffix(3), ["4", "5", "6"])
    }

    func testAFailedExtensionLeavesConfigYAMLAsItWas() throws {
        let run = try finishedRun()
        let config = run.appendingPathComponent("config.yaml")
        let before = try Data(contentsOf: config)
        // The extension is allowed, but the run cannot go on: its training shards are gone.
        var extended = tinyConfig(steps: 10)
        extended.data.train = [run.appendingPathComponent("missing").path]
        var c = tinyConfig(steps: 4)
        c.data.train = extended.data.train
        try Data(try ConfigLoader.yaml(c).utf8).write(to: config)
        let saved = try Data(contentsOf: config)
        XCTAssertThrowsError(try Trainer(config: extended, folder: run, resume: true))
        XCTAssertEqual(try Data(contentsOf: config), saved)
        XCTAssertNotEqual(saved, before)
    }

    func testTrainingStatesWithStepsOutsideTheRunAreRefused() throws {
        let run = try finishedRun()
        let stateFile = run.appendingPathComponent("checkpoints/last/training_state.safetensors")
        var state = try TrainingState.read(stateFile)
        for (step, words) in [(-1, "0 or more"), (100, "past the run's 4 steps")] {
            state.step = step
            try state.write(to: stateFile)
            XCTAssertThrowsError(try Trainer(config: nil, folder: run, resume: true)) { e in
                XCTAssertTrue("\(e)".contains(words), "\(e)")
            }
        }
    }

    func testTrainingStatesWriteTheirMetricsWindowWithSortedKeys() throws {
        // Swift seeds its dictionaries' order per process: unsorted, a rerun's checkpoint differed in these bytes.
        let stateFile = try finishedRun().appendingPathComponent("checkpoints/last/training_state.safetensors")
        let header = String(decoding: try Data(contentsOf: stateFile).prefix(1000), as: UTF8.self)
        XCTAssertTrue(header.contains(#""window":"{\"box\":"#) && header.contains(#"\"loss\":"#), header)
        let keys = ["box", "classification", "loss", "steps"].map { header.range(of: #"\"\#($0)\":"#)!.lowerBound }
        XCTAssertEqual(keys, keys.sorted(), header)
    }

    func testLeftoversOfAKilledSaveAreRemovedByTheNextOne() throws {
        let run = try finishedRun()
        let checkpoints = run.appendingPathComponent("checkpoints")
        // A process id above Linux's default pid_max: no such process runs.
        for name in [".last.link-4194305", ".best.link-4194305"] {
            try FileManager.default.createSymbolicLink(atPath: checkpoints.appendingPathComponent(name).path, withDestinationPath: "step-00000004")
        }
        try FileManager.default.createDirectory(at: checkpoints.appendingPathComponent(".step-00000006.partial-4194305"), withIntermediateDirectories: true)
        CheckpointStore(folder: checkpoints).prune()
        let kept = try ["best", "last"].map { try FileManager.default.destinationOfSymbolicLink(atPath: checkpoints.appendingPathComponent($0).path) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: checkpoints.path).sorted(), (["best", "last"] + Set(kept).sorted()))
    }
}
