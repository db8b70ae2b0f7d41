/// Direct kernels for dense convolutions of an input with few channels (the
/// RGB stem): a GEMM with K = kh*kw*3 and N = Cout runs far below peak and
/// needs an im2col copy larger than the image, so these broadcast each input
/// value against vectors of output channels instead.

@inline(__always) private func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self) }
@inline(__always) private func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self) }

extension ConvGeometry {
    /// True when the direct few-input-channel kernels apply.
    var usesFewChannelKernel: Bool { groups == 1 && inChannels <= 4 && outChannels % 8 == 0 && outChannels <= 64 }
}

/// out = conv(x, w) through `stage`, for shapes `usesFewChannelKernel` accepts: runs of eight
/// output pixels where their windows lie inside the image, one pixel at a time elsewhere.
func fewChannelForward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    let bias = stage.bias
    let (h, wid, cin, cout) = (geo.height, geo.width, geo.inChannels, geo.outChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    // Output columns whose whole window lies inside the image's columns.
    let firstInterior = (p + s - 1) / s
    let lastInterior = (wid - kw + p) / s  // inclusive
    let runs = lastInterior - firstInterior + 1 >= runLength
    // Each tap's input offset from its window's first value, in the weights' order (ky, kx, ci).
    let offsets = (0..<kh).flatMap { ky in (0..<kw).flatMap { kx in (0..<cin).map { ci in (ky * wid + kx) * cin + ci } } }
    offsets.withUnsafeBufferPointer { offsets in
        Parallel.forEachBlock(count: geo.batch * ho, blockSize: 4) { _, r in
            for line in r {
                let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
                let image = x + n * h * wid * cin
                let lineOut = out + line * wo * cout
                let inside = runs && oy * s - p >= 0 && oy * s - p + kh <= h
                if inside {
                    // Runs of eight inside the image, the last one ending at the last interior column
                    // (it may overlap the one before and write the same values again).
                    let rowStart = image + (oy * s - p) * wid * cin
                    var ox = firstInterior
                    while true {
                        let window = rowStart + (ox * s - p) * cin
                        for v in stride(from: 0, to: cout, by: 8) {
                            let b = bias.map { load($0 + v) } ?? SIMD8<Float>()
                            let sums = interiorRun(window: window, pixelStride: s * cin, offsets: offsets, weights: w + v, cout: cout, bias: b)
                            let o = lineOut + ox * cout + v
                            store(stage.clamp(sums.0), o); store(stage.clamp(sums.1), o + cout)
                            store(stage.clamp(sums.2), o + 2 * cout); store(stage.clamp(sums.3), o + 3 * cout)
                            store(stage.clamp(sums.4), o + 4 * cout); store(stage.clamp(sums.5), o + 5 * cout)
                            store(stage.clamp(sums.6), o + 6 * cout); store(stage.clamp(sums.7), o + 7 * cout)
                        }
                        if ox == lastInterior - (runLength - 1) { break }
                        ox = min(ox + runLength, lastInterior - (runLength - 1))
                    }
                }
                for ox in 0..<wo where !(inside && ox >= firstInterior && ox <= lastInterior) {
                    let o = lineOut + ox * cout
                    // Two vectors of output channels at a time share each broadcast input value.
                    for v in stride(from: 0, to: cout, by: 16) {
                        let pair = v + 8 < cout
                        var a0 = bias.map { load($0 + v) } ?? SIMD8<Float>()
                        var a1 = pair ? (bias.map { load($0 + v + 8) } ?? SIMD8<Float>()) : SIMD8<Float>()
                        for ky in 0..<kh {
                            let iy = oy * s - p + ky
                            guard iy >= 0, iy < h else { continue }
                            for kx in 0..<kw {
                                let ix = ox * s - p + kx
                                guard ix >= 0, ix < wid else { continue }
                                let xi = image + (iy * wid + ix) * cin
                                let wr = w + (ky * kw + kx) * cin * cout + v
                                for ci in 0..<cin {
                                    let xv = SIMD8<Float>(repeating: xi[ci])
                                    a0 = a0.addingProduct(xv, load(wr + ci * cout))
                                    if pair { a1 = a1.addingProduct(xv, load(wr + ci * cout + 8)) }
                                }
                            }
                        }
                        store(stage.clamp(a0), o + v)
                        if pair { store(stage.clamp(a1), o + v + 8) }
                    }
                }
            }
            stage.rowsFinished(out, rows: (r.lowerBound * wo)..<(r.upperBound * wo))
        }
    }
}

/// Output pixels per run of `interiorRun`.
private let runLength = 8

