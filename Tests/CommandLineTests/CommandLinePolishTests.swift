import Foundation
import TestSupport
import Training
import XCTest

/// Usage errors that point at the real mistake, `--version`, and help that says what exists.
final class CommandLinePolishTests: XCTestCase {
    func testAMisspeltCommandSuggestsTheCommand() throws {
        let run = try runUIDetect(["predcit", "--checkpoint", "x"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("Unknown command 'predcit'. Did you mean 'predict'?"), run.stderr)
        XCTAssertFalse(run.stderr.contains("--checkpoint"), run.stderr)
        let nested = try runUIDetect(["bench", "engin"])
        XCTAssertTrue(nested.stderr.contains("Unknown command 'engin'. Did you mean 'engine'?"), nested.stderr)
        let far = try runUIDetect(["frobnicate"])
        XCTAssertNotEqual(far.status, 0)
        XCTAssertTrue(far.stderr.contains("Unknown command 'frobnicate'. The commands of 'uidetect' are: synth,"), far.stderr)
    }

    func testAMisspeltOptionIsNamedBeforeAMissingRequiredOne() throws {
        let run = try runUIDetect(["predict", "--checkpiont", "x", "--out", "o", "a.png"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("Unknown option '--checkpiont'. Did you mean '--checkpoint'?"), run.stderr)
        XCTAssertFalse(run.stderr.contains("Missing expected argument"), run.stderr)
        // Spelt right, the option passes on to the parser, which names what is missing.
        let missing = try runUIDetect(["predict", "--out", "o", "a.png"])
        XCTAssertTrue(missing.stderr.contains("Missing expected argument '--checkpoint"), missing.stderr)
    }

    func testSetErrorsBlameTheSetArgumentNotTheFile() throws {
        let dir = try scratchFolder(prefix: "uidetect-set-errors")
        let config = dir.appendingPathComponent("run.yaml")
        try "# a comment first\nsteps: 100\n".write(to: config, atomically: true, encoding: .utf8)
        for (set, expected) in [("steps=abc", "--set steps=abc: steps: expected an integer, found 'abc'"),
                                ("steps=0", "--set steps=0: steps: must lie in 1...100000000, got 0"),
                                ("optimizer.name=sgdd", "--set optimizer.name=sgdd: optimizer.name: 'sgdd' is not one of")] {
            let run = try runUIDetect(["train", "--config", config.path, "--set", set, "--runs", dir.appendingPathComponent("runs").path])
            XCTAssertNotEqual(run.status, 0)
            XCTAssertTrue(run.stderr.contains(expected), run.stderr)
            XCTAssertFalse(run.stderr.contains("line 1"), run.stderr)
            XCTAssertFalse(run.stderr.contains(config.path), run.stderr)
        }
        // A fault in the file still names the file and its line.
        try "# a comment first\nsteps: lots\n".write(to: config, atomically: true, encoding: .utf8)
        let file = try runUIDetect(["train", "--config", config.path, "--set", "seed=3", "--runs", dir.appendingPathComponent("runs").path])
        XCTAssertTrue(file.stderr.contains("\(config.path): steps: expected an integer, found 'lots' (line 2)"), file.stderr)
    }

    func testThreadsHelpStatesItsDefaultOnce() throws {
        let help = try runUIDetect(["selfcheck", "--help"]).stdout
        let entry = help.components(separatedBy: "--threads <threads>").last ?? ""
        XCTAssertEqual(entry.components(separatedBy: "(default:").count - 1, 1, help)
        XCTAssertTrue(entry.contains("all") && entry.contains("cores)"), help)
    }

    func testVersionComesFromOnePlace() throws {
        let run = try runUIDetect(["--version"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertNotNil(run.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression), run.stdout)
    }

    func testTrainHelpListsEveryConfigKeyWithItsDefault() throws {
        let help = try runUIDetect(["train", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        // The keys as the config type encodes them, found independently of the listing's code.
        let tree = try JSONSerialization.jsonObject(with: JSONEncoder().encode(RunConfig())) as! [String: Any]
        var leaves: [String] = []
        func walk(_ value: Any, _ key: String) {
            if let object = value as? [String: Any], !object.isEmpty { for (k, v) in object { walk(v, k) } } else { leaves.append(key) }
        }
        for (section, value) in tree {
            walk(value, section)
            if value is [String: Any] { XCTAssertTrue(help.contains(" \(section): "), "section \(section)") }
        }
        XCTAssertGreaterThan(leaves.count, 60)
        for key in leaves { XCTAssertTrue(help.contains("\(key) ("), "key \(key) is not listed") }
        XCTAssertTrue(help.contains("learning_rate (0.04)"), help)
    }
}
