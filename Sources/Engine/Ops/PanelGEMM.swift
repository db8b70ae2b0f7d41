// Products C = A B (+ C) whose B is small (a 1x1 convolution's weights with few channels)
// and whose A is tall (every pixel of a batch), row-major.
//
// OpenBLAS packs all of A into its own layout before multiplying; with K of 16-64 that copy is
// a whole extra pass over the largest operand, and the profile of a training step spent more
// in packing than in some of these products' arithmetic. Here A is read in place: each tile of
// 4 rows keeps its outputs (up to 64 columns with AVX-512, 16 with narrower registers) in registers
// and walks K once, with B's rows (a few KB, in L1) loaded beside it.
// Every output is the same K-ordered sum of fused multiply-adds whatever the blocking, so
// results do not depend on the thread count or the machine's register width.

/// Whether `panelGEMM` suits a product with this K and N: N in whole vectors, at most 64 (one panel
/// with AVX-512, four of 16 with AVX2; wider products re-read A per panel and lost to OpenBLAS in
/// `bench engine` on the Zen 4 and on the Zen 3), B within L1.
func panelGEMMApplies(n: Int, k: Int) -> Bool { n % 16 == 0 && n <= 64 && k <= 128 }

/// Columns per panel: a tile of 4 rows x 64 columns is 16 registers of AVX-512's 32; with 8 floats per
/// register it would be 32 of AVX2's 16, and the spills cost more than re-reading A per panel (bench
/// engine on a Zen 3, b3.pointwise forward and backward: 27.8 ms in panels of 64, 16.3 of 32, 11.8 of 16).
private func widestPanel() -> Int { VectorRegisters.holdSixteenFloats ? 64 : 16 }

/// Rows per parallel block: a function of nothing, so blocks are the same for any thread count.
private let panelBlockRows = 256

/// C (m x n, row stride ldc) = A (m x k, row stride lda) B (k x n, contiguous), plus C's old
/// values when `accumulate`. `rowsDone` is called on each finished block of rows, on the worker
/// that made it, while it is in cache.
func panelGEMM(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>,
    accumulate: Bool, c: UnsafeMutablePointer<Float>, ldc: Int, rowsDone: ((Range<Int>) -> Void)? = nil
) {
    precondition(n % 16 == 0, "panelGEMM takes whole 16-column vectors")
    Parallel.forEachBlock(count: m, blockSize: panelBlockRows) { _, r in
        panelRows(r, n: n, k: k, a: a, lda: lda, b: b, accumulate: accumulate, c: c, ldc: ldc)
        rowsDone?(r)
    }
}

/// Rows `rows` of `panelGEMM`'s product, on this thread.
private func panelRows(
    _ rows: Range<Int>, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>,
    accumulate: Bool, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    let widest = widestPanel()
    var column = 0
    while column < n {
        switch min(n - column, widest) {
        case 64...: panel(Columns64.self, rows: rows, column: column, n: n, k: k, a: a, lda: lda, b: b, accumulate: accumulate, c: c, ldc: ldc); column += 64
        case 32...: panel(Columns32.self, rows: rows, column: column, n: n, k: k, a: a, lda: lda, b: b, accumulate: accumulate, c: c, ldc: ldc); column += 32
        default: panel(Columns16.self, rows: rows, column: column, n: n, k: k, a: a, lda: lda, b: b, accumulate: accumulate, c: c, ldc: ldc); column += 16
        }
    }
}

/// Columns column ..< column + V's width of rows `rows`, 4 rows at a time.
@inline(__always)
private func panel<V: ColumnVector>(
    _: V.Type, rows: Range<Int>, column: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>,
    accumulate: Bool, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    let bColumn = b + column
    var row = rows.lowerBound
    while row < rows.upperBound {
        // A tile of fewer than 4 rows repeats its last row and stores only the real ones.
        let count = min(4, rows.upperBound - row)
        let a0 = a + row * lda
        let a1 = a0 + min(1, count - 1) * lda, a2 = a0 + min(2, count - 1) * lda, a3 = a0 + min(3, count - 1) * lda
        var (s0, s1, s2, s3) = (V(broadcasting: 0), V(broadcasting: 0), V(broadcasting: 0), V(broadcasting: 0))
        for i in 0..<k {
            let bRow = V(loading: bColumn + i * n)
            s0 = s0.addingProduct(broadcast: a0[i], bRow)
            s1 = s1.addingProduct(broadcast: a1[i], bRow)
            s2 = s2.addingProduct(broadcast: a2[i], bRow)
            s3 = s3.addingProduct(broadcast: a3[i], bRow)
        }
        let c0 = c + row * ldc + column
        @inline(__always) func finish(_ s: V, _ t: Int) {
            let out = c0 + t * ldc
            (accumulate ? s.adding(V(loading: out)) : s).store(to: out)
        }
        finish(s0, 0)
        if count > 1 { finish(s1, 1) }
        if count > 2 { finish(s2, 2) }
        if count > 3 { finish(s3, 3) }
        row += count
    }
}