/// Eight neighbouring output pixels whose windows lie inside the image, 8 output channels: eight
/// independent sums share each weight load (one pixel's 27 dependent multiply-adds wait on each
/// other; four at a time left half of the Zen 3's multiply-add slots idle). Each sum adds the taps
/// in the weights' order, as the edge pixels' loop does.
@inline(__always)
private func interiorRun(
    window: UnsafePointer<Float>, pixelStride: Int, offsets: UnsafeBufferPointer<Int>, weights: UnsafePointer<Float>,
    cout: Int, bias: SIMD8<Float>
) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
    var (a0, a1, a2, a3, a4, a5, a6, a7) = (bias, bias, bias, bias, bias, bias, bias, bias)
    var wr = weights
    for offset in offsets {
        let wv = load(wr)
        let x0 = window + offset
        a0 = a0.addingProduct(SIMD8<Float>(repeating: x0[0]), wv)
        a1 = a1.addingProduct(SIMD8<Float>(repeating: x0[pixelStride]), wv)
        a2 = a2.addingProduct(SIMD8<Float>(repeating: x0[2 &* pixelStride]), wv)
        a3 = a3.addingProduct(SIMD8<Float>(repeating: x0[3 &* pixelStride]), wv)
        a4 = a4.addingProduct(SIMD8<Float>(repeating: x0[4 &* pixelStride]), wv)
        a5 = a5.addingProduct(SIMD8<Float>(repeating: x0[5 &* pixelStride]), wv)
        a6 = a6.addingProduct(SIMD8<Float>(repeating: x0[6 &* pixelStride]), wv)
        a7 = a7.addingProduct(SIMD8<Float>(repeating: x0[7 &* pixelStride]), wv)
        wr += cout
    }
    return (a0, a1, a2, a3, a4, a5, a6, a7)
}

/// Output rows per block of the weight gradient (each block keeps its own partial sums).
private let weightRowsPerBlock = 8

/// dW[ky, kx, ci, :] = sum over output pixels of x[window pixel, ci] * dy[pixel, :].
func fewChannelBackwardWeight(_ geo: ConvGeometry, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, gw: GradientTarget) {
    let (kh, kw, cin, cout) = (geo.kernelHeight, geo.kernelWidth, geo.inChannels, geo.outChannels)
    let size = kh * kw * cin * cout
    let lines = geo.batch * geo.outHeight
    let blocks = Parallel.blockCount(count: lines, blockSize: weightRowsPerBlock)
    let partial = Storage(count: blocks * size)
    Parallel.forEachBlock(count: lines, blockSize: weightRowsPerBlock) { b, r in
        let acc = partial.pointer + b * size
        // One tap (ky, kx) at a time: its weight rows' output channels accumulate in registers over
        // the block's pixels.
        for ky in 0..<kh {
            for kx in 0..<kw {
                let pixels = TapPixels(geo: geo, lines: r, ky: ky, kx: kx)
                let tapRows = acc + (ky * kw + kx) * cin * cout
                var v = 0
                while v + 16 <= cout {
                    for ci in 0..<cin {
                        let (a, b) = pixels.pairSums(x: x + ci, gy: gy + v)
                        store(a, tapRows + ci * cout + v)
                        store(b, tapRows + ci * cout + v + 8)
                    }
                    v += 16
                }
                if v < cout {
                    // The last 8 output channels: three input channels at a time share each load of dy
                    // (one at a time, 4 sums in flight left the multiply-adds waiting on each other).
                    // A group short of three repeats its last channel, whose sums are not stored twice.
                    for ci in stride(from: 0, to: cin, by: 3) {
                        let (c1, c2) = (min(ci + 1, cin - 1), min(ci + 2, cin - 1))
                        let sums = pixels.tripleSums(x: x, channels: (ci, c1, c2), gy: gy + v)
                        store(sums.0, tapRows + ci * cout + v)
                        if c1 > ci { store(sums.1, tapRows + c1 * cout + v) }
                        if c2 > c1 { store(sums.2, tapRows + c2 * cout + v) }
                    }
                }
            }
        }
    }
    // Fixed block order keeps the sum bit-identical run to run.
    if !gw.accumulate { gw.pointer.update(repeating: 0, count: size) }
    for b in 0..<blocks {
        let src = partial.pointer + b * size
        for i in 0..<size { gw.pointer[i] += src[i] }
    }
}

/// The output pixels of a block of output rows that one tap (ky, kx) of a few-channel
/// convolution sees inside the image, for its weight gradient. Each sum runs over the rows in
/// order and, within a row, over four sums by output column (ox - first) % 4, the columns left
/// over after the last whole four going to the first; the four are added as (0 + 1) + (2 + 3).
/// Every way of walking the pixels below adds in that order, so their bits agree.
private struct TapPixels {
    let geo: ConvGeometry
    let lines: Range<Int>
    let ky, kx: Int
    /// Output columns whose tap column lies inside the image.
    let first, end: Int

