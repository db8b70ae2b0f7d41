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

func fewChannelForward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    if geo.outChannels % 16 == 0 { return fewChannelForward16(geo, x: x, w: w, stage: stage, out: out) }
    let bias = stage.bias
    let (h, wid, cin, cout) = (geo.height, geo.width, geo.inChannels, geo.outChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    let firstInterior = (p + s - 1) / s
    let lastInterior = (wid - kw + p) / s  // inclusive
    Parallel.forEachBlock(count: geo.batch * ho, blockSize: 4) { _, r in
        for line in r {
            let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
            let image = x + n * h * wid * cin
            let rowsInside = oy * s - p >= 0 && oy * s - p + kh <= h
            var ox = 0
            while ox < wo {
                // Four output pixels whose windows lie inside: four independent sums share each
                // weight load (one vector's 27 dependent multiply-adds would wait on each other).
                if rowsInside && ox >= firstInterior && ox + 3 <= lastInterior {
                    for v in stride(from: 0, to: cout, by: 8) {
                        let b = bias.map { load($0 + v) } ?? SIMD8<Float>()
                        var (a0, a1, a2, a3) = (b, b, b, b)
                        for ky in 0..<kh {
                            let row = image + ((oy * s - p + ky) * wid + ox * s - p) * cin
                            for kx in 0..<kw {
                                let x0 = row + kx * cin
                                let wr = w + (ky * kw + kx) * cin * cout + v
                                for ci in 0..<cin {
                                    let wv = load(wr + ci * cout)
                                    a0 = a0.addingProduct(SIMD8<Float>(repeating: x0[ci]), wv)
                                    a1 = a1.addingProduct(SIMD8<Float>(repeating: x0[s * cin + ci]), wv)
                                    a2 = a2.addingProduct(SIMD8<Float>(repeating: x0[2 * s * cin + ci]), wv)
                                    a3 = a3.addingProduct(SIMD8<Float>(repeating: x0[3 * s * cin + ci]), wv)
                                }
                            }
                        }
                        let o = out + (line * wo + ox) * cout + v
                        store(stage.clamp(a0), o); store(stage.clamp(a1), o + cout)
                        store(stage.clamp(a2), o + 2 * cout); store(stage.clamp(a3), o + 3 * cout)
                    }
                    ox += 4
                    continue
                }
                defer { ox += 1 }
                let o = out + (line * wo + ox) * cout
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

@inline(__always) private func load16(_ p: UnsafePointer<Float>) -> SIMD16<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self) }
@inline(__always) private func store16(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<Float>.self) }

/// The forward kernel for a multiple of 16 output channels: 16 lanes a vector (one AVX-512
/// register; two AVX2 ones elsewhere), and two output pixels at a time sharing every weight load
/// where the window lies inside the image; the same sums in the same order as the 8-lane kernel.
private func fewChannelForward16(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    let (h, wid, cin, cout) = (geo.height, geo.width, geo.inChannels, geo.outChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    // Output columns whose whole window lies inside the image's columns.
    let firstInterior = (p + s - 1) / s
    let lastInterior = (wid - kw + p) / s  // inclusive
    Parallel.forEachBlock(count: geo.batch * ho, blockSize: 4) { _, r in
        for line in r {
            let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
            let image = x + n * h * wid * cin
            let rowsInside = oy * s - p >= 0 && oy * s - p + kh <= h
            for v in stride(from: 0, to: cout, by: 16) {
                let b = stage.bias.map { load16($0 + v) } ?? SIMD16<Float>()
                var ox = 0
                while ox < wo {
                    if rowsInside && ox >= firstInterior && ox + 1 <= lastInterior {
                        var a0 = b, a1 = b
                        for ky in 0..<kh {
                            let row = image + ((oy * s - p + ky) * wid + ox * s - p) * cin
                            for kx in 0..<kw {
                                let x0 = row + kx * cin, x1 = x0 + s * cin
                                let wr = w + (ky * kw + kx) * cin * cout + v
                                for ci in 0..<cin {
                                    let wv = load16(wr + ci * cout)
                                    a0 = a0.addingProduct(SIMD16<Float>(repeating: x0[ci]), wv)
                                    a1 = a1.addingProduct(SIMD16<Float>(repeating: x1[ci]), wv)
                                }
                            }
                        }
                        let o = out + (line * wo + ox) * cout + v
                        store16(stage.clamp(a0), o)
                        store16(stage.clamp(a1), o + cout)
                        ox += 2
                        continue
                    }
                    var a = b
                    for ky in 0..<kh {
                        let iy = oy * s - p + ky
                        guard iy >= 0, iy < h else { continue }
                        for kx in 0..<kw {
                            let ix = ox * s - p + kx
                            guard ix >= 0, ix < wid else { continue }
                            let xi = image + (iy * wid + ix) * cin
                            let wr = w + (ky * kw + kx) * cin * cout + v
                            for ci in 0..<cin { a = a.addingProduct(SIMD16<Float>(repeating: xi[ci]), load16(wr + ci * cout)) }
                        }
                    }
                    store16(stage.clamp(a), out + (line * wo + ox) * cout + v)
                    ox += 1
                }
            }
        }
        stage.rowsFinished(out, rows: (r.lowerBound * wo)..<(r.upperBound * wo))
    }
}

/// Output rows per block of the weight gradient (each block keeps its own partial sums).
private let weightRowsPerBlock = 8

/// dW[ky, kx, ci, :] = sum over output pixels of x[window pixel, ci] * dy[pixel, :].
func fewChannelBackwardWeight(_ geo: ConvGeometry, x: UnsafePointer<Float>, gy: UnsafePointer<Float>, gw: GradientTarget) {
    let (h, wid, cin, cout) = (geo.height, geo.width, geo.inChannels, geo.outChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    let size = kh * kw * cin * cout
    let lines = geo.batch * ho
    let blocks = Parallel.blockCount(count: lines, blockSize: weightRowsPerBlock)
    let partial = Storage(count: blocks * size)
    Parallel.forEachBlock(count: lines, blockSize: weightRowsPerBlock) { b, r in
        let acc = partial.pointer + b * size
        // One weight row (tap, input channel) at a time: its output channels
        // accumulate in registers over the block's pixels.
        for ky in 0..<kh {
            for kx in 0..<kw {
                let (lo, hi) = (max(0, (p - kx + s - 1) / s), min(wo, (wid - 1 + p - kx) / s + 1))
                for ci in 0..<cin {
                    let row = acc + ((ky * kw + kx) * cin + ci) * cout
                    for v in stride(from: 0, to: cout, by: 16) {
                        let pair = v + 8 < cout
                        // Four sums per vector, over output columns ox % 4, so that consecutive
                        // multiply-adds do not wait on each other; added together at the end.
                        var a = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                        var b = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                        for line in r {
                            let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
                            let iy = oy * s - p + ky
                            guard iy >= 0, iy < h else { continue }
                            let xRow = x + ((n * h + iy) * wid) * cin + ci
                            let g = gy + line * wo * cout + v
                            var ox = lo
                            while ox + 4 <= hi {
                                let xs = xRow + (ox * s - p + kx) * cin, gs = g + ox * cout
                                let x0 = SIMD8<Float>(repeating: xs[0]), x1 = SIMD8<Float>(repeating: xs[s * cin])
                                let x2 = SIMD8<Float>(repeating: xs[2 * s * cin]), x3 = SIMD8<Float>(repeating: xs[3 * s * cin])
                                a.0 = a.0.addingProduct(x0, load(gs)); a.1 = a.1.addingProduct(x1, load(gs + cout))
                                a.2 = a.2.addingProduct(x2, load(gs + 2 * cout)); a.3 = a.3.addingProduct(x3, load(gs + 3 * cout))
                                if pair {
                                    b.0 = b.0.addingProduct(x0, load(gs + 8)); b.1 = b.1.addingProduct(x1, load(gs + cout + 8))
                                    b.2 = b.2.addingProduct(x2, load(gs + 2 * cout + 8)); b.3 = b.3.addingProduct(x3, load(gs + 3 * cout + 8))
                                }
                                ox += 4
                            }
                            while ox < hi {
                                let xv = SIMD8<Float>(repeating: xRow[(ox * s - p + kx) * cin])
                                a.0 = a.0.addingProduct(xv, load(g + ox * cout))
                                if pair { b.0 = b.0.addingProduct(xv, load(g + ox * cout + 8)) }
                                ox += 1
                            }
                        }
                        store((a.0 + a.1) + (a.2 + a.3), row + v)
                        if pair { store((b.0 + b.1) + (b.2 + b.3), row + v + 8) }
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
