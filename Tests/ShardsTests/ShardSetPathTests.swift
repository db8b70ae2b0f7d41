import Foundation
@testable import Shards
import TestSupport
import XCTest

/// Only regular files are shards: a FIFO named `x.h5` in a folder made `stats` wait forever for a
/// writer (HDF5 opened it). Named, found in a folder or matched by a glob, it is an error naming it.
final class ShardSetPathTests: XCTestCase {
    /// `work`'s error, or a failure if it has not returned within 10 s (it would hang on a FIFO).
    func error(within work: @escaping @Sendable () throws -> Void) -> String? {
        final class Outcome: @unchecked Sendable { var error: String? = nil }
        let outcome = Outcome(), done = DispatchSemaphore(value: 0)
        Thread {
            do { try work() } catch { outcome.error = "\(error)" }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 10) == .success else {
            XCTFail("still waiting after 10 s: a FIFO was opened")
            return nil
        }
        return outcome.error
    }

    func testAFIFOOrDeviceIsRefusedNamingItAndNeverOpened() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        _ = try writeShard(sampleRecords(count: 2), to: dir.appendingPathComponent("a.h5"))
        let fifo = dir.appendingPathComponent("x.h5").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let expected = "\(fifo): not a readable HDF5 shard (a FIFO (named pipe), not a regular file; not opened)"
        for specs in [[dir.path], [fifo], [dir.path + "/*.h5"]] {
            XCTAssertEqual(error { _ = try ShardSet(specs) }, expected, "\(specs)")
        }
        XCTAssertEqual(error { _ = try ShardReader(url: URL(fileURLWithPath: fifo)) }, expected)
        XCTAssertEqual(error { _ = try ShardSet(["/dev/null"]) }, "/dev/null: not a readable HDF5 shard (a character device, not a regular file; not opened)")
        // A symbolic link to a shard is its shard.
        try FileManager.default.removeItem(atPath: fifo)
        try FileManager.default.createSymbolicLink(atPath: fifo, withDestinationPath: dir.appendingPathComponent("a.h5").path)
        XCTAssertNil(error { _ = try ShardSet([dir.appendingPathComponent("x.h5").path]) })
    }
}
