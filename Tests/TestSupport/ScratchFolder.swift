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

/// A new empty folder shared by one test process's tests, removed when the process exits.
///
/// For data made once and read by many test cases, which no single test's teardown may remove.
public func processScratchFolder(prefix: String) -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    ProcessScratchFolders.shared.add(dir)
    return dir
}

/// The process-lifetime folders, removed by one exit handler (atexit takes no context, hence the singleton).
private final class ProcessScratchFolders: @unchecked Sendable {
    static let shared: ProcessScratchFolders = {
        let folders = ProcessScratchFolders()
        atexit { ProcessScratchFolders.shared.removeAll() }
        return folders
    }()

    private let lock = NSLock()
    private var folders: [URL] = []

    func add(_ dir: URL) { lock.withLock { folders.append(dir) } }

    func removeAll() {
        lock.withLock {
            for dir in folders { try? FileManager.default.removeItem(at: dir) }
            folders.removeAll()
        }
    }
}