/// Rows per block of `panelGEMMTransposedA`'s reduction: each block's sums go to a partial of
/// their own. Fixed, so sums do not depend on the thread count.
private let reductionRows = 1024  // a multiple of `panelBlockRows` (`panelGEMMBothGradients`)

/// Bytes of A and B in one slice of a block's rows, copied together into a scratch buffer that stays
/// in L1 (32 KB on the Zen 3 and the Zen 4, 32-48 KB on Xeons) while every tile of C walks it.
///
/// Walking the block's rows in place, each tile of C read 64 bytes from every row of A and of B: every
/// tile went to L2 for each line, and the first one to memory, 64 bytes out of every 256 (a stride the
/// prefetchers did not keep up with). dW took twice as long as the forward product of the same shape.
/// The copy reads the slice once along memory. Measured by alternating in one process on a Zen 3 (bench
/// engine, dW alone, medians of 20): b3.pointwise 10.3 ms in place, 6.6 with slices of 16 KB, 6.5 of
/// 24 KB; fpn.lateral3 5.7, 3.6, 3.4.
/// The slice's size does not change the bits: each sum of C adds its rows in order, carried from
/// slice to slice in the block's partial.
private let sliceBytes = 24 * 1024

/// C (m x n) = A^T B, plus C's old values when `accumulate`: A is (rows x m) and B (rows x n),
/// row-major and contiguous, as a 1x1 convolution's input and output gradient are for its
/// weight gradient. Each block of rows sums its rows in order into a partial, a slice at a time;
/// the partials are added in block order.
func panelGEMMTransposedA(
    rows: Int, m: Int, n: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, accumulate: Bool, c: UnsafeMutablePointer<Float>
) {
    transposedProduct(rows: rows, m: m, n: n, a: a, b: .memory(b), accumulate: accumulate, c: c)
}

/// Where a product's rows of B come from.
enum ProductRows {
    /// In memory, row-major and contiguous.
    case memory(UnsafePointer<Float>)
    /// Made a block of rows at a time into a buffer that stays in cache (a deferred output gradient).
    case deferred(DeferredGradient)

    /// Calls `body` with rows `range` of B (row `range.lowerBound` first), `rowLength` floats each.
    @inline(__always)
    func withRows(_ range: Range<Int>, rowLength: Int, _ body: (UnsafePointer<Float>) -> Void) {
        switch self {
        case .memory(let b):
            body(b + range.lowerBound * rowLength)
        case .deferred(let gradient):
            precondition(gradient.rowLength == rowLength && range.upperBound <= gradient.rows, "a deferred gradient of another shape")
            let block = Storage(count: range.count * rowLength)
            gradient.writeRows(range, block.pointer)
            withExtendedLifetime(block) { body(block.pointer) }
        }
    }
}

/// `panelGEMMTransposedA` with B from `b`; `blockDone` is called with each block's rows and its rows
/// of B once its sums are made, on the worker that made them.
private func transposedProduct(
    rows: Int, m: Int, n: Int, a: UnsafePointer<Float>, b: ProductRows, accumulate: Bool, c: UnsafeMutablePointer<Float>,
    blockDone: ((_ rows: Range<Int>, _ bRows: UnsafePointer<Float>) -> Void)? = nil
) {
    precondition(n % 16 == 0, "panelGEMMTransposedA takes whole 16-column vectors")
    let blocks = Parallel.blockCount(count: rows, blockSize: reductionRows)
    let partial = Storage(count: max(1, blocks) * m * n)
    let widest = widestPanel()
    let sliceRows = max(4, sliceBytes / (MemoryLayout<Float>.size * (m + n)))
    Parallel.forEachBlock(count: rows, blockSize: reductionRows) { block, r in
        let p = partial.pointer + block * m * n
        p.update(repeating: 0, count: m * n)
        let scratch = Storage(count: sliceRows * (m + n))
        let (sliceA, sliceB) = (UnsafePointer(scratch.pointer), UnsafePointer(scratch.pointer + sliceRows * m))
        b.withRows(r, rowLength: n) { bRows in
            for first in stride(from: r.lowerBound, to: r.upperBound, by: sliceRows) {
                let count = min(r.upperBound - first, sliceRows)
                // Rows first ..< first + count of A, and of B, are each one run of memory.
                scratch.pointer.update(from: a + first * m, count: count * m)
                (scratch.pointer + sliceRows * m).update(from: bRows + (first - r.lowerBound) * n, count: count * n)
                var column = 0
                while column < n {
                    switch min(n - column, widest) {
                    case 64...: outerPanel(Columns64.self, rows: count, column: column, m: m, n: n, a: sliceA, b: sliceB, c: p); column += 64
                    case 32...: outerPanel(Columns32.self, rows: count, column: column, m: m, n: n, a: sliceA, b: sliceB, c: p); column += 32
                    default: outerPanel(Columns16.self, rows: count, column: column, m: m, n: n, a: sliceA, b: sliceB, c: p); column += 16
                    }
                }
            }
            blockDone?(r, bRows)
        }
    }
    if !accumulate { c.update(repeating: 0, count: m * n) }
    for block in 0..<blocks {
        let p = partial.pointer + block * m * n
        for i in 0..<(m * n) { c[i] += p[i] }
    }
}

