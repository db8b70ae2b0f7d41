import Foundation

/// How a program ended and what it printed.
public struct ProgramRun: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// Both streams, for failure messages.
    public var output: String { stderr.isEmpty ? stdout : stdout + (stdout.isEmpty ? "" : "\n") + stderr }
}

/// Runs a program (in `folder`, if given) and reads what it prints; `environment` adds to (or
/// replaces) this process's variables.
public func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> ProgramRun {
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
    return ProgramRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderrBox.data, as: UTF8.self))
}

/// Runs `arguments[0]`, found on `PATH` (python3, h5dump), with the rest as its arguments.
public func runProgram(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> ProgramRun {
    try runProgram(URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: environment, in: folder)
}
