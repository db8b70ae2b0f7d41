import CBLAS

/// Row-major single-precision GEMM: C = alpha * op(A) * op(B) + beta * C,
/// spread over the engine's workers. `rowsDone` is called on each block of finished rows
/// (on the worker that made it, while it is in cache), or once on all of them.
///
/// op(A) is m x k, op(B) is k x n, C is m x n; `lda`, `ldb`, `ldc` are the
/// row strides of the matrices as stored.
///
/// OpenBLAS itself runs single-threaded (`Parallel.setThreadCount`): its own
/// workers spin after each call and steal the cores from the engine's other
/// ops. Instead, tall products are split into row blocks; products with few
/// rows and a long reduction (weight gradients, K = pixels) are split along K
/// in fixed blocks whose partial products are summed in block order; the rest,
/// if wide, into column blocks.
/// Blocks depend on the shape only, so results are bit-identical for any
/// thread count.
public func sgemm(
    transposeA: Bool = false, transposeB: Bool = false,
    m: Int, n: Int, k: Int, alpha: Float = 1,
    a: UnsafePointer<Float>, lda: Int,
    b: UnsafePointer<Float>, ldb: Int,
    beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int,
    rowsDone: ((Range<Int>) -> Void)? = nil
) {
    guard m > 0, n > 0 else { return }
    if k == 0 || m * n * k < 1 << 18 {
        rawSGEMM(transposeA, transposeB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
        rowsDone?(0..<m)
        return
    }
    // Splits are chosen by shape alone: OpenBLAS's rounding depends on the
    // partition, so a partition by thread count would make results depend on it.
    if m >= 2 * minimumBlock {
        let rows = balancedBlock(m, minimum: minimumBlock)
        Parallel.forEachBlock(count: m, blockSize: rows) { _, r in
            // Row i of op(A) starts at a + i*lda, or at column i of A when transposed.
            let aBlock = transposeA ? a + r.lowerBound : a + r.lowerBound * lda
            rawSGEMM(transposeA, transposeB, r.count, n, k, alpha, aBlock, lda, b, ldb, beta, c + r.lowerBound * ldc, ldc)
            rowsDone?(r)
        }
        return
    } else if k >= 2 * reductionBlock {
        let blocks = Parallel.blockCount(count: k, blockSize: reductionBlock)
        let partial = Storage(count: blocks * m * n)
        Parallel.forEachBlock(count: k, blockSize: reductionBlock) { blk, r in
            let aBlock = transposeA ? a + r.lowerBound * lda : a + r.lowerBound
            let bBlock = transposeB ? b + r.lowerBound : b + r.lowerBound * ldb
            rawSGEMM(transposeA, transposeB, m, n, r.count, alpha, aBlock, lda, bBlock, ldb, 0, partial.pointer + blk * m * n, n)
        }
        for i in 0..<m {
            let row = c + i * ldc
            if beta == 0 { row.update(repeating: 0, count: n) } else if beta != 1 { for j in 0..<n { row[j] *= beta } }
            for blk in 0..<blocks {
                let p = partial.pointer + blk * m * n + i * n
                for j in 0..<n { row[j] += p[j] }
            }
        }
    } else if n >= 2 * minimumColumnBlock {
        let columns = balancedBlock(n, minimum: minimumColumnBlock)
        Parallel.forEachBlock(count: n, blockSize: columns) { _, r in
            // Column j of op(B) starts at b + j, or at row j of B when transposed.
            let bBlock = transposeB ? b + r.lowerBound * ldb : b + r.lowerBound
            rawSGEMM(transposeA, transposeB, m, r.count, k, alpha, a, lda, bBlock, ldb, beta, c + r.lowerBound, ldc)
        }
    } else {
        rawSGEMM(transposeA, transposeB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
    rowsDone?(0..<m)
}

/// Size of each of at most `maxBlocks` equal blocks of `extent`, none below `minimum`.
private func balancedBlock(_ extent: Int, minimum: Int) -> Int {
    let blocks = max(1, min(maxBlocks, extent / minimum))
    return (extent + blocks - 1) / blocks
}

/// K per block when a GEMM is split along its reduction (fixed, for thread-count-independent sums).
private let reductionBlock = 8192
/// A GEMM is split into at most this many row or column blocks, none smaller than the minimum.
private let maxBlocks = 4
private let minimumBlock = 256
private let minimumColumnBlock = 64

/// One OpenBLAS call, on the calling thread.
@inline(__always)
func rawSGEMM(
    _ transposeA: Bool, _ transposeB: Bool, _ m: Int, _ n: Int, _ k: Int, _ alpha: Float,
    _ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>, _ ldb: Int,
    _ beta: Float, _ c: UnsafeMutablePointer<Float>, _ ldc: Int
) {
    if k == 0 {
        // BLAS would still scale C by beta; make that explicit.
        for i in 0..<m { for j in 0..<n { c[i * ldc + j] = beta == 0 ? 0 : c[i * ldc + j] * beta } }
        return
    }
    cblas_sgemm(
        CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
        Int32(m), Int32(n), Int32(k), alpha, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
}

/// OpenBLAS's own multi-threaded sgemm on `threads` threads: the raw reference a benchmark compares with.
public func referenceSGEMM(
    threads: Int, m: Int, n: Int, k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>
) {
    openblas_set_num_threads(Int32(threads))
    defer { openblas_set_num_threads(1) }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k), 1, a, Int32(k), b, Int32(n), 0, c, Int32(n))
}
