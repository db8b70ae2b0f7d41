// C = A B with B packed ahead: at inference a 1x1 convolution's weights (A its input pixels),
// packed once when the layer is prepared; Winograd's transformed weights (A the transformed
// input tiles, one product per entry), packed once at inference and once per call in
// training. A is read in place.
//
// OpenBLAS packs B again on every call and A into its own layout before multiplying, and
// fills C with zeros first (beta = 0): at batch 1 those copies took 16% of a 1-thread
// forward's profile on the Zen 3 (itcopy 7%, oncopy 4%, sgemm_beta 4.7%). Here B's panels
// are laid out once, A is read where it is, and each tile of 6 rows x one panel keeps its
// sums in registers (12 of AVX2's 16, 12 of AVX-512's 32 with panels twice as wide) over the
// whole of K, then is written once with the bias and clamp applied.
// Every output is the same K-ordered chain of fused multiply-adds whatever the tiling, so
// results do not depend on the thread count.

/// B (k x n, row-major) copied into panels of whole vectors, each k x its width contiguous:
/// a tile walks its panel's rows one after another. The last panel is padded with zero columns
/// to a whole vector; those columns are never stored.
struct PackedPanels: @unchecked Sendable {
    let k, n: Int
    /// Columns per full panel: 32 where a register holds 16 floats, 16 otherwise.
    let width: Int
    private let storage: Storage

    /// Packs `b` (k x n, row stride n).
    init(_ b: UnsafePointer<Float>, k: Int, n: Int) {
        precondition(k > 0 && n > 0, "PackedPanels: an empty matrix (\(k) x \(n))")
        (self.k, self.n) = (k, n)
        width = VectorRegisters.holdSixteenFloats ? 32 : 16
        storage = Storage(count: k * ((n + 15) / 16 * 16))
        var column = 0
        while column < n {
            let (real, packed) = (columns(at: column), packedWidth(at: column))
            let panel = storage.pointer + column * k
            for i in 0..<k {
                (panel + i * packed).update(from: b + i * n + column, count: real)
                (panel + i * packed + real).update(repeating: 0, count: packed - real)
            }
            column += width
        }
    }

    /// Columns of C the panel starting at `column` makes.
    func columns(at column: Int) -> Int { min(width, n - column) }
    /// Floats per row of that panel: its columns rounded up to a whole vector of 16.
    func packedWidth(at column: Int) -> Int { (columns(at: column) + 15) / 16 * 16 }
    /// The panel starting at `column` (every panel before it is full).
    func panel(at column: Int) -> UnsafePointer<Float> { UnsafePointer(storage.pointer + column * k) }
    var panelCount: Int { (n + width - 1) / width }
}

/// Rows per tile: 6 rows of 2 registers are 12 accumulators, which leaves room for B's row and a
/// broadcast in AVX2's 16 registers.
private let tileRows = 6

/// C (m x n, row stride ldc) = A (m x k, row stride lda) B, then `stage`'s bias and clamp, each
/// tile written once, spread over the workers. `stage.moments` is not gathered (inference only).
func packedGEMM(m: Int, a: UnsafePointer<Float>, lda: Int, b: PackedPanels, stage: OutputStage,
                c: UnsafeMutablePointer<Float>, ldc: Int) {
    precondition(stage.moments == nil, "packedGEMM does not gather moments")
    let panels = b.panelCount, threads = Parallel.threadCount
    // Work items are blocks of rows x groups of panels: a block of A (up to 96 x K) stays in L2
    // while its group's panels pass over it; groups split wide products over the workers
    // where there are few rows. Any split gives the same bits.
    let rowBlock = min(96, tileRows * max(1, (m + tileRows * 2 * threads - 1) / (tileRows * 2 * threads)))
    let rowBlocks = (m + rowBlock - 1) / rowBlock
    let panelsPerGroup = rowBlocks >= 4 * threads ? panels : max(1, panels * rowBlocks / (4 * threads))
    let groups = (panels + panelsPerGroup - 1) / panelsPerGroup
    Parallel.forEachBlock(count: rowBlocks * groups, blockSize: 1) { item, _ in
        let rows = (item / groups * rowBlock)..<min(m, (item / groups + 1) * rowBlock)
        let first = item % groups * panelsPerGroup
        packedProduct(rows: rows, panels: first..<min(panels, first + panelsPerGroup), a: a, lda: lda, b: b,
                      bias: stage.bias, lower: stage.lower, upper: stage.upper, c: c, ldc: ldc)
    }
}

