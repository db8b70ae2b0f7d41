import Foundation
import XCTest

/// The built `uidetect`, next to the test bundle.
public func uidetectBinary() throws -> URL {
    let candidates = [Bundle.main.bundleURL, Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent()]
    guard let binary = candidates.map({ $0.appendingPathComponent("uidetect") })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        // `swift test` builds the tool with the test targets that depend on it: its absence is a broken build, not a reason to skip.
        throw MissingBinary()
    }
    return binary
}

/// A class of this module, whose bundle is the test bundle's.
private final class BundleMarker {}

/// The end-to-end tests cannot run without the tool they test.
public struct MissingBinary: Error, CustomStringConvertible {
    public var description: String { "uidetect binary not found next to the test bundle: build it with `swift build --product uidetect`" }
}

/// Runs the built `uidetect` and reads what it prints; `environment` adds to (or replaces) this process's variables.
public func runUIDetect(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> ProgramRun {
    try runProgram(try uidetectBinary(), arguments, environment: environment, in: folder)
}

/// Starts the built `uidetect` without waiting; its output goes to /dev/null.
public func startUIDetect(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = try uidetectBinary()
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

/// `count` synthetic screens (`size`, `apps` apps, from `seed`) split by app into `names` with
/// `fractions` under `dir/data`, which is returned: the data of the end-to-end tests.
public func syntheticSplits(in dir: URL, count: Int, size: String, seed: Int, apps: Int = 3, fractions: String, names: String = "train,val",
                            file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let data = dir.appendingPathComponent("data")
    var run = try runUIDetect(["synth", "--count", "\(count)", "--size", size, "--seed", "\(seed)", "--apps", "\(apps)", "--out", data.appendingPathComponent("all").path])
    XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
    run = try runUIDetect(["split", data.appendingPathComponent("all").path, "--out", data.path, "--fractions", fractions, "--names", names])
    XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
    return data
}
