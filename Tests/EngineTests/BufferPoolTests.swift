import Foundation
@testable import Engine
import XCTest

/// The buffer pool's alignment contract: vector loads need 64 bytes, and the huge-page advice
/// covers whole huge pages only when a large buffer starts on one.
final class BufferPoolTests: XCTestCase {
    func testLargeBuffersStartOnAHugePageAndSmallOnesOn64Bytes() {
        let pool = BufferPool()
        for bytes in [BufferPool.hugePageBytes, 3 * BufferPool.hugePageBytes + 100, 40 << 20] {
            let p = pool.allocate(bytes: bytes)
            XCTAssertEqual(Int(bitPattern: p) % BufferPool.hugePageBytes, 0, "\(bytes) bytes")
            // Every byte is usable (the size class is at least the request).
            p.initializeMemory(as: UInt8.self, repeating: 7, count: bytes)
            XCTAssertEqual(p.load(fromByteOffset: bytes - 1, as: UInt8.self), 7)
            pool.release(p, bytes: bytes)
        }
        for bytes in [100, 1 << 16, (1 << 20) + 3] {
            let p = pool.allocate(bytes: bytes)
            XCTAssertEqual(Int(bitPattern: p) % 64, 0, "\(bytes) bytes")
            pool.release(p, bytes: bytes)
        }
        pool.trim()
    }
}
