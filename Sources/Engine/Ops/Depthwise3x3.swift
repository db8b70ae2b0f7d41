/// Register-blocked kernels for the 3x3 depthwise convolution, MobileNet's
/// workhorse, when the channel count is a multiple of 8.
///
/// Each output vector of 8 channels (16 in the backward passes where the channels
/// allow) sums its 9 taps in a SIMD register with fused multiply-adds and is
/// stored once; the weight gradient keeps its 9 tap accumulators of a channel
/// group in registers across a block of rows (or, with stride 2 on few channels,
/// every channel's in L1 while the block is walked along memory).
/// With stride 1, four adjacent columns go together in all three passes: they
/// share 6 input-column loads per window row where one at a time takes 12, and
/// the loop was bound by its loads (bench engine, forward: b5 and b7 shapes
/// about 1.35x, b1 1.2x). The forward pass also takes two output rows at a time, which share
/// two of their input rows (`quadPairWindow`). Other shapes use the generic kernels in Convolution.swift.

typealias Vec = SIMD8<Float>

@inline(__always) private func load(_ p: UnsafePointer<Float>) -> Vec { UnsafeRawPointer(p).loadUnaligned(as: Vec.self) }
@inline(__always) private func store(_ v: Vec, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Vec.self) }

extension ConvGeometry {
    /// True when the register-blocked 3x3 depthwise kernels apply.
    var usesDepthwise3x3Kernel: Bool { isDepthwise && kernelHeight == 3 && kernelWidth == 3 && inChannels % 8 == 0 }

    /// With stride 1, the output columns whose window lies inside the row, in runs of four:
    /// `first ..< first + 4 * runs`. None with other strides (runs of four with stride 2, 9 columns
    /// for four outputs instead of 12, were slower).
    var outputColumnRuns: (first: Int, runs: Int) {
        let first = min(outWidth, padding)
        return (first, stride == 1 ? max(0, min(outWidth, width - 2 + padding) - first) / 4 : 0)
    }

    /// With stride 1 and padding 1, runs of four over the whole row, `0 ..< 4 * runs`, the first and
    /// last taking a padding column as zeros; nil otherwise.
    var paddedOutputColumnRuns: (first: Int, runs: Int)? {
        guard stride == 1, padding == 1, outWidth == width, width >= 4 else { return nil }
        return (0, outWidth / 4)
    }
}

/// Calls `body` on each column of `start ..< end` outside the runs of four `first ..< first + 4 * count`,
/// in order. Two loops, not one over the whole row testing each column: that test, per row and in the
/// weight gradient per channel group too, cost the stride-1 backward passes 3-14% (bench engine, Zen 3).
@inline(__always)
private func forEachColumnOutsideRuns(from start: Int = 0, to end: Int, runs: (first: Int, count: Int), _ body: (Int) -> Void) {
    for x in start..<max(start, min(runs.first, end)) { body(x) }
    for x in min(end, max(start, runs.first + 4 * runs.count))..<end { body(x) }
}

/// The three input rows a 3x3 window starting at row `top` reads (nil where padding).
@inline(__always)
private func rows(_ base: UnsafePointer<Float>, top: Int, height: Int, rowFloats: Int) -> (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?) {
    func row(_ y: Int) -> UnsafePointer<Float>? { y >= 0 && y < height ? base + y * rowFloats : nil }
    return (row(top), row(top + 1), row(top + 2))
}

/// acc + sum over kx of row[ix0 + kx, j..<j+8] * w[kx], skipping columns outside 0..<width.
@inline(__always)
private func tapRow(_ acc: Vec, _ row: UnsafePointer<Float>?, _ w: UnsafePointer<Float>, ix0: Int, j: Int, width: Int, c: Int, interior: Bool) -> Vec {
    guard let row else { return acc }
    let p = row + ix0 * c + j
    if interior {
        return acc.addingProduct(load(p), load(w)).addingProduct(load(p + c), load(w + c)).addingProduct(load(p + 2 * c), load(w + 2 * c))
    }
    var a = acc
    for kx in 0..<3 where ix0 + kx >= 0 && ix0 + kx < width { a = a.addingProduct(load(p + kx * c), load(w + kx * c)) }
    return a
}

/// Four adjacent outputs' sums over one window row of a stride-1 correlation: output k reads
/// columns k, k + 1, k + 2 from `q` with taps `w`, so the four share 6 column loads (12 without sharing).
/// `padded.left` / `padded.right`: column 0 / 5 lies in the padding and is taken as zeros, not read.
@inline(__always)
private func quadRow<V: SIMD & WinogradLanes>(
    _ a: (V, V, V, V), _ q: UnsafePointer<Float>, _ w: (V, V, V), c: Int, padded: (left: Bool, right: Bool) = (false, false)
) -> (V, V, V, V) where V.Scalar == Float {
    let x0 = padded.left ? V() : V(loading: q)
    let (x1, x2, x3) = (V(loading: q + c), V(loading: q + 2 * c), V(loading: q + 3 * c))
    let (x4, x5) = (V(loading: q + 4 * c), padded.right ? V() : V(loading: q + 5 * c))
    return (a.0.addingProduct(x0, w.0).addingProduct(x1, w.1).addingProduct(x2, w.2),
            a.1.addingProduct(x1, w.0).addingProduct(x2, w.1).addingProduct(x3, w.2),
            a.2.addingProduct(x2, w.0).addingProduct(x3, w.1).addingProduct(x4, w.2),
            a.3.addingProduct(x3, w.0).addingProduct(x4, w.1).addingProduct(x5, w.2))
}