    init(geo: ConvGeometry, lines: Range<Int>, ky: Int, kx: Int) {
        (self.geo, self.lines, self.ky, self.kx) = (geo, lines, ky, kx)
        let (s, p) = (geo.stride, geo.padding)
        first = max(0, (p - kx + s - 1) / s)
        end = min(geo.outWidth, (geo.width - 1 + p - kx) / s + 1)
    }

    /// Calls `row` with each line's input values under the tap at output column 0 (of channel 0;
    /// the column may lie in the padding, but only columns from `first` are read) and its dy row.
    @inline(__always) func forEachRow(x: UnsafePointer<Float>, gy: UnsafePointer<Float>, _ row: (UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let (h, wid, cin, cout) = (geo.height, geo.width, geo.inChannels, geo.outChannels)
        let (s, p, ho, wo) = (geo.stride, geo.padding, geo.outHeight, geo.outWidth)
        for line in lines {
            let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
            let iy = oy * s - p + ky
            guard iy >= 0, iy < h else { continue }
            row(x + ((n * h + iy) * wid + kx - p) * cin, gy + line * wo * cout)
        }
    }

    /// Sums of x[channel 0 of `x`] * dy over 16 output channels from `gy`.
    @inline(__always) func pairSums(x: UnsafePointer<Float>, gy: UnsafePointer<Float>) -> (SIMD8<Float>, SIMD8<Float>) {
        let (step, cout) = (geo.stride * geo.inChannels, geo.outChannels)
        var a = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        var b = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        forEachRow(x: x, gy: gy) { xRow, g in
            var ox = first
            while ox &+ 4 <= end {
                let xs = xRow + ox &* step, gs = g + ox &* cout
                let x0 = SIMD8<Float>(repeating: xs[0]), x1 = SIMD8<Float>(repeating: xs[step])
                let x2 = SIMD8<Float>(repeating: xs[2 &* step]), x3 = SIMD8<Float>(repeating: xs[3 &* step])
                a.0 = a.0.addingProduct(x0, load(gs)); a.1 = a.1.addingProduct(x1, load(gs + cout))
                a.2 = a.2.addingProduct(x2, load(gs + 2 &* cout)); a.3 = a.3.addingProduct(x3, load(gs + 3 &* cout))
                b.0 = b.0.addingProduct(x0, load(gs + 8)); b.1 = b.1.addingProduct(x1, load(gs + cout + 8))
                b.2 = b.2.addingProduct(x2, load(gs + 2 &* cout + 8)); b.3 = b.3.addingProduct(x3, load(gs + 3 &* cout + 8))
                ox &+= 4
            }
            while ox < end {
                let xv = SIMD8<Float>(repeating: xRow[ox &* step])
                a.0 = a.0.addingProduct(xv, load(g + ox &* cout))
                b.0 = b.0.addingProduct(xv, load(g + ox &* cout + 8))
                ox &+= 1
            }
        }
        return ((a.0 + a.1) + (a.2 + a.3), (b.0 + b.1) + (b.2 + b.3))
    }

    /// Sums of x[channel c] * dy over 8 output channels from `gy`, for three input channels c.
    @inline(__always) func tripleSums(
        x: UnsafePointer<Float>, channels c: (Int, Int, Int), gy: UnsafePointer<Float>
    ) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let (step, cout) = (geo.stride * geo.inChannels, geo.outChannels)
        var a = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        var b = a, d = a
        forEachRow(x: x, gy: gy) { xRow, g in
            let (x0, x1, x2) = (xRow + c.0, xRow + c.1, xRow + c.2)
            @inline(__always) func add(_ i: Int, _ ox: Int, _ sa: inout SIMD8<Float>, _ sb: inout SIMD8<Float>, _ sd: inout SIMD8<Float>) {
                let gv = load(g + (ox &+ i) &* cout), at = (ox &+ i) &* step
                sa = sa.addingProduct(SIMD8<Float>(repeating: x0[at]), gv)
                sb = sb.addingProduct(SIMD8<Float>(repeating: x1[at]), gv)
                sd = sd.addingProduct(SIMD8<Float>(repeating: x2[at]), gv)
            }
            var ox = first
            while ox &+ 4 <= end {
                add(0, ox, &a.0, &b.0, &d.0); add(1, ox, &a.1, &b.1, &d.1)
                add(2, ox, &a.2, &b.2, &d.2); add(3, ox, &a.3, &b.3, &d.3)
                ox &+= 4
            }
            while ox < end {
                add(0, ox, &a.0, &b.0, &d.0)
                ox &+= 1
            }
        }
        return ((a.0 + a.1) + (a.2 + a.3), (b.0 + b.1) + (b.2 + b.3), (d.0 + d.1) + (d.2 + d.3))
    }
}
