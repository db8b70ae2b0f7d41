import CBLAS
import Dispatch
import Foundation

/// How many cores the engine uses, for its own loops and for OpenBLAS.
public enum Parallel {
    /// Worker count for the engine's parallel loops and GEMM splits.
    public private(set) static var threadCount: Int = {
        openblas_set_num_threads(1)  // the engine splits GEMMs itself (see `sgemm`)
        return defaultThreadCount
    }()

    /// Threads available to this process.
    public static var defaultThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Sets how many workers the engine's loops and GEMMs use.
    public static func setThreadCount(_ n: Int) {
        threadCount = max(1, n)
        openblas_set_num_threads(1)
    }

    /// Calls `body` on consecutive blocks of `0..<count`, spread over the workers.
    ///
    /// Blocks depend only on `count` and `blockSize`, never on the thread
    /// count, so a reduction that combines per-block partials in block order
    /// gives bit-identical results with any number of threads.
    public static func forEachBlock(count: Int, blockSize: Int, _ body: (_ block: Int, _ range: Range<Int>) -> Void) {
        guard count > 0 else { return }
        let size = max(1, blockSize)
        let blocks = (count + size - 1) / size
        let workers = min(threadCount, blocks)
        if workers <= 1 {
            for b in 0..<blocks { body(b, (b * size)..<min(count, (b + 1) * size)) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var b = w
            while b < blocks {
                body(b, (b * size)..<min(count, (b + 1) * size))
                b += workers
            }
        }
    }

    /// Number of blocks `forEachBlock` makes for `count` items.
    public static func blockCount(count: Int, blockSize: Int) -> Int {
        count <= 0 ? 0 : (count + max(1, blockSize) - 1) / max(1, blockSize)
    }

    /// A block size that gives each worker a few blocks of at least `minimum` items.
    public static func blockSize(count: Int, minimum: Int) -> Int {
        max(minimum, (count + 4 * threadCount - 1) / (4 * threadCount))
    }
}