/// A 3x3 depthwise conv's taps regrouped for the runs of four: each group of channels (8, or 16 where
/// `sixteen` and 16 remain) has its 9 taps one after another, row by row, each row's taps reversed when
/// `flipped`. Group j (its first channel) starts at float 9 j. A run then reads its taps from one pointer
/// at fixed offsets; from the [3][3][c] layout it took 9 strided addresses, which the forward's loop
/// kept on the stack and reloaded for every group of every run.
private struct GroupedTaps {
    let values: [Float]

    init(_ w: UnsafePointer<Float>, channels c: Int, sixteen: Bool, flipped: Bool) {
        var values = [Float](repeating: 0, count: 9 * c)
        var j = 0
        while j < c {
            let lanes = GroupedTaps.lanes(at: j, channels: c, sixteen: sixteen)
            for k in 0..<9 {
                let (ky, kx) = k.quotientAndRemainder(dividingBy: 3)
                let source = 3 * ky + (flipped ? 2 - kx : kx)
                for l in 0..<lanes { values[9 * j + k * lanes + l] = w[source * c + j + l] }
            }
            j += lanes
        }
        self.values = values
    }

    /// Channels in the group starting at channel j.
    static func lanes(at j: Int, channels c: Int, sixteen: Bool) -> Int { sixteen && j + 16 <= c ? 16 : 8 }
}

/// `quadRow` over a whole 3x3 window: row ky of `r` (zeros where padding), from float `offset` (column
/// and channel), with the taps of window row ky from `taps` (a group of `GroupedTaps`).
@inline(__always)
private func quadWindow<V: SIMD & WinogradLanes>(
    _ a: (V, V, V, V), _ r: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>), offset: Int,
    taps g: UnsafePointer<Float>, c: Int, padded: (left: Bool, right: Bool) = (false, false)
) -> (V, V, V, V) where V.Scalar == Float {
    let l = V.scalarCount
    @inline(__always) func row(_ ky: Int) -> (V, V, V) {
        (V(loading: g + 3 * ky * l), V(loading: g + (3 * ky + 1) * l), V(loading: g + (3 * ky + 2) * l))
    }
    let a = quadRow(a, r.0 + offset, row(0), c: c, padded: padded)
    let b = quadRow(a, r.1 + offset, row(1), c: c, padded: padded)
    return quadRow(b, r.2 + offset, row(2), c: c, padded: padded)
}

/// Four adjacent stride-1 dX columns from `ix`, channels j..<j + lanes: the forward's window with its
/// taps reversed (`taps`: flipped `GroupedTaps`).
@inline(__always)
private func inputGradientQuad<V: SIMD & WinogradLanes>(
    _: V.Type, _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>), taps: UnsafePointer<Float>,
    d: UnsafeMutablePointer<Float>, column ix: Int, channel j: Int, c: Int, padding p: Int, accumulate: Bool
) where V.Scalar == Float {
    let e = d + ix * c + j
    let start = accumulate ? (V(loading: e), V(loading: e + c), V(loading: e + 2 * c), V(loading: e + 3 * c)) : (V(), V(), V(), V())
    let a = quadWindow(start, rows, offset: (ix + p - 2) * c + j, taps: taps + 9 * j, c: c)
    a.0.store(to: e); a.1.store(to: e + c); a.2.store(to: e + 2 * c); a.3.store(to: e + 3 * c)
}

/// Which ends of a forward run of four take a padding column as zeros, as a type: each kind gets a
/// loop of its own, compiled without the tests.
private protocol RunEdges { static var left: Bool { get }; static var right: Bool { get } }
private enum InteriorRun: RunEdges { static var left: Bool { false }; static var right: Bool { false } }
private enum LeftEdgeRun: RunEdges { static var left: Bool { true }; static var right: Bool { false } }
private enum RightEdgeRun: RunEdges { static var left: Bool { false }; static var right: Bool { true } }
private enum BothEdgesRun: RunEdges { static var left: Bool { true }; static var right: Bool { true } }

/// One forward run of four outputs from column `ox` of output row `o`, every channel group in turn.
/// A function of its own, compiled once per kind of run. Marked `@inline(__always)`, it stayed a call
/// all the same (the row loop is too large for the optimiser to inline into), with the ends tested at
/// run time, and that copy loaded all 27 vectors of a group first and spilled them.
@inline(never)
private func forwardQuad<E: RunEdges>(
    _: E.Type, _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>), taps: UnsafePointer<Float>,
    stage: OutputStage, out o: UnsafeMutablePointer<Float>, column ox: Int, c: Int, padding p: Int
) {
    for j in stride(from: 0, to: c, by: 8) {
        let b = stage.bias.map { load($0 + j) } ?? Vec()
        let a = quadWindow((b, b, b, b), rows, offset: (ox - p) * c + j, taps: taps + 9 * j, c: c, padded: (E.left, E.right))
        let d = o + ox * c + j
        store(stage.clamp(a.0), d); store(stage.clamp(a.1), d + c); store(stage.clamp(a.2), d + 2 * c); store(stage.clamp(a.3), d + 3 * c)
    }
}

