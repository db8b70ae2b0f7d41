import Foundation

/// Keeps freed large buffers for reuse, as PyTorch's caching allocator does.
///
/// A training step allocates the same activation and gradient sizes every
/// time; handing those back to the system and faulting fresh zero pages in
/// again cost more than the arithmetic on them. Sizes are rounded up to
/// classes (four per power of two) so near-equal requests share buffers.
final class BufferPool: @unchecked Sendable {
    static let shared = BufferPool()

    /// Buffers below this many bytes go straight to malloc.
    static let minimumPooledBytes = 1 << 16
    /// Cached bytes above this are released to the system.
    var cacheLimitBytes = 6 << 30

    private var free: [Int: [UnsafeMutableRawPointer]] = [:]
    private var cachedBytes = 0
    private let lock = NSLock()

    /// The byte size class for a request: the next of 2^k * {4, 5, 6, 7} / 4.
    static func sizeClass(_ bytes: Int) -> Int {
        guard bytes > minimumPooledBytes else { return bytes }
        let top = Int.bitWidth - 1 - bytes.leadingZeroBitCount   // floor(log2)
        let quarter = 1 << (top - 2)
        return (bytes + quarter - 1) / quarter * quarter
    }

    func allocate(bytes: Int) -> UnsafeMutableRawPointer {
        let size = Self.sizeClass(max(bytes, 64))
        if size >= Self.minimumPooledBytes {
            lock.lock()
            if let p = free[size]?.popLast() {
                cachedBytes -= size
                lock.unlock()
                return p
            }
            lock.unlock()
        }
        return Self.systemAllocate(size)
    }

    /// Bytes of a transparent huge page on x86-64 and arm64 Linux (with 4 KB base pages).
    static let hugePageBytes = 2 << 20

    /// A new buffer from the system: buffers of a huge page or more are aligned to one and
    /// offered to the kernel for huge pages, where it allows them only on request (`madvise`
    /// mode): a step streams through hundreds of MB of activations, and with 4 KB pages the
    /// TLB covers a few MB of them.
    private static func systemAllocate(_ size: Int) -> UnsafeMutableRawPointer {
        guard size >= hugePageBytes else { return UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64) }
        let p = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: hugePageBytes)
        #if os(Linux)
        _ = madvise(p, size, MADV_HUGEPAGE)  // advice only: without huge pages the buffer works as before
        #endif
        return p
    }

    func release(_ p: UnsafeMutableRawPointer, bytes: Int) {
        let size = Self.sizeClass(max(bytes, 64))
        guard size >= Self.minimumPooledBytes else { p.deallocate(); return }
        lock.lock()
        if cachedBytes + size <= cacheLimitBytes {
            free[size, default: []].append(p)
            cachedBytes += size
            lock.unlock()
        } else {
            lock.unlock()
            p.deallocate()
        }
    }

    /// Returns every cached buffer to the system.
    func trim() {
        lock.lock()
        let all = free.values.flatMap { $0 }
        free.removeAll()
        cachedBytes = 0
        lock.unlock()
        for p in all { p.deallocate() }
    }
}
