// C = A B for a 1x1 convolution at inference: A the input pixels (tall, read in place), B the
// weights, packed once when the layer is prepared.
//
// OpenBLAS packs B again on every call and A into its own layout before multiplying, and
// fills C with zeros first (beta = 0): at batch 1 those copies took 16% of a 1-thread
// forward's profile on the Zen 3 (itcopy 7%, oncopy 4%, sgemm_beta 4.7%). Here B's panels
// are laid out once, A is read where it is, and each tile of 6 rows x one panel keeps its
// sums in registers (12 of AVX2's 16, 12 of AVX-512's 32 with panels twice as wide) over the
// whole of K, then is written once with the bias and clamp applied.
// Every output is the same K-ordered chain of fused multiply-adds whatever the tiling, so
// results do not depend on the thread count.

/// B (k x n, row-major) copied into panels of whole vectors, each k x width contiguous:
/// a tile walks its panel's rows one after another.
public struct PackedPanels: @unchecked Sendable {
    public let k, n: Int
    /// Columns per full panel: 32 where a register holds 16 floats, 16 otherwise.
    let width: Int
    private let storage: Storage

    /// Whether B's shape can be packed: N in whole 16-column vectors.
    public static func applies(n: Int) -> Bool { n > 0 && n % 16 == 0 }

    /// Packs `b` (k x n, row-major); `n` must be a multiple of 16.
    init(_ b: UnsafePointer<Float>, k: Int, n: Int) {
        precondition(Self.applies(n: n), "PackedPanels: \(n) columns is not a multiple of 16")
        (self.k, self.n) = (k, n)
        width = VectorRegisters.holdSixteenFloats ? 32 : 16
        storage = Storage(count: k * n)
        var column = 0
        while column < n {
            let w = min(width, n - column)
            let panel = storage.pointer + column * k
            for i in 0..<k { (panel + i * w).update(from: b + i * n + column, count: w) }
            column += w
        }
    }

    /// The panel holding columns `column ..<` its width, k x that width.
    func panel(at column: Int) -> UnsafePointer<Float> { UnsafePointer(storage.pointer + column * k) }
}

/// Rows per tile: 6 rows of 2 registers are 12 accumulators, leaving B's row and a broadcast
/// room in AVX2's 16 registers.
private let tileRows = 6

/// C (m x n, row stride ldc) = A (m x k, row stride lda) B, then `stage`'s bias and clamp,
/// each tile written once. `stage.moments` is not gathered (inference only).
func packedGEMM(m: Int, a: UnsafePointer<Float>, lda: Int, b: PackedPanels, stage: OutputStage,
                c: UnsafeMutablePointer<Float>, ldc: Int) {
    precondition(stage.moments == nil, "packedGEMM does not gather moments")
    let panels = (b.n + b.width - 1) / b.width
    // Work items are blocks of rows x groups of panels: a block of A (up to 96 x K) stays in L2
    // while its group's panels pass over it; groups split wide products over the workers
    // where there are few rows. Any split gives the same bits.
    let rowBlock = min(96, tileRows * max(1, (m + tileRows * 2 * Parallel.threadCount - 1) / (tileRows * 2 * Parallel.threadCount)))
    let rowBlocks = (m + rowBlock - 1) / rowBlock
    let panelsPerGroup = rowBlocks >= 4 * Parallel.threadCount ? panels : max(1, panels * rowBlocks / (4 * Parallel.threadCount))
    let groups = (panels + panelsPerGroup - 1) / panelsPerGroup
    let zeros = Storage(count: b.n)
    let bias = UnsafePointer(stage.bias ?? UnsafePointer(zeros.pointer))
    Parallel.forEachBlock(count: rowBlocks * groups, blockSize: 1) { item, _ in
        let rows = (item / groups * rowBlock)..<min(m, (item / groups + 1) * rowBlock)
        let firstPanel = item % groups * panelsPerGroup
        for p in firstPanel..<min(panels, firstPanel + panelsPerGroup) {
            let column = p * b.width
            if b.width == 32 && b.n - column >= 32 {
                packedPanel(Columns32.self, rows: rows, column: column, a: a, lda: lda, b: b, bias: bias, stage: stage, c: c, ldc: ldc)
            } else {
                packedPanel(Columns16.self, rows: rows, column: column, a: a, lda: lda, b: b, bias: bias, stage: stage, c: c, ldc: ldc)
            }
        }
    }
}

/// One panel's columns of rows `rows`, `tileRows` rows at a time; `V` is the panel's width.
@inline(__always)
private func packedPanel<V: ColumnVector>(
    _: V.Type, rows: Range<Int>, column: Int, a: UnsafePointer<Float>, lda: Int, b: PackedPanels,
    bias: UnsafePointer<Float>, stage: OutputStage, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    let panel = b.panel(at: column)
    let step = min(b.width, b.n - column)
    var row = rows.lowerBound
    while row < rows.upperBound {
        let count = min(tileRows, rows.upperBound - row)
        packedTile(V.self, count: count, a: a + row * lda, lda: lda, k: b.k, panel: panel, step: step,
                   bias: bias + column, lower: stage.lower, upper: stage.upper, c: c + row * ldc + column, ldc: ldc)
        row += count
    }
}

/// Rows 0 ..< count (at most `tileRows`) of one panel. Not inlined into the walk over rows: there
/// the compiler kept the clamp's bounds in registers across the loop over K and spilled two of
/// the tile's sums to the stack, which halved its speed on AVX2.
@inline(never)
private func packedTile<V: ColumnVector>(
    _: V.Type, count: Int, a: UnsafePointer<Float>, lda: Int, k: Int, panel: UnsafePointer<Float>, step: Int,
    bias: UnsafePointer<Float>, lower: Float, upper: Float, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    // A tile of fewer rows repeats its last row and stores only the real ones.
    let a0 = a
    let a1 = a0 + min(1, count - 1) * lda, a2 = a0 + min(2, count - 1) * lda
    let a3 = a0 + min(3, count - 1) * lda, a4 = a0 + min(4, count - 1) * lda, a5 = a0 + min(5, count - 1) * lda
    var (s0, s1, s2) = (V(broadcasting: 0), V(broadcasting: 0), V(broadcasting: 0))
    var (s3, s4, s5) = (V(broadcasting: 0), V(broadcasting: 0), V(broadcasting: 0))
    var bRowPointer = panel
    for i in 0..<k {
        let bRow = V(loading: bRowPointer)
        s0 = s0.addingProduct(broadcast: a0[i], bRow)
        s1 = s1.addingProduct(broadcast: a1[i], bRow)
        s2 = s2.addingProduct(broadcast: a2[i], bRow)
        s3 = s3.addingProduct(broadcast: a3[i], bRow)
        s4 = s4.addingProduct(broadcast: a4[i], bRow)
        s5 = s5.addingProduct(broadcast: a5[i], bRow)
        bRowPointer += step
    }
    let columnBias = V(loading: bias)
    let clamps = lower > -.infinity || upper < .infinity
    @inline(__always) func finish(_ s: V, _ t: Int) {
        let v = s.adding(columnBias)
        (clamps ? v.clamped(lower, upper) : v).store(to: c + t * ldc)
    }
    finish(s0, 0)
    if count > 1 { finish(s1, 1) }
    if count > 2 { finish(s2, 2) }
    if count > 3 { finish(s3, 3) }
    if count > 4 { finish(s4, 4) }
    if count > 5 { finish(s5, 5) }
}