/// Runs of four in two adjacent rows at once: `first` takes window rows 0, 1, 2 from `rows.0 ... rows.2`
/// and `second` from `rows.1 ... rows.3`, so each row is loaded once for both (alone, a run loads three
/// rows for one output row). Each sum adds window rows 0, 1, 2 and taps kx = 0, 1, 2 in `quadWindow`'s
/// order: the same bits. `E`: which ends take a padding column as zeros.
@inline(__always)
private func quadPairWindow<E: RunEdges>(
    _: E.Type, _ first: (Vec, Vec, Vec, Vec), _ second: (Vec, Vec, Vec, Vec),
    _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
    offset: Int, taps g: UnsafePointer<Float>, c: Int
) -> (first: (Vec, Vec, Vec, Vec), second: (Vec, Vec, Vec, Vec)) {
    var (a, b) = (first, second)
    /// Adds window row `ky`'s three taps over the row's six columns `x` to the run `sums`.
    @inline(__always) func add(_ sums: inout (Vec, Vec, Vec, Vec), _ x: (Vec, Vec, Vec, Vec, Vec, Vec), windowRow ky: Int) {
        var t = load(g + 3 * ky * 8)
        sums.0 = sums.0.addingProduct(x.0, t); sums.1 = sums.1.addingProduct(x.1, t)
        sums.2 = sums.2.addingProduct(x.2, t); sums.3 = sums.3.addingProduct(x.3, t)
        t = load(g + (3 * ky + 1) * 8)
        sums.0 = sums.0.addingProduct(x.1, t); sums.1 = sums.1.addingProduct(x.2, t)
        sums.2 = sums.2.addingProduct(x.3, t); sums.3 = sums.3.addingProduct(x.4, t)
        t = load(g + (3 * ky + 2) * 8)
        sums.0 = sums.0.addingProduct(x.2, t); sums.1 = sums.1.addingProduct(x.3, t)
        sums.2 = sums.2.addingProduct(x.4, t); sums.3 = sums.3.addingProduct(x.5, t)
    }
    @inline(__always) func row(_ q: UnsafePointer<Float>, first ka: Int?, second kb: Int?) {
        let q = q + offset
        let x = (E.left ? Vec() : load(q), load(q + c), load(q + 2 * c), load(q + 3 * c), load(q + 4 * c), E.right ? Vec() : load(q + 5 * c))
        if let ka { add(&a, x, windowRow: ka) }
        if let kb { add(&b, x, windowRow: kb) }
    }
    row(rows.0, first: 0, second: nil)
    row(rows.1, first: 1, second: 0)
    row(rows.2, first: 2, second: 1)
    row(rows.3, first: nil, second: 2)
    return (a, b)
}

/// Runs of four from column `ox` in output rows `out.0` and `out.1` (the next row), from input rows
/// `rows.0 ... rows.3`, every channel group in turn (`quadPairWindow`).
@inline(never)
private func forwardQuadPair<E: RunEdges>(
    _: E.Type, _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
    taps: UnsafePointer<Float>, stage: OutputStage, out: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
    column ox: Int, c: Int, padding p: Int
) {
    for j in stride(from: 0, to: c, by: 8) {
        let b = stage.bias.map { load($0 + j) } ?? Vec()
        let (u, v) = quadPairWindow(E.self, (b, b, b, b), (b, b, b, b), rows, offset: (ox - p) * c + j, taps: taps + 9 * j, c: c)
        let d = out.0 + ox * c + j, e = out.1 + ox * c + j
        store(stage.clamp(u.0), d); store(stage.clamp(u.1), d + c); store(stage.clamp(u.2), d + 2 * c); store(stage.clamp(u.3), d + 3 * c)
        store(stage.clamp(v.0), e); store(stage.clamp(v.1), e + c); store(stage.clamp(v.2), e + 2 * c); store(stage.clamp(v.3), e + 3 * c)
    }
}

