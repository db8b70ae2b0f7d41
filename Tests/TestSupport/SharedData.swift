import Foundation
import XCTest

/// The real annotated screenshots of `shared/data/real-ui-screens`: `$UIDETECT_SHARED/data/real-ui-screens`
/// if set, else the first `shared/` beside this checkout or one of its parent folders.
/// Where it is absent the test is skipped, except under CI (`CI=true`), where the data is
/// always beside the clone and its absence is a failure rather than a silent skip.
public func realUIScreens(file: StaticString = #filePath) throws -> URL {
    let environment = ProcessInfo.processInfo.environment
    var candidates: [URL] = []
    if let shared = environment["UIDETECT_SHARED"] { candidates.append(URL(fileURLWithPath: shared)) }
    var folder = URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
    while folder.path != "/" {
        candidates.append(folder.appendingPathComponent("shared"))
        folder.deleteLastPathComponent()
    }
    let found = candidates.map { $0.appendingPathComponent("data/real-ui-screens") }
        .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("data.yaml").path) }
    if let found { return found }
    let message = "shared/data/real-ui-screens is not beside this checkout (set UIDETECT_SHARED to the shared folder)"
    if environment["CI"] == "true" { throw SharedDataMissing(message: message) }
    throw XCTSkip(message)
}

/// Something CI must have (shared data, the Python reference packages) that is missing.
public struct SharedDataMissing: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
