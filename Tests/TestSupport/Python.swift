import Foundation
import XCTest

/// Makes sure python3 can import `modules` (the reference implementations our files are checked
/// against, installed by `scripts/setup.sh --tests` from scripts/requirements-test.txt). Where they
/// are missing the test is skipped, except under CI (`CI=true`), where the setup always installs
/// them and their absence is a failure.
public func requirePython(_ modules: [String]) throws {
    let run = try runProgram(["python3", "-c", "import " + modules.joined(separator: ", ")])
    guard run.status != 0 else { return }
    let message = "python3 cannot import \(modules.joined(separator: ", ")) (run scripts/setup.sh --tests): \(run.output.split(separator: "\n").last ?? "")"
    if ProcessInfo.processInfo.environment["CI"] == "true" { throw SharedDataMissing(message: message) }
    throw XCTSkip(message)
}