func depthwise3x3Forward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    let bias = stage.bias
    let (h, wid, c, s, p) = (geo.height, geo.width, geo.inChannels, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    // Runs of four columns with stride 1 (`quadWindow`), over the whole row where they can cover it, with
    // the padding columns at its ends taken as zeros; the rest and other strides one at a time, skipping
    // padding. The same bits either way (with finite weights): a zero product changes a sum only when
    // the sum is -0, which takes a bias of -0 and nothing else but zeros. (Skipping the product in the
    // runs instead, with a branch per edge, made the b1 layer's forward 30% slower: bench engine, Zen 3.)
    let (lo, quads) = geo.paddedOutputColumnRuns ?? geo.outputColumnRuns
    let zeros = [Float](repeating: 0, count: wid * c)
    let grouped = GroupedTaps(w, channels: c, sixteen: false, flipped: false)
    zeros.withUnsafeBufferPointer { zeroRow in
    grouped.values.withUnsafeBufferPointer { groupedTaps in
    let taps = groupedTaps.baseAddress!
    Parallel.forEachBlock(count: geo.batch * ho, blockSize: 4) { _, r in
        let z = zeroRow.baseAddress!
        /// Input row `y` of image `n`, or the zero row where `y` is padding.
        @inline(__always) func inputRow(_ n: Int, _ y: Int) -> UnsafePointer<Float> { y >= 0 && y < h ? x + (n * h + y) * wid * c : z }
        var line = r.lowerBound
        while line < r.upperBound {
            let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
            // With stride 1, two rows of one image at a time, sharing their input rows (`forwardQuadPair`):
            // the b5 and b7 layers' forward ran 5-14% faster (bench engine, Zen 3). Each output's bits are the same.
            let paired = s == 1 && oy + 1 < ho && line + 1 < r.upperBound
            let top = oy * s - p
            let four = (inputRow(n, top), inputRow(n, top + 1), inputRow(n, top + 2), inputRow(n, top + 3))
            let o = out + line * wo * c
            for k in 0..<quads {
                let ox = lo + 4 * k
                @inline(__always) func run<E: RunEdges>(_ kind: E.Type) {
                    if paired {
                        forwardQuadPair(kind, four, taps: taps, stage: stage, out: (o, o + wo * c), column: ox, c: c, padding: p)
                    } else {
                        forwardQuad(kind, (four.0, four.1, four.2), taps: taps, stage: stage, out: o, column: ox, c: c, padding: p)
                    }
                }
                switch (ox - p < 0, ox - p + 5 >= wid) {
                case (false, false): run(InteriorRun.self)
                case (true, false): run(LeftEdgeRun.self)
                case (false, true): run(RightEdgeRun.self)
                case (true, true): run(BothEdgesRun.self)
                }
            }
            for edgeLine in line..<(line + (paired ? 2 : 1)) {
                let oy = edgeLine % ho
                let (r0, r1, r2) = rows(x + n * h * wid * c, top: oy * s - p, height: h, rowFloats: wid * c)
                let o = out + edgeLine * wo * c
                // Runs over the whole row leave nothing here; the loop testing every column then cost
                // the b1 layer's forward 8-20% (bench engine, Zen 3).
                if lo > 0 || lo + 4 * quads < wo {
                    for ox in 0..<wo where ox < lo || ox >= lo + 4 * quads {
                        let ix0 = ox * s - p
                        let interior = ix0 >= 0 && ix0 + 2 < wid
                        for j in stride(from: 0, to: c, by: 8) {
                            var acc = bias.map { load($0 + j) } ?? Vec()
                            acc = tapRow(acc, r0, w + j, ix0: ix0, j: j, width: wid, c: c, interior: interior)
                            acc = tapRow(acc, r1, w + 3 * c + j, ix0: ix0, j: j, width: wid, c: c, interior: interior)
                            acc = tapRow(acc, r2, w + 6 * c + j, ix0: ix0, j: j, width: wid, c: c, interior: interior)
                            store(stage.clamp(acc), o + ox * c + j)
                        }
                    }
                }
            }
            line += paired ? 2 : 1
        }
        stage.rowsFinished(out, rows: (r.lowerBound * wo)..<(r.upperBound * wo))
    }
    }
    }
}

/// acc + sum over kx of dy[row, cols[kx], j..<j+8] * w[kx] for the taps that exist (col >= 0).
@inline(__always)
private func gatherRow(_ acc: Vec, _ row: UnsafePointer<Float>?, _ w: UnsafePointer<Float>, cols: (Int, Int, Int), j: Int, c: Int) -> Vec {
    guard let row else { return acc }
    var a = acc
    if cols.0 >= 0 { a = a.addingProduct(load(row + cols.0 * c + j), load(w)) }
    if cols.1 >= 0 { a = a.addingProduct(load(row + cols.1 * c + j), load(w + c)) }
    if cols.2 >= 0 { a = a.addingProduct(load(row + cols.2 * c + j), load(w + 2 * c)) }
    return a
}

/// dX rows as a gather: input pixel (iy, ix) collects dy at every output whose window covers it.
/// Holds what every row shares (the column table, a zero row); `write(lines:)` makes a range of rows.
private struct InputGradientRows {
    let geo: ConvGeometry
    let w, gy: UnsafePointer<Float>
    let gx: GradientTarget
    /// Output column feeding tap kx of input column ix, or -1: the same for every row, so built once.
    let table: [Int]
    let zeros: [Float]
    /// With stride 1, the input columns lo..<lo + 4 * quads whose dy columns ix + p - 2 ... ix + p all exist.
    let lo, quads: Int
    /// The taps reversed and regrouped for the runs of four, in the runs' groups of 16 and 8 channels.
    let grouped: GroupedTaps
    /// With stride 2 and padding 1, input columns 2k and 2k + 1 go in pairs while dy column k + 1 exists.
    let pairs: Int

