import Foundation
import XCTest

extension XCTestCase {
    /// A new empty folder under the system's temporary folder, removed when the test ends.
    public func scratchFolder(prefix: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }
}
