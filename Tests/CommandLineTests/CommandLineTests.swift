import Foundation
import XCTest

/// Runs the built `uidetect` and reads what it prints.
final class CommandLineTests: XCTestCase {
    struct Run { let status: Int32; let stdout: String; let stderr: String }

    func uidetect(_ arguments: [String]) throws -> Run {
        let candidates = [Bundle.main.bundleURL, Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        guard let binary = candidates.map({ $0.appendingPathComponent("uidetect") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("uidetect binary not found next to the test bundle")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    func testHelpListsExactlyTheCommandsThatExist() throws {
        let run = try uidetect(["--help"])
        XCTAssertEqual(run.status, 0)
        // Entries start at column 3; wrapped descriptions are indented further.
        let section = (run.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? "").components(separatedBy: "\n\n")[0]
        let listed = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else { return nil }
            return String(word)
        }
        XCTAssertEqual(listed, ["synth", "show", "import", "stats", "split", "selfcheck", "bench"])
    }

    func testSelfCheckPasses() throws {
        let run = try uidetect(["selfcheck", "--threads", "2"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("11 passed, 0 failed"), run.stdout)
    }

    func testBenchEngineJSONHasTheTrackedKeys() throws {
        let run = try uidetect(["bench", "engine", "--json", "--repeats", "1", "--batch", "1", "--sgemm-size", "256"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        XCTAssertGreaterThan(object?["sgemm_gflops"] as? Double ?? 0, 0)
        XCTAssertGreaterThan(object?["conv_min_ratio"] as? Double ?? 0, 0)
        XCTAssertEqual((object?["convolutions"] as? [Any])?.count, 35)
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