    init(_ geo: ConvGeometry, w: UnsafePointer<Float>, gy: UnsafePointer<Float>, gx: GradientTarget) {
        let (wid, s, p, wo) = (geo.width, geo.stride, geo.padding, geo.outWidth)
        (self.geo, self.w, self.gy, self.gx) = (geo, w, gy, gx)
        var table = [Int](repeating: -1, count: 3 * wid)
        for ix in 0..<wid {
            for kx in 0..<3 {
                let tx = ix + p - kx
                if tx >= 0, tx % s == 0, tx / s < wo { table[3 * ix + kx] = tx / s }
            }
        }
        self.table = table
        grouped = GroupedTaps(w, channels: geo.inChannels, sixteen: true, flipped: true)
        zeros = [Float](repeating: 0, count: wo * geo.inChannels)
        lo = min(wid, max(0, 2 - p))
        quads = s == 1 ? max(0, min(wid, wo - p) - lo) / 4 : 0
        pairs = s == 2 && p == 1 ? max(0, min(wo - 1, wid / 2)) : 0
    }

    /// The first input line (image row, counted over the batch) whose dX the block starting at output
    /// line `line` writes when dX goes with the weight gradient's blocks: row oy * s of its image, so
    /// that each block's dX reads the dy rows the block's weight taps have just read.
    func firstInputLine(ofOutputLine line: Int) -> Int {
        let (n, oy) = line.quotientAndRemainder(dividingBy: geo.outHeight)
        return n * geo.height + oy * geo.stride
    }

    /// Writes dX lines `lines` (input image rows counted over the batch) and tells the target they are final.
    func write(lines: Range<Int>) {
        let (h, wid, c, s, p) = (geo.height, geo.width, geo.inChannels, geo.stride, geo.padding)
        let (ho, wo) = (geo.outHeight, geo.outWidth)
        let (lo, quads, pairs, gy, w, gx) = (lo, quads, pairs, gy, w, gx)
        table.withUnsafeBufferPointer { tableBuffer in
        zeros.withUnsafeBufferPointer { zeroRow in
        grouped.values.withUnsafeBufferPointer { groupedTaps in
        let colTable = tableBuffer.baseAddress!
        let taps = groupedTaps.baseAddress!
        for line in lines {
            let (n, iy) = line.quotientAndRemainder(dividingBy: h)
            // Output row feeding tap ky, or nil.
            var outRows: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?) = (nil, nil, nil)
            for ky in 0..<3 {
                let ty = iy + p - ky
                guard ty >= 0, ty % s == 0, ty / s < ho else { continue }
                let row = gy + (n * ho + ty / s) * wo * c
                switch ky { case 0: outRows.0 = row; case 1: outRows.1 = row; default: outRows.2 = row }
            }
            let d = gx.pointer + line * wid * c
            let z = zeroRow.baseAddress!
            let padded = (outRows.0 ?? z, outRows.1 ?? z, outRows.2 ?? z)
            // 16 channels (a whole cache line of each pixel) where they fit, as in the weight gradient; the
            // forward pass keeps 8 (16 measured no faster there). Each lane does the same arithmetic: same bits.
            for k in 0..<quads {
                let ix = lo + 4 * k
                var j = 0
                while j + 16 <= c {
                    inputGradientQuad(SIMD16<Float>.self, padded, taps: taps, d: d, column: ix, channel: j, c: c, padding: p, accumulate: gx.accumulate); j += 16
                }
                while j < c { inputGradientQuad(SIMD8<Float>.self, padded, taps: taps, d: d, column: ix, channel: j, c: c, padding: p, accumulate: gx.accumulate); j += 8 }
            }
            for k in 0..<pairs {
                var j = 0
                while j + 16 <= c { stride2Pair(SIMD16<Float>.self, outRows, w: w, d: d, pair: k, channel: j, c: c, accumulate: gx.accumulate); j += 16 }
                while j < c { stride2Pair(SIMD8<Float>.self, outRows, w: w, d: d, pair: k, channel: j, c: c, accumulate: gx.accumulate); j += 8 }
            }
            forEachColumnOutsideRuns(from: 2 * pairs, to: wid, runs: (lo, quads)) { ix in
                let cols = (colTable[3 * ix], colTable[3 * ix + 1], colTable[3 * ix + 2])
                for j in stride(from: 0, to: c, by: 8) {
                    var acc = gx.accumulate ? load(d + ix * c + j) : Vec()
                    acc = gatherRow(acc, outRows.0, w + j, cols: cols, j: j, c: c)
                    acc = gatherRow(acc, outRows.1, w + 3 * c + j, cols: cols, j: j, c: c)
                    acc = gatherRow(acc, outRows.2, w + 6 * c + j, cols: cols, j: j, c: c)
                    store(acc, d + ix * c + j)
                }
            }
        }
        }
        }
        }
        gx.rowsFinished((lines.lowerBound * wid)..<(lines.upperBound * wid))
    }
}