/// Rows `rows` x panels `panels` of C = A B (+ bias, clamped to [lower, upper]) on the calling
/// thread: one panel at a time, down the rows `tileRows` at a time.
func packedProduct(rows: Range<Int>, panels: Range<Int>, a: UnsafePointer<Float>, lda: Int, b: PackedPanels,
                   bias: UnsafePointer<Float>?, lower: Float = -.infinity, upper: Float = .infinity,
                   c: UnsafeMutablePointer<Float>, ldc: Int) {
    for p in panels {
        let column = p * b.width
        let panel = b.panel(at: column), step = b.packedWidth(at: column), columns = b.columns(at: column)
        let panelBias = bias.map { $0 + column }
        var row = rows.lowerBound
        while row < rows.upperBound {
            let count = min(tileRows, rows.upperBound - row)
            let (aTile, cTile) = (a + row * lda, c + row * ldc + column)
            if step == 32 {
                packedTile(Columns32.self, count: count, a: aTile, lda: lda, k: b.k, panel: panel, columns: columns,
                           bias: panelBias, lower: lower, upper: upper, c: cTile, ldc: ldc)
            } else {
                packedTile(Columns16.self, count: count, a: aTile, lda: lda, k: b.k, panel: panel, columns: columns,
                           bias: panelBias, lower: lower, upper: upper, c: cTile, ldc: ldc)
            }
            row += count
        }
    }
}

/// Rows 0 ..< count (at most `tileRows`) of one panel, its first `columns` columns stored. Not
/// inlined into the walk over rows: there the compiler kept the clamp's bounds in registers
/// across the loop over K and spilled two of the tile's sums to the stack, which halved its
/// speed on AVX2.
@inline(never)
private func packedTile<V: ColumnVector>(
    _: V.Type, count: Int, a: UnsafePointer<Float>, lda: Int, k: Int, panel: UnsafePointer<Float>, columns: Int,
    bias: UnsafePointer<Float>?, lower: Float, upper: Float, c: UnsafeMutablePointer<Float>, ldc: Int
) {
    // A tile of fewer rows repeats its last row and stores only the real ones.
    let a0 = a
    let a1 = a0 + min(1, count - 1) * lda, a2 = a0 + min(2, count - 1) * lda
    let a3 = a0 + min(3, count - 1) * lda, a4 = a0 + min(4, count - 1) * lda, a5 = a0 + min(5, count - 1) * lda
    var (s0, s1, s2) = (V(broadcasting: 0), V(broadcasting: 0), V(broadcasting: 0))
    var (s3, s4, s5) = (V(broadcasting: 0), V(broadcasting: 0), V(broadcasting: 0))
    var bRowPointer = panel
    let step = V.lanes
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
    // The bias has n entries: a panel cut short reads only its real columns' (its padding is never stored).
    let columnBias: V? = bias.map { columns == step ? V(loading: $0) : V(loadingFirst: columns, from: $0) }
    let clamps = lower > -.infinity || upper < .infinity
    @inline(__always) func finish(_ s: V, _ t: Int) {
        var v = columnBias.map { s.adding($0) } ?? s
        if clamps { v = v.clamped(lower, upper) }
        if columns == step { v.store(to: c + t * ldc) } else { v.store(first: columns, to: c + t * ldc) }
    }
    finish(s0, 0)
    if count > 1 { finish(s1, 1) }
    if count > 2 { finish(s2, 2) }
    if count > 3 { finish(s3, 3) }
    if count > 4 { finish(s4, 4) }
    if count > 5 { finish(s5, 5) }
}
