import Foundation
import Outputs
import TestSupport
import XCTest

/// The rule every command's outputs follow: replace only what the same command wrote, never an input, never a file.
final class OutputFolderTests: XCTestCase {
    private func write(_ text: String, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func stage(_ folder: URL, command: String = "evaluate", inputs: [String] = [], files: [String: String]) throws {
        let out = try OutputFolder(folder.path, command: command, inputs: inputs)
        for (name, text) in files { try write(text, out.file(name)) }
        try out.commit()
    }

    func testAnEarlierOutputOfTheSameCommandIsReplacedWhole() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let out = dir.appendingPathComponent("ev")
        try stage(out, files: ["metrics.json": "{}", "old.csv": "a"])
        try stage(out, files: ["metrics.json": "{\"new\": 1}"])
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("metrics.json"), encoding: .utf8), "{\"new\": 1}")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("old.csv").path))
        // Nothing of the staging is left beside it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["ev"])
    }

    func testAFolderWithAFileTheCommandDidNotWriteIsRefusedAndKept() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let out = dir.appendingPathComponent("ev")
        try stage(out, files: ["metrics.json": "{}"])
        try write("mine", out.appendingPathComponent("notes.md"))
        XCTAssertThrowsError(try OutputFolder(out.path, command: "evaluate", inputs: [])) { error in
            XCTAssertTrue("\(error)".contains("notes.md"), "\(error)")
            XCTAssertTrue("\(error)".contains(out.path), "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("notes.md"), encoding: .utf8), "mine")
    }

    func testAFolderOfTheUsersWithOurFileNamesIsNotOurs() throws {
        // An old metrics.json of the user's does not make the folder ours: only our marker does.
        let dir = try scratchFolder(prefix: "outputs")
        try write("{}", dir.appendingPathComponent("metrics.json"))
        try write("x", dir.appendingPathComponent("data/keep.txt"))
        XCTAssertThrowsError(try OutputFolder(dir.path, command: "evaluate", inputs: []))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("data/keep.txt").path))
    }

    func testAnotherCommandsOutputIsNotReplaced() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let out = dir.appendingPathComponent("o")
        try stage(out, command: "describe", files: ["description.json": "[]"])
        XCTAssertThrowsError(try OutputFolder(out.path, command: "evaluate", inputs: []))
    }

    func testAFileWhereTheFolderShouldBeIsRefusedAndKept() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let file = dir.appendingPathComponent("dets.json")
        try write("[]", file)
        XCTAssertThrowsError(try OutputFolder(file.path, command: "evaluate", inputs: [])) { error in
            XCTAssertEqual(error as? OutputError, .fileWhereFolderExpected(path: file.path))
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "[]")
    }

    func testAFolderHoldingAnInputIsRefused() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let out = dir.appendingPathComponent("ev")
        try stage(out, files: ["detections.json": "[]"])
        let input = out.appendingPathComponent("detections.json").path
        XCTAssertThrowsError(try OutputFolder(out.path, command: "evaluate", inputs: [input])) { error in
            XCTAssertEqual(error as? OutputError, .isInput(path: out.path, input: input))
        }
        // Through a symbolic link too.
        let link = dir.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: out.path)
        XCTAssertThrowsError(try OutputFolder(link.path, command: "evaluate", inputs: [input]))
        XCTAssertTrue(FileManager.default.fileExists(atPath: input))
    }

    func testTheCurrentFolderIsRefused() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(dir.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        XCTAssertThrowsError(try OutputFolder(".", command: "evaluate", inputs: [])) { error in
            XCTAssertEqual(error as? OutputError, .holdsWorkingFolder(path: "."))
        }
        XCTAssertThrowsError(try OutputFolder("..", command: "evaluate", inputs: []))
    }

    func testStagingLeftByAKilledCommandIsRemovedAndAnInterruptedOneLeavesTheOldOutput() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let out = dir.appendingPathComponent("ev")
        try stage(out, files: ["metrics.json": "old"])
        // A staging folder of a process that is gone (pid 2^22 + 1 is above Linux's pid_max default).
        let stale = dir.appendingPathComponent(".ev.partial-4194305")
        try write(#"{"format": "uidetect-output-1", "command": "evaluate", "files": []}"#, stale.appendingPathComponent(".uidetect-output"))
        // One without our marker is not ours.
        let foreign = dir.appendingPathComponent(".ev.partial-4194306")
        try write("x", foreign.appendingPathComponent("mine.txt"))
        let interrupted = try OutputFolder(out.path, command: "evaluate", inputs: [])
        try write("new", interrupted.file("metrics.json"))
        interrupted.discard()
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: foreign.appendingPathComponent("mine.txt").path))
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("metrics.json"), encoding: .utf8), "old")
    }

    func testFilesAddedWhileTheCommandRanStopTheReplacement() throws {
        let dir = try scratchFolder(prefix: "outputs")
        let out = dir.appendingPathComponent("ev")
        try stage(out, files: ["metrics.json": "old"])
        let second = try OutputFolder(out.path, command: "evaluate", inputs: [])
        try write("new", second.file("metrics.json"))
        try write("mine", out.appendingPathComponent("added.txt"))
        XCTAssertThrowsError(try second.commit())
        second.discard()
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("added.txt"), encoding: .utf8), "mine")
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("metrics.json"), encoding: .utf8), "old")
    }
}

final class OutputFileTests: XCTestCase {
    func testAnInputIsNeverTheOutput() throws {
        let dir = try scratchFolder(prefix: "output-file")
        let model = dir.appendingPathComponent("m.safetensors")
        try Data([8, 0, 0, 0, 0, 0, 0, 0] + Array("{}      ".utf8)).write(to: model)
        XCTAssertThrowsError(try OutputFile.check(model.path, writes: .safetensors, inputs: [model.path])) { error in
            XCTAssertEqual(error as? OutputError, .isInput(path: model.path, input: model.path))
        }
        // The same file by another spelling.
        let other = dir.path + "/./m.safetensors"
        XCTAssertThrowsError(try OutputFile.check(other, writes: .safetensors, inputs: [model.path]))
    }

    func testAFileOfAnotherKindIsLeftAlone() throws {
        let dir = try scratchFolder(prefix: "output-file")
        let shard = dir.appendingPathComponent("train.h5")
        try Data([0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(to: shard)
        XCTAssertThrowsError(try OutputFile.check(shard.path, writes: .png, inputs: [])) { error in
            XCTAssertTrue("\(error)".contains("HDF5"), "\(error)")
        }
        XCTAssertThrowsError(try OutputFile.check(shard.path, writes: .json, inputs: []))
        let png = dir.appendingPathComponent("x.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: png)
        XCTAssertNoThrow(try OutputFile.check(png.path, writes: .png, inputs: []))
        XCTAssertThrowsError(try OutputFile.check(dir.path, writes: .png, inputs: [])) { error in
            XCTAssertEqual(error as? OutputError, .folderWhereFileExpected(path: dir.path))
        }
    }
}

final class FileProblemTests: XCTestCase {
    func testFoundationErrorsReadAsOneSentence() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/x.json"
        XCTAssertThrowsError(try Data(contentsOf: URL(fileURLWithPath: missing))) { error in
            let sentence = FileProblem.sentence(error)
            XCTAssertEqual(sentence, "\(missing): no such file or folder")
            XCTAssertFalse(sentence.contains("Domain="))
        }
    }
}