/// dX and dW of a 3x3 depthwise conv (either may be nil). With both, each block of the weight
/// gradient's output rows writes the dX rows those dy rows feed right after its weight taps, while
/// they are in cache (the bench network's nine depthwise backward passes summed 8% faster with it,
/// bench engine, Zen 3). Neither gradient's bits depend on this: dX sums each input pixel whole, and
/// dW keeps its blocks.
func depthwise3x3Backward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, gy: UnsafePointer<Float>, gx: GradientTarget?, gw: GradientTarget?
) {
    let inputRows = gx.map { InputGradientRows(geo, w: w, gy: gy, gx: $0) }
    if let gw {
        depthwise3x3BackwardWeight(geo, x: x, gy: gy, gw: gw, inputRows: inputRows)
    } else if let inputRows {
        Parallel.forEachBlock(count: geo.batch * geo.height, blockSize: 4) { _, r in inputRows.write(lines: r) }
    }
}

/// Input columns 2k and 2k + 1 of a stride-2, padding-1 dX row, channels j..<j + lanes: column 2k takes
/// tap kx = 1 of dy column k, column 2k + 1 taps kx = 0 of column k + 1 and kx = 2 of column k. The pair
/// loads its two dy columns once per dy row and runs without the gather's per-tap tests. The sums go in
/// the gather's order, rows ky = 0, 1, 2 and then taps kx = 0, 1, 2, so the bits are the gather's.
@inline(__always)
private func stride2Pair<V: SIMD & WinogradLanes>(
    _: V.Type, _ rows: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?), w: UnsafePointer<Float>,
    d: UnsafeMutablePointer<Float>, pair k: Int, channel j: Int, c: Int, accumulate: Bool
) where V.Scalar == Float {
    let e = d + 2 * k * c + j
    var (even, odd) = accumulate ? (V(loading: e), V(loading: e + c)) : (V(), V())
    @inline(__always) func row(_ r: UnsafePointer<Float>?, ky: Int) {
        guard let r else { return }
        let (g0, g1) = (V(loading: r + k * c + j), V(loading: r + (k + 1) * c + j))
        let taps = w + 3 * ky * c + j
        even = even.addingProduct(g0, V(loading: taps + c))
        odd = odd.addingProduct(g1, V(loading: taps)).addingProduct(g0, V(loading: taps + 2 * c))
    }
    row(rows.0, ky: 0); row(rows.1, ky: 1); row(rows.2, ky: 2)
    even.store(to: e); odd.store(to: e + c)
}

/// One window row's three tap sums plus four adjacent outputs' dy `g` times their inputs: output k
/// reads columns k, k + 1, k + 2 from `q`, so the four share 6 column loads (12 without sharing).
@inline(__always)
private func quadTaps<V: SIMD & WinogradLanes>(_ t: (V, V, V), _ q: UnsafePointer<Float>, _ g: (V, V, V, V), c: Int) -> (V, V, V) where V.Scalar == Float {
    let (x0, x1, x2, x3, x4, x5) = (V(loading: q), V(loading: q + c), V(loading: q + 2 * c), V(loading: q + 3 * c), V(loading: q + 4 * c), V(loading: q + 5 * c))
    // Two pairs summed apart and then into t: one dependent add per quad on each accumulator, not four.
    @inline(__always) func four(_ a: V, _ b: V, _ d: V, _ e: V) -> V {
        (g.0 * a).addingProduct(g.1, b) + (g.2 * d).addingProduct(g.3, e)
    }
    return (t.0 + four(x0, x1, x2, x3), t.1 + four(x1, x2, x3, x4), t.2 + four(x2, x3, x4, x5))
}

/// How the weight gradient walks a block of rows; both give the same bits.
enum DepthwiseWeightWalk: CaseIterable {
    /// One channel group at a time down the whole block, its 9 tap sums in registers (`weightTaps`).
    case inRegisters
    /// Pixel by pixel with the channels inner, the tap sums in L1 (`weightTapsAlongMemory`).
    case alongMemory

    /// Set by tests to run one walk whatever the shape; read on the calling thread.
    @TaskLocal static var forced: DepthwiseWeightWalk? = nil

    /// Along memory for stride 2 on up to 64 channels: with it, the b2 and b4 layers' backward ran 1.3-1.4x
    /// faster (bench engine, Zen 3); at stride 1, and at stride 2 with 128 channels and more, the walk in
    /// registers was as fast or faster.
    static func choice(for geo: ConvGeometry) -> DepthwiseWeightWalk {
        forced ?? (geo.stride == 2 && geo.inChannels <= 64 ? .alongMemory : .inRegisters)
    }
}

/// Output rows per block of the weight gradient (each block keeps its own partial sums):
/// at most 16, and few enough that the block's input rows stay in L2 across the
/// block's passes, one per 16 channels. Depends on the shape only.
private func weightRowsPerBlock(width: Int, channels: Int) -> Int {
    max(1, min(16, (1 << 15) / max(1, width * channels)))
}