/// Adds the first `rows` rows of A and B to columns column ..< column + V's width of C = A^T B,
/// 4 rows of C at a time, each tile's sums carried in `c`.
@inline(__always)
private func outerPanel<V: ColumnVector>(
    _: V.Type, rows: Int, column: Int, m: Int, n: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>
) {
    var i0 = 0
    while i0 < m {
        // A tile of fewer than 4 rows of C repeats its last one and stores only the real ones.
        let count = min(4, m - i0)
        let (o1, o2, o3) = (min(1, count - 1), min(2, count - 1), min(3, count - 1))
        let c0 = c + i0 * n + column
        var (s0, s1, s2, s3) = (V(loading: c0), V(loading: c0 + o1 * n), V(loading: c0 + o2 * n), V(loading: c0 + o3 * n))
        for row in 0..<rows {
            let aRow = a + row * m + i0
            let bRow = V(loading: b + row * n + column)
            s0 = s0.addingProduct(broadcast: aRow[0], bRow)
            s1 = s1.addingProduct(broadcast: aRow[o1], bRow)
            s2 = s2.addingProduct(broadcast: aRow[o2], bRow)
            s3 = s3.addingProduct(broadcast: aRow[o3], bRow)
        }
        s0.store(to: c0)
        if count > 1 { s1.store(to: c0 + n) }
        if count > 2 { s2.store(to: c0 + 2 * n) }
        if count > 3 { s3.store(to: c0 + 3 * n) }
        i0 += count
    }
}

/// A 1x1 convolution's two gradients when both are panel products: dW = X^T dY
/// (`panelGEMMTransposedA`) and dX = dY W^T (`panelGEMM`, `wT` = W^T). Each block of dW's rows
/// makes its rows of dX right after its sums, while the block's dY is in L2, so dY comes from
/// memory once, not twice (bench engine on a Zen 3, backward alone: b1.pointwise 0.86-0.88 of the
/// two products one after the other, b2 0.94-0.95, b3 0.96); a deferred dY (batch norm's input
/// gradient) is made a block at a time and never goes to memory. The same bits: dW keeps its blocks,
/// and each row of dX is the same sum whatever the blocking.
func panelGEMMBothGradients(
    rows: Int, cin: Int, cout: Int, x: UnsafePointer<Float>, gy: ProductRows, wT: UnsafePointer<Float>,
    gw: GradientTarget, gx: GradientTarget
) {
    precondition(cin % 16 == 0 && cout % 16 == 0, "panel products take whole 16-column vectors")
    let rowsDone = gx.rowsDone
    transposedProduct(rows: rows, m: cin, n: cout, a: x, b: gy, accumulate: gw.accumulate, c: gw.pointer) { block, dy in
        // In panelGEMM's blocks of rows (a whole number of them per block: `reductionRows`), each handed
        // to `rowsDone` while in cache.
        for first in stride(from: block.lowerBound, to: block.upperBound, by: panelBlockRows) {
            let count = min(block.upperBound - first, panelBlockRows)
            panelRows(0..<count, n: cin, k: cout, a: dy + (first - block.lowerBound) * cout, lda: cout, b: wT,
                      accumulate: gx.accumulate, c: gx.pointer + first * cin, ldc: cin)
            rowsDone?(first..<(first + count))
        }
    }
}
