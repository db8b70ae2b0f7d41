import CBLAS
import Dispatch
import Foundation
import Workers

/// How many cores the engine uses, for its own loops and its GEMM splits.
///
/// The count is scoped, not global: `withThreads(_:_:)` sets it for the ops its body runs
/// (a task-local value); outside any scope it is one per core.
public enum Parallel {
    // OpenBLAS runs single-threaded: the engine splits GEMMs itself (see `sgemm`), and
    // OpenBLAS's spinning workers would steal the cores from the engine's own loops.
    private static let singleThreadedBLAS: Void = openblas_set_num_threads(1)

    @TaskLocal private static var scopedThreadCount: Int?

    /// Worker count for the engine's parallel loops and GEMM splits in the current scope.
    public static var threadCount: Int {
        _ = singleThreadedBLAS
        return scopedThreadCount ?? defaultThreadCount
    }

    /// Threads available to this process.
    public static var defaultThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs `body` with the engine's loops and GEMMs spread over `count` workers (0 or less: one per core).
    public static func withThreads<T>(_ count: Int, _ body: () throws -> T) rethrows -> T {
        _ = singleThreadedBLAS
        return try $scopedThreadCount.withValue(count >= 1 ? count : defaultThreadCount, operation: body)
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
        // Workers claim blocks as they go; `body` is the caller's to make safe for that.
        WorkerPool.shared.run(blocks: blocks, workers: workers) { b in body(b, (b * size)..<min(count, (b + 1) * size)) }
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