/// dW: per block of output rows, 9 tap sums per channel (`DepthwiseWeightWalk`), the blocks then
/// summed in order; with `inputRows`, each block then writes its dX rows (`depthwise3x3Backward`).
private func depthwise3x3BackwardWeight(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, gw: GradientTarget, inputRows: InputGradientRows?
) {
    let c = geo.inChannels
    let lines = geo.batch * geo.outHeight
    let rowsPerBlock = weightRowsPerBlock(width: geo.width, channels: c)
    let blocks = Parallel.blockCount(count: lines, blockSize: rowsPerBlock)
    let partial = Storage(count: blocks * 9 * c)
    // Runs of four interior output columns with stride 1 (`quadTaps`), as in the forward pass.
    let (lo, quads) = geo.outputColumnRuns
    let alongMemory = DepthwiseWeightWalk.choice(for: geo) == .alongMemory
    Parallel.forEachBlock(count: lines, blockSize: rowsPerBlock) { b, r in
        let acc = partial.pointer + b * 9 * c
        if alongMemory {
            weightTapsAlongMemory(geo, x: x, gy: gy, lines: r, runs: (lo, quads), into: acc)
        } else {
            // 16 channels (a whole cache line of each pixel) per walk down the block where they fit: with 8,
            // two walks each read half of every line. Each lane does the same arithmetic, so the bits do not change.
            var j = 0
            while j + 16 <= c { weightTaps(SIMD16<Float>.self, geo, x: x, gy: gy, lines: r, channel: j, runs: (lo, quads), into: acc); j += 16 }
            while j < c { weightTaps(SIMD8<Float>.self, geo, x: x, gy: gy, lines: r, channel: j, runs: (lo, quads), into: acc); j += 8 }
        }
        if let inputRows {
            let end = r.upperBound == lines ? geo.batch * geo.height : inputRows.firstInputLine(ofOutputLine: r.upperBound)
            inputRows.write(lines: inputRows.firstInputLine(ofOutputLine: r.lowerBound)..<end)
        }
    }
    // Fixed block order keeps the sum bit-identical run to run.
    let count = 9 * c
    if !gw.accumulate { gw.pointer.update(repeating: 0, count: count) }
    for b in 0..<blocks {
        let src = partial.pointer + b * count
        for i in 0..<count { gw.pointer[i] += src[i] }
    }
}

/// The 9 tap sums of a channel group: window row ky's taps kx = 0, 1, 2 are elements 3 ky ..< 3 ky + 3.
private typealias TapSums<V> = (V, V, V, V, V, V, V, V, V)

/// Adds a run of four interior outputs (from column `ox`) of one output row to the tap sums `t`
/// of channels j..<j + lanes; `r`: the window's input rows (nil where padding), `g`: the dy row.
@inline(__always)
private func addQuad<V: SIMD & WinogradLanes>(
    _ t: inout TapSums<V>, _ r: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?), g: UnsafePointer<Float>,
    column ox: Int, channel j: Int, c: Int, padding p: Int
) where V.Scalar == Float {
    let gq = (V(loading: g + ox * c + j), V(loading: g + (ox + 1) * c + j), V(loading: g + (ox + 2) * c + j), V(loading: g + (ox + 3) * c + j))
    let offset = (ox - p) * c + j
    if let q = r.0 { (t.0, t.1, t.2) = quadTaps((t.0, t.1, t.2), q + offset, gq, c: c) }
    if let q = r.1 { (t.3, t.4, t.5) = quadTaps((t.3, t.4, t.5), q + offset, gq, c: c) }
    if let q = r.2 { (t.6, t.7, t.8) = quadTaps((t.6, t.7, t.8), q + offset, gq, c: c) }
}

/// Adds output column `ox` (outside the runs of four) of one output row to the tap sums `t` of
/// channels j..<j + lanes, skipping taps in the padding.
@inline(__always)
private func addColumn<V: SIMD & WinogradLanes>(
    _ t: inout TapSums<V>, _ r: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?), g: UnsafePointer<Float>,
    column ox: Int, channel j: Int, geometry geo: ConvGeometry
) where V.Scalar == Float {
    let (wid, c) = (geo.width, geo.inChannels)
    let gv = V(loading: g + ox * c + j)
    let ix0 = ox * geo.stride - geo.padding
    if ix0 >= 0 && ix0 + 2 < wid {
        if let q = r.0.map({ $0 + ix0 * c + j }) {
            t.0 = t.0.addingProduct(gv, V(loading: q)); t.1 = t.1.addingProduct(gv, V(loading: q + c)); t.2 = t.2.addingProduct(gv, V(loading: q + 2 * c))
        }
        if let q = r.1.map({ $0 + ix0 * c + j }) {
            t.3 = t.3.addingProduct(gv, V(loading: q)); t.4 = t.4.addingProduct(gv, V(loading: q + c)); t.5 = t.5.addingProduct(gv, V(loading: q + 2 * c))
        }
        if let q = r.2.map({ $0 + ix0 * c + j }) {
            t.6 = t.6.addingProduct(gv, V(loading: q)); t.7 = t.7.addingProduct(gv, V(loading: q + c)); t.8 = t.8.addingProduct(gv, V(loading: q + 2 * c))
        }
    } else {
        for kx in 0..<3 where ix0 + kx >= 0 && ix0 + kx < wid {
            let off = (ix0 + kx) * c + j
            if let q = r.0 { let v = gv * V(loading: q + off); switch kx { case 0: t.0 += v; case 1: t.1 += v; default: t.2 += v } }
            if let q = r.1 { let v = gv * V(loading: q + off); switch kx { case 0: t.3 += v; case 1: t.4 += v; default: t.5 += v } }
            if let q = r.2 { let v = gv * V(loading: q + off); switch kx { case 0: t.6 += v; case 1: t.7 += v; default: t.8 += v } }
        }
    }
}

