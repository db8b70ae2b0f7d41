import Engine
import Foundation


/// Wall time of one call of `body`.
func seconds(_ body: () -> Void) -> Double {
    let start = monotonicSeconds()
    body()
    return monotonicSeconds() - start
}

/// The middle value of `values`; of an even count, the mean of the middle two (two runs must not
/// report the slower one).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
}

/// `median(values)`, or nil for no values.
func medianOrNil(_ values: [Double]) -> Double? { values.isEmpty ? nil : median(values) }

/// Median wall time of `repeats` calls of `body`, after one untimed warm-up call.
func medianSeconds(repeats: Int, _ body: () -> Void) -> Double {
    body()
    return median((0..<max(1, repeats)).map { _ in seconds(body) })
}

/// Median seconds of `body` over `repeats` runs after one warm-up, each run given what an untimed
/// `setup` made for it (a forward pass before a timed backward pass).
func medianSeconds<Prepared>(repeats: Int, setup: () -> Prepared, _ body: (Prepared) -> Void) -> Double {
    body(setup())
    return median((0..<max(1, repeats)).map { _ in
        let prepared = setup()
        return seconds { body(prepared) }
    })
}

/// Runs a Python `script` (written into `folder`) with `arguments` and parses the JSON
/// object it prints; nil when Python or a module it imports is missing, or it fails.
func runPythonJSON(_ script: String, arguments: [String], in folder: URL) throws -> [String: Any]? {
    let url = folder.appendingPathComponent("script.py")
    try Data(script.utf8).write(to: url)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", url.path] + arguments
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.nullDevice
    try p.run()
    let out = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { return nil }
    return (try? JSONSerialization.jsonObject(with: out)) as? [String: Any]
}

/// A measurement that could not be made, saying which step failed.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