/// The 9 tap sums of channels j..<j + lanes over output rows `lines`, kept in registers, stored at `acc`.
@inline(__always)
private func weightTaps<V: SIMD & WinogradLanes>(
    _: V.Type, _ geo: ConvGeometry, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, lines: Range<Int>, channel j: Int,
    runs: (first: Int, count: Int), into acc: UnsafeMutablePointer<Float>
) where V.Scalar == Float {
    let (h, wid, c, s, p) = (geo.height, geo.width, geo.inChannels, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    let (lo, quads) = runs
    var t: TapSums<V> = (V(), V(), V(), V(), V(), V(), V(), V(), V())
    for line in lines {
        let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
        let r = rows(x + n * h * wid * c, top: oy * s - p, height: h, rowFloats: wid * c)
        let g = gy + line * wo * c
        for k in 0..<quads { addQuad(&t, r, g: g, column: lo + 4 * k, channel: j, c: c, padding: p) }
        forEachColumnOutsideRuns(to: wo, runs: runs) { ox in addColumn(&t, r, g: g, column: ox, channel: j, geometry: geo) }
    }
    storeTaps(t, acc + j, c: c)
}

@inline(__always)
private func loadTaps<V: SIMD & WinogradLanes>(_ p: UnsafePointer<Float>, c: Int) -> TapSums<V> where V.Scalar == Float {
    (V(loading: p), V(loading: p + c), V(loading: p + 2 * c), V(loading: p + 3 * c), V(loading: p + 4 * c),
     V(loading: p + 5 * c), V(loading: p + 6 * c), V(loading: p + 7 * c), V(loading: p + 8 * c))
}

@inline(__always)
private func storeTaps<V: SIMD & WinogradLanes>(_ t: TapSums<V>, _ p: UnsafeMutablePointer<Float>, c: Int) where V.Scalar == Float {
    t.0.store(to: p); t.1.store(to: p + c); t.2.store(to: p + 2 * c)
    t.3.store(to: p + 3 * c); t.4.store(to: p + 4 * c); t.5.store(to: p + 5 * c)
    t.6.store(to: p + 6 * c); t.7.store(to: p + 7 * c); t.8.store(to: p + 8 * c)
}

/// The 9 tap sums of every channel over output rows `lines`, kept at `acc` (9 x c floats, in L1)
/// while the block is walked pixel by pixel with the channels inner: its reads run along memory.
/// Each channel's sums take the same additions in the same order as `weightTaps`: the same bits.
private func weightTapsAlongMemory(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, lines: Range<Int>,
    runs: (first: Int, count: Int), into acc: UnsafeMutablePointer<Float>
) {
    let (h, wid, c, s, p) = (geo.height, geo.width, geo.inChannels, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    let (lo, quads) = runs
    acc.update(repeating: 0, count: 9 * c)
    // Channels j..<j + lanes of the sums, loaded, added to by `add` and stored back.
    @inline(__always) func update<V: SIMD & WinogradLanes>(_: V.Type, channel j: Int, _ add: (inout TapSums<V>) -> Void) where V.Scalar == Float {
        var t: TapSums<V> = loadTaps(acc + j, c: c)
        add(&t)
        storeTaps(t, acc + j, c: c)
    }
    for line in lines {
        let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
        let r = rows(x + n * h * wid * c, top: oy * s - p, height: h, rowFloats: wid * c)
        let g = gy + line * wo * c
        for k in 0..<quads {
            var j = 0
            while j + 16 <= c { update(SIMD16<Float>.self, channel: j) { addQuad(&$0, r, g: g, column: lo + 4 * k, channel: j, c: c, padding: p) }; j += 16 }
            while j < c { update(SIMD8<Float>.self, channel: j) { addQuad(&$0, r, g: g, column: lo + 4 * k, channel: j, c: c, padding: p) }; j += 8 }
        }
        forEachColumnOutsideRuns(to: wo, runs: runs) { ox in
            var j = 0
            while j + 16 <= c { update(SIMD16<Float>.self, channel: j) { addColumn(&$0, r, g: g, column: ox, channel: j, geometry: geo) }; j += 16 }
            while j < c { update(SIMD8<Float>.self, channel: j) { addColumn(&$0, r, g: g, column: ox, channel: j, geometry: geo) }; j += 8 }
        }
    }
}
