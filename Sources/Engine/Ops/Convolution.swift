/// 2-D convolution on NHWC tensors with HWIO weights.
///
/// Input (N, H, W, Cin); weight (kh, kw, Cin / groups, Cout); optional bias (Cout).
/// Output (N, Ho, Wo, Cout) with Ho = (H + 2 padding - kh) / stride + 1 (same for W).
/// Zero padding is the same on every side.
///
/// Paths: a depthwise conv (groups == Cin == Cout) runs a direct kernel that
/// vectorises along channels (register-blocked for 3x3, Depthwise3x3.swift);
/// a dense conv of an input with at most 4 channels (the RGB stem) runs a
/// direct kernel (FewChannelConv.swift); a dense 3x3 stride-1 padding-1 conv
/// runs Winograd F(4x4, 3x3) or F(2x2, 3x3) in the passes where it was measured to pay
/// (Winograd.swift); every other conv is im2col + GEMM per group, and a 1x1
/// stride-1 unpadded dense conv is a single GEMM on the input as it lies.
/// `ConvolutionAlgorithm` overrides the choice (tests, benchmarks).
public struct ConvGeometry: Equatable, Sendable {
    public let batch, height, width, inChannels: Int
    public let kernelHeight, kernelWidth, outChannels: Int
    public let stride, padding, groups: Int

    /// A geometry from its sizes; `conv2d` checks that they fit together.
    public init(batch: Int, height: Int, width: Int, inChannels: Int, kernelHeight: Int, kernelWidth: Int, outChannels: Int,
                stride: Int, padding: Int, groups: Int) {
        (self.batch, self.height, self.width, self.inChannels) = (batch, height, width, inChannels)
        (self.kernelHeight, self.kernelWidth, self.outChannels) = (kernelHeight, kernelWidth, outChannels)
        (self.stride, self.padding, self.groups) = (stride, padding, groups)
    }

    public var outHeight: Int { (height + 2 * padding - kernelHeight) / stride + 1 }
    public var outWidth: Int { (width + 2 * padding - kernelWidth) / stride + 1 }
    var inPerGroup: Int { inChannels / groups }
    var outPerGroup: Int { outChannels / groups }
    /// Length of one im2col row: the receptive field of one group.
    var patch: Int { kernelHeight * kernelWidth * inPerGroup }
    public var isDepthwise: Bool { groups == inChannels && outChannels == inChannels && groups > 1 }
    var isPlainGEMM: Bool { kernelHeight == 1 && kernelWidth == 1 && stride == 1 && padding == 0 && groups == 1 }
    /// Multiply-accumulates of one forward pass.
    public var macs: Int { batch * outHeight * outWidth * outChannels * patch }
}

/// Largest im2col buffer, in floats; bigger batches are processed in chunks of images.
let im2colBudget = 1 << 22

extension Tensor {
    /// Convolves this NHWC tensor with `weight` (HWIO), adding `bias` if given; `algorithm`
    /// picks how (the results agree to rounding).
    public func conv2d(weight: Tensor, bias: Tensor? = nil, stride: Int = 1, padding: Int = 0, groups: Int = 1,
                       algorithm: ConvolutionAlgorithm = .automatic) -> Tensor {
        convolution(weight: weight, bias: bias, stride: stride, padding: padding, groups: groups, algorithm: algorithm, moments: false).output
    }

    /// `conv2d`, gathering the output's per-channel moments as the output is written, for the
    /// training-mode batch norm that follows (`batchNorm(..., moments:)`): it then skips its own
    /// pass over the output to find them.
    public func conv2dGatheringMoments(weight: Tensor, bias: Tensor? = nil, stride: Int = 1, padding: Int = 0, groups: Int = 1,
                                       algorithm: ConvolutionAlgorithm = .automatic) -> (output: Tensor, moments: ChannelMoments) {
        let (output, moments) = convolution(weight: weight, bias: bias, stride: stride, padding: padding, groups: groups,
                                            algorithm: algorithm, moments: true)
        return (output, moments!)
    }

    private func convolution(weight: Tensor, bias: Tensor?, stride: Int, padding: Int, groups: Int,
                             algorithm: ConvolutionAlgorithm, moments gathering: Bool) -> (output: Tensor, moments: ChannelMoments?) {
        precondition(shape.count == 4, "conv2d input must be NHWC, got \(shape)")
        precondition(weight.shape.count == 4, "conv2d weight must be HWIO, got \(weight.shape)")
        let geo = ConvGeometry(
            batch: shape[0], height: shape[1], width: shape[2], inChannels: shape[3],
            kernelHeight: weight.shape[0], kernelWidth: weight.shape[1], outChannels: weight.shape[3],
            stride: stride, padding: padding, groups: groups)
        precondition(groups >= 1 && geo.inChannels % groups == 0 && geo.outChannels % groups == 0,
                     "conv2d: channels \(geo.inChannels) -> \(geo.outChannels) not divisible by groups \(groups)")
        precondition(weight.shape[2] == geo.inPerGroup,
                     "conv2d: weight \(weight.shape) expects \(weight.shape[2]) input channels per group, input has \(geo.inPerGroup)")
        precondition(stride >= 1 && padding >= 0 && geo.outHeight > 0 && geo.outWidth > 0,
                     "conv2d: input \(shape) too small for kernel \(weight.shape) stride \(stride) padding \(padding)")
        if let bias { precondition(bias.shape == [geo.outChannels], "conv2d: bias \(bias.shape) for \(geo.outChannels) channels") }

        let outShape = [geo.batch, geo.outHeight, geo.outWidth, geo.outChannels]
        let out = Storage(count: outShape.reduce(1, *))
        let x = self
        let winograd = geo.winogradPasses(algorithm)
        let onlyIm2col = algorithm == .im2col
        let moments = gathering ? ChannelMoments(shape: outShape) : nil
        convolveForward(geo, x: x.storage.pointer, w: weight.storage.pointer, stage: OutputStage(bias: bias?.storage.pointer, moments: moments),
                        out: out.pointer, algorithm: algorithm)
        var inputs = [x, weight]
        if let bias { inputs.append(bias) }
        let rule: (UnsafePointer<Float>) -> Void = { g in
            let gx = x.requiresGrad ? x.gradientTarget() : nil
            let gw = weight.requiresGrad ? weight.gradientTarget() : nil
            if let bias, bias.requiresGrad {
                sumRows(g, rows: geo.batch * geo.outHeight * geo.outWidth, columns: geo.outChannels,
                        into: bias.ensureGrad().pointer)
            }
            if onlyIm2col {
                gemmConvBackward(geo, x: x.storage.pointer, w: weight.storage.pointer, gy: g, gx: gx, gw: gw)
            } else if !winograd.isNone {
                // Each gradient by Winograd where chosen; the rest by im2col + GEMM.
                if winograd.backwardData, let gx { winogradBackwardData(geo, tile: winograd.tile, w: weight.storage.pointer, gy: g, gx: gx) }
                if winograd.backwardWeight, let gw { winogradBackwardWeight(geo, tile: winograd.tile, x: x.storage.pointer, gy: g, gw: gw) }
                let (gemmX, gemmW) = (winograd.backwardData ? nil : gx, winograd.backwardWeight ? nil : gw)
                if gemmX != nil || gemmW != nil {
                    gemmConvBackward(geo, x: x.storage.pointer, w: weight.storage.pointer, gy: g, gx: gemmX, gw: gemmW)
                }
            } else if geo.usesDepthwise3x3Kernel {
                depthwise3x3Backward(geo, x: x.storage.pointer, w: weight.storage.pointer, gy: g, gx: gx, gw: gw)
            } else if geo.isDepthwise {
                depthwiseBackward(geo, x: x.storage.pointer, w: weight.storage.pointer, gy: g, gx: gx, gw: gw)
            } else if geo.usesFewChannelKernel {
                if let gw { fewChannelBackwardWeight(geo, x: x.storage.pointer, gy: g, gw: gw) }
                if let gx { gemmConvBackward(geo, x: x.storage.pointer, w: weight.storage.pointer, gy: g, gx: gx, gw: nil) }
            } else {
                gemmConvBackward(geo, x: x.storage.pointer, w: weight.storage.pointer, gy: g, gx: gx, gw: gw)
            }
        }
        // Where both gradients are wanted, a deferred output gradient is made a block of rows at a time
        // inside the two products; otherwise it is written whole for the rule.
        let backwardOfDeferred: ((DeferredGradient) -> Void)? = geo.takesDeferredOutputGradient && bias == nil ? { deferred in
            if x.requiresGrad && weight.requiresGrad {
                Autodiff.testingDeferredMade.add(1, ordering: .relaxed)
                pointwiseBothGradients(geo, x: x.storage.pointer, w: weight.storage.pointer, gy: .deferred(deferred),
                                       gx: x.gradientTarget(), gw: weight.gradientTarget())
            } else {
                let g = deferred.written()
                withExtendedLifetime(g) { rule(UnsafePointer(g.pointer)) }
            }
        } : nil
        let output = Tensor.result(shape: outShape, storage: out, inputs: inputs, backwardOfDeferred: backwardOfDeferred, backward: rule)
        return (output, moments)
    }
}

extension Tensor {
    /// Inference only (nothing recorded): the convolution of `conv2d` with its bias added and
    /// the output clamped to [lower, upper] as it is written (a folded conv + batch norm +
    /// activation runs as this one op). `InferenceConvolution` also prepares the weights once.
    public func convolvedForInference(weight: Tensor, bias: Tensor?, stride: Int = 1, padding: Int = 0, groups: Int = 1,
                                      clampedTo range: ClosedRange<Float>? = nil) -> Tensor {
        InferenceConvolution(weight: weight, bias: bias, stride: stride, padding: padding, groups: groups, clampedTo: range)(self)
    }
}

/// The forward pass of every convolution, training or inference: picks the kernel for the
/// shape and writes `out` through `stage`. `winogradWeights`: the weights already transformed
/// (`InferenceConvolution`), else Winograd transforms them per call.
func convolveForward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, stage: OutputStage, out: UnsafeMutablePointer<Float>,
    algorithm: ConvolutionAlgorithm = .automatic, winogradWeights: PreparedWinogradWeights? = nil
) {
    let winograd = geo.winogradPasses(algorithm)
    if winograd.forward {
        winogradForward(geo, tile: winograd.tile, x: x, w: w, prepared: winogradWeights, stage: stage, out: out)
    } else if algorithm == .im2col {
        gemmConvForward(geo, x: x, w: w, stage: stage, out: out)
    } else if geo.usesDepthwise3x3Kernel {
        depthwise3x3Forward(geo, x: x, w: w, stage: stage, out: out)
    } else if geo.isDepthwise {
        depthwiseForward(geo, x: x, w: w, stage: stage, out: out)
    } else if geo.usesFewChannelKernel {
        fewChannelForward(geo, x: x, w: w, stage: stage, out: out)
    } else {
        gemmConvForward(geo, x: x, w: w, stage: stage, out: out)
    }
}

/// What a convolution's output passes through as it is written: its bias, then a clamp (an
/// activation fused in, e.g. ReLU6 after a folded batch norm). Direct kernels apply it in
/// registers; GEMM paths apply it to each block of rows right after the block's GEMM, while
/// the block is still in cache, instead of filling the output with the bias first.
struct OutputStage {
    let bias: UnsafePointer<Float>?
    let lower, upper: Float
    /// Where finished rows' per-channel moments go (a batch norm after the conv), if anywhere.
    let moments: ChannelMoments?

    init(bias: UnsafePointer<Float>?, clamp: ClosedRange<Float>? = nil, moments: ChannelMoments? = nil) {
        self.bias = bias
        (lower, upper) = (clamp?.lowerBound ?? -.infinity, clamp?.upperBound ?? .infinity)
        self.moments = moments
    }

    /// Tells the stage that rows `rows` of the output at `out` (its first row) are final: their
    /// moments are gathered now, while they are in cache.
    @inline(__always) func rowsFinished(_ out: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        moments?.gather(out, rows: rows)
    }

    /// No bias, no clamp.
    static var none: OutputStage { OutputStage(bias: nil) }

    var clamps: Bool { lower > -.infinity || upper < .infinity }
    var isIdentity: Bool { bias == nil && !clamps }

    /// `v` clamped lane by lane (the standard library's generic `pointwiseMin`/`pointwiseMax`
    /// are not inlined here and cost a call per vector; this loop compiles to two instructions).
    @inline(__always) func clamp(_ v: SIMD8<Float>) -> SIMD8<Float> {
        guard clamps else { return v }
        var r = v
        for i in 0..<8 { r[i] = Swift.min(Swift.max(r[i], lower), upper) }
        return r
    }

    @inline(__always) func clamp(_ v: SIMD16<Float>) -> SIMD16<Float> {
        clamps ? VectorMath.clamped(v, lower, upper) : v
    }

    /// Adds the bias to rows `rows` of the (rows x c) matrix at `out` (row stride `ldc`) and clamps them, in place.
    func apply(to out: UnsafeMutablePointer<Float>, rows: Range<Int>, channels c: Int, ldc: Int) {
        guard !isIdentity else { return }
        let zero = [Float](repeating: 0, count: c)
        zero.withUnsafeBufferPointer { z in
            let b = bias ?? z.baseAddress!
            let (lo, hi) = (lower, upper)
            for row in rows {
                let o = out + row * ldc
                for j in 0..<c { o[j] = Swift.min(Swift.max(o[j] + b[j], lo), hi) }
            }
        }
    }
}

// MARK: - im2col + GEMM

/// Images per im2col chunk, so that one chunk's buffer stays within budget.
private func imagesPerChunk(_ geo: ConvGeometry) -> Int {
    max(1, min(geo.batch, im2colBudget / max(1, geo.outHeight * geo.outWidth * geo.patch)))
}

private func gemmConvForward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    let rows = geo.batch * geo.outHeight * geo.outWidth
    let cout = geo.outChannels
    if geo.isPlainGEMM {
        let finish: ((Range<Int>) -> Void)? = stage.isIdentity && stage.moments == nil ? nil : {
            stage.apply(to: out, rows: $0, channels: cout, ldc: cout)
            stage.rowsFinished(out, rows: $0)
        }
        if panelGEMMApplies(n: cout, k: geo.inChannels) {
            panelGEMM(m: rows, n: cout, k: geo.inChannels, a: x, lda: geo.inChannels, b: w, accumulate: false, c: out, ldc: cout, rowsDone: finish)
        } else {
            sgemm(m: rows, n: cout, k: geo.inChannels, a: x, lda: geo.inChannels, b: w, ldb: cout, beta: 0, c: out, ldc: cout, rowsDone: finish)
        }
        return
    }
    if geo.groups == 1 {
        // Blocks of output lines, each gathered, multiplied and finished on one core: at batch 1 the
        // maps are small, and a gather on one core feeding a GEMM on the other costs more than it saves.
        let lines = geo.batch * geo.outHeight
        let perBlock = linesPerBlock(geo)
        Parallel.forEachBlock(count: lines, blockSize: perBlock) { _, r in
            let rows = r.count * geo.outWidth
            let col = Storage(count: rows * geo.patch)
            im2colLines(geo, x: x, lines: r, group: 0, col: col.pointer)
            let c = out + r.lowerBound * geo.outWidth * cout
            rawSGEMM(false, false, rows, cout, geo.patch, 1, col.pointer, geo.patch, w, cout, 0, c, cout)
            stage.apply(to: c, rows: 0..<rows, channels: cout, ldc: cout)
            stage.rowsFinished(out, rows: (r.lowerBound * geo.outWidth)..<(r.upperBound * geo.outWidth))
        }
        return
    }
    forEachChunk(geo) { n0, images, rows, col in
        let first = out + n0 * geo.outHeight * geo.outWidth * cout
        for g in 0..<geo.groups {
            im2col(geo, x: x, firstImage: n0, images: images, group: g, col: col)
            sgemm(m: rows, n: geo.outPerGroup, k: geo.patch, a: col, lda: geo.patch,
                  b: w + g * geo.outPerGroup, ldb: cout, beta: 0, c: first + g * geo.outPerGroup, ldc: cout)
        }
        if !stage.isIdentity {
            Parallel.forEachBlock(count: rows, blockSize: 256) { _, r in stage.apply(to: first, rows: r, channels: cout, ldc: cout) }
        }
    }
}

/// Output lines per block of the im2col forward: about 256 output pixels (a GEMM big enough for
/// OpenBLAS to reach speed), but at least two blocks where there are two lines. A function of the
/// shape alone, so results never depend on the thread count.
private func linesPerBlock(_ geo: ConvGeometry) -> Int {
    let lines = geo.batch * geo.outHeight
    let target = max(1, (256 + geo.outWidth - 1) / geo.outWidth)
    return lines >= 2 * target ? target : max(1, (lines + 1) / 2)
}

/// Runs `body(firstImage, images, rows, col)` over chunks of whole images, with an
/// im2col buffer sized for one chunk (`rows` = output pixels in the chunk).
private func forEachChunk(_ geo: ConvGeometry, _ body: (Int, Int, Int, UnsafeMutablePointer<Float>) -> Void) {
    let chunk = imagesPerChunk(geo)
    let rowsPerImage = geo.outHeight * geo.outWidth
    let col = Storage(count: chunk * rowsPerImage * geo.patch)
    for n0 in stride(from: 0, to: geo.batch, by: chunk) {
        let images = min(chunk, geo.batch - n0)
        body(n0, images, images * rowsPerImage, col.pointer)
    }
}

private func gemmConvBackward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, gy: UnsafePointer<Float>,
    gx: GradientTarget?, gw: GradientTarget?
) {
    let cout = geo.outChannels
    if geo.isPlainGEMM {
        let rows = geo.batch * geo.height * geo.width
        let cin = geo.inChannels
        if let gw, let gx, geo.takesDeferredOutputGradient {
            pointwiseBothGradients(geo, x: x, w: w, gy: .memory(gy), gx: gx, gw: gw)
            return
        }
        let (panelW, panelX) = (panelGEMMApplies(n: cout, k: cin), panelGEMMApplies(n: cin, k: cout))
        if let gw, panelW {
            panelGEMMTransposedA(rows: rows, m: cin, n: cout, a: x, b: gy, accumulate: gw.accumulate, c: gw.pointer)
        } else if let gw {
            sgemm(transposeA: true, m: cin, n: cout, k: rows, a: x, lda: cin, b: gy, ldb: cout,
                  beta: gw.accumulate ? 1 : 0, c: gw.pointer, ldc: cout)
        }
        if let gx, panelX {
            // dX = dY W^T, with W^T (cout x cin, a few KB) made once.
            let wT = channelsSwapped(w, taps: 1, inChannels: cin, outChannels: cout)
            panelGEMM(m: rows, n: cin, k: cout, a: gy, lda: cout, b: wT.pointer, accumulate: gx.accumulate, c: gx.pointer, ldc: cin,
                      rowsDone: gx.rowsDone)
        } else if let gx {
            sgemm(transposeB: true, m: rows, n: cin, k: cout, a: gy, lda: cout, b: w, ldb: cout,
                  beta: gx.accumulate ? 1 : 0, c: gx.pointer, ldc: cin, rowsDone: gx.rowsDone)
        }
        return
    }
    forEachChunk(geo) { n0, images, rows, col in
        let gyChunk = gy + n0 * geo.outHeight * geo.outWidth * cout
        for g in 0..<geo.groups {
            let gyGroup = gyChunk + g * geo.outPerGroup
            if let gw {
                im2col(geo, x: x, firstImage: n0, images: images, group: g, col: col)
                // The first chunk overwrites a fresh buffer; later chunks add to it.
                let beta: Float = gw.accumulate || n0 > 0 ? 1 : 0
                sgemm(transposeA: true, m: geo.patch, n: geo.outPerGroup, k: rows, a: col, lda: geo.patch,
                      b: gyGroup, ldb: cout, beta: beta, c: gw.pointer + g * geo.outPerGroup, ldc: cout)
            }
            if let gx {
                // The column gradient reuses the im2col buffer: dW is already done with it.
                sgemm(transposeB: true, m: rows, n: geo.patch, k: geo.outPerGroup, a: gyGroup, lda: cout,
                      b: w + g * geo.outPerGroup, ldb: cout, beta: 0, c: col, ldc: geo.patch)
                col2im(geo, col: col, firstImage: n0, images: images, group: g, gx: gx)
            }
        }
    }
}

extension ConvGeometry {
    /// A 1x1 conv whose two gradients are both panel products, made together (`panelGEMMBothGradients`): it
    /// can make a deferred output gradient (batch norm's input gradient) itself, a block of rows at a time.
    var takesDeferredOutputGradient: Bool {
        isPlainGEMM && panelGEMMApplies(n: outChannels, k: inChannels) && panelGEMMApplies(n: inChannels, k: outChannels)
    }
}

/// Both gradients of a 1x1 conv whose products are panel products, dY from `gy`.
private func pointwiseBothGradients(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, gy: ProductRows, gx: GradientTarget, gw: GradientTarget
) {
    let (cin, cout) = (geo.inChannels, geo.outChannels)
    // W^T (cout x cin, a few KB), made once.
    let wT = channelsSwapped(w, taps: 1, inChannels: cin, outChannels: cout)
    withExtendedLifetime(wT) {
        panelGEMMBothGradients(rows: geo.batch * geo.height * geo.width, cin: cin, cout: cout, x: x, gy: gy, wT: wT.pointer, gw: gw, gx: gx)
    }
}

/// Writes the receptive fields of `images` images (one group's channels) as rows of `col`.
///
/// Row (n, oy, ox) holds x[n, oy*s - p + ky, ox*s - p + kx, group channels] for
/// ky, kx in order: the layout of an HWIO weight slice, so col x W is the conv.
private func im2col(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, firstImage: Int, images: Int, group: Int,
    col: UnsafeMutablePointer<Float>
) {
    let ho = geo.outHeight
    Parallel.forEachBlock(count: images * ho, blockSize: 4) { _, r in
        let lines = (firstImage * ho + r.lowerBound)..<(firstImage * ho + r.upperBound)
        im2colLines(geo, x: x, lines: lines, group: group, col: col + r.lowerBound * geo.outWidth * geo.patch)
    }
}

/// The im2col rows of output lines `lines` (numbered image * outHeight + row), on this thread, into `col`.
private func im2colLines(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, lines: Range<Int>, group: Int, col: UnsafeMutablePointer<Float>
) {
    let (h, w, c) = (geo.height, geo.width, geo.inChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo, cg, patch) = (geo.outHeight, geo.outWidth, geo.inPerGroup, geo.patch)
    let cOffset = group * cg
    do {
        for line in lines {
            let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
            for ox in 0..<wo {
                var dst = col + ((line - lines.lowerBound) * wo + ox) * patch
                for ky in 0..<kh {
                    let iy = oy * s - p + ky
                    if iy < 0 || iy >= h {
                        dst.update(repeating: 0, count: kw * cg)
                        dst += kw * cg
                        continue
                    }
                    let src = x + ((n * h + iy) * w) * c + cOffset
                    for kx in 0..<kw {
                        let ix = ox * s - p + kx
                        if ix < 0 || ix >= w {
                            dst.update(repeating: 0, count: cg)
                        } else if cg <= 8 {
                            // A library call per 3-channel pixel (the stem) costs more than the copy.
                            let from = src + ix * c
                            for j in 0..<cg { dst[j] = from[j] }
                        } else {
                            dst.update(from: src + ix * c, count: cg)
                        }
                        dst += cg
                    }
                }
            }
        }
    }
}

/// Adds column gradients back onto the input pixels they were copied from.
///
/// Written as a gather over input rows, so that blocks never write the same
/// pixel; a fresh gradient buffer is zeroed row by row just before use.
private func col2im(
    _ geo: ConvGeometry, col: UnsafePointer<Float>, firstImage: Int, images: Int, group: Int, gx: GradientTarget
) {
    let (h, w, c) = (geo.height, geo.width, geo.inChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo, cg, patch) = (geo.outHeight, geo.outWidth, geo.inPerGroup, geo.patch)
    let cOffset = group * cg
    Parallel.forEachBlock(count: images * h, blockSize: 4) { _, r in
        for line in r {
            let (nl, iy) = line.quotientAndRemainder(dividingBy: h)
            let n = firstImage + nl
            let dstRow = gx.pointer + ((n * h + iy) * w) * c + cOffset
            if !gx.accumulate {
                for ix in 0..<w { (dstRow + ix * c).update(repeating: 0, count: cg) }
            }
            for ky in 0..<kh {
                let ty = iy + p - ky
                guard ty >= 0, ty % s == 0, ty / s < ho else { continue }
                let oy = ty / s
                for kx in 0..<kw {
                    let (oxLo, oxHi) = validOutputRange(kernelOffset: kx, stride: s, padding: p, inputExtent: w, outputExtent: wo)
                    guard oxLo < oxHi else { continue }
                    let srcBase = col + ((nl * ho + oy) * wo) * patch + (ky * kw + kx) * cg
                    for ox in oxLo..<oxHi {
                        let src = srcBase + ox * patch
                        let dst = dstRow + (ox * s - p + kx) * c
                        for j in 0..<cg { dst[j] += src[j] }
                    }
                }
            }
        }
    }
}

/// Output positions `lo..<hi` whose tap `kernelOffset` reads a real (unpadded) input position.
@inline(__always)
private func validOutputRange(kernelOffset k: Int, stride s: Int, padding p: Int, inputExtent n: Int, outputExtent o: Int) -> (Int, Int) {
    // Need 0 <= o*s - p + k <= n - 1.
    let lo = max(0, (p - k + s - 1) / s)
    let hiInclusive = (n - 1 + p - k)
    let hi = hiInclusive < 0 ? 0 : min(o, hiInclusive / s + 1)
    return (lo, hi)
}

// MARK: - Depthwise

/// A gradient buffer and whether it already holds values (see `Tensor.gradientTarget()`).
struct GradientTarget {
    let pointer: UnsafeMutablePointer<Float>
    let accumulate: Bool
    /// The sums a batch norm's backward pass needs over this gradient, when the tensor is a batch
    /// norm's output and this is the buffer's first writer.
    let sums: BatchNormGradientSums?

    /// Tells the target that rows `rows` of the gradient (a row: the last axis) are final: batch
    /// norm's sums over them are gathered now, while they are in cache.
    @inline(__always) func rowsFinished(_ rows: Range<Int>) { sums?.gather(pointer, rows: rows) }

    /// `rowsFinished` as a GEMM's `rowsDone`, or nil when nothing gathers.
    var rowsDone: ((Range<Int>) -> Void)? { sums == nil ? nil : { rowsFinished($0) } }
}

/// Output rows per block of the depthwise kernels.
private let depthwiseRowsPerBlock = 4
/// Output rows per block of the depthwise weight gradient (each block keeps partial sums).
private let depthwiseWeightRowsPerBlock = 16

/// Output columns per chunk of the stride-1 depthwise loops: about 1 KiB of floats.
@inline(__always)
private func depthwiseChunkColumns(channels c: Int) -> Int { max(1, 256 / c) }

/// The weight of each tap repeated along a whole output row: `taps x (Wo * C)`.
///
/// With stride 1, a tap multiplies a contiguous run of input pixels by its
/// weight vector at every output column; against this tile that is one long
/// flat loop instead of Wo short loops of C, which pays for small C.
private func tiledWeights(_ w: UnsafePointer<Float>, taps: Int, channels c: Int, columns wo: Int) -> Storage {
    let tile = Storage(count: taps * wo * c)
    for t in 0..<taps {
        for ox in 0..<wo { (tile.pointer + (t * wo + ox) * c).update(from: w + t * c, count: c) }
    }
    return tile
}

private func depthwiseForward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, stage: OutputStage, out: UnsafeMutablePointer<Float>
) {
    let (h, wid, c) = (geo.height, geo.width, geo.inChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    let tile = s == 1 ? tiledWeights(w, taps: kh * kw, channels: c, columns: wo) : nil
    let chunk = depthwiseChunkColumns(channels: c)
    Parallel.forEachBlock(count: geo.batch * ho, blockSize: depthwiseRowsPerBlock) { _, r in
        for line in r {
            let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
            let o = out + line * wo * c
            o.update(repeating: 0, count: wo * c)
            defer { stage.apply(to: o, rows: 0..<wo, channels: c, ldc: c) }
            if let tile {
                // Column chunks keep the output, the taps' weights and the input rows in L1.
                for c0 in stride(from: 0, to: wo, by: chunk) {
                    let c1 = min(wo, c0 + chunk)
                    for ky in 0..<kh {
                        let iy = oy - p + ky
                        guard iy >= 0, iy < h else { continue }
                        let xRow = x + (n * h + iy) * wid * c
                        for kx in 0..<kw {
                            let (lo, hi) = validOutputRange(kernelOffset: kx, stride: 1, padding: p, inputExtent: wid, outputExtent: wo)
                            let (a, b) = (max(lo, c0), min(hi, c1))
                            guard a < b else { continue }
                            let xs = xRow + (a - p + kx) * c, os = o + a * c
                            let wt = tile.pointer + ((ky * kw + kx) * wo + a) * c
                            for i in 0..<((b - a) * c) { os[i] += xs[i] * wt[i] }
                        }
                    }
                }
                continue
            }
            for ky in 0..<kh {
                let iy = oy * s - p + ky
                guard iy >= 0, iy < h else { continue }
                let xRow = x + (n * h + iy) * wid * c
                for kx in 0..<kw {
                    let (lo, hi) = validOutputRange(kernelOffset: kx, stride: s, padding: p, inputExtent: wid, outputExtent: wo)
                    let wv = w + (ky * kw + kx) * c
                    for ox in lo..<max(lo, hi) {
                        let xi = xRow + (ox * s - p + kx) * c
                        let oo = o + ox * c
                        for j in 0..<c { oo[j] += xi[j] * wv[j] }
                    }
                }
            }
        }
        stage.rowsFinished(out, rows: (r.lowerBound * wo)..<(r.upperBound * wo))
    }
}

private func depthwiseBackward(
    _ geo: ConvGeometry, x: UnsafePointer<Float>, w: UnsafePointer<Float>, gy: UnsafePointer<Float>,
    gx: GradientTarget?, gw: GradientTarget?
) {
    let (h, wid, c) = (geo.height, geo.width, geo.inChannels)
    let (kh, kw, s, p) = (geo.kernelHeight, geo.kernelWidth, geo.stride, geo.padding)
    let (ho, wo) = (geo.outHeight, geo.outWidth)
    let taps = kh * kw
    if let gx {
        let tile = s == 1 ? tiledWeights(w, taps: taps, channels: c, columns: wo) : nil
        let chunk = depthwiseChunkColumns(channels: c)
        // Each block owns whole input rows: no two blocks write the same pixel.
        Parallel.forEachBlock(count: geo.batch * h, blockSize: depthwiseRowsPerBlock) { _, r in
            for line in r {
                let (n, iy) = line.quotientAndRemainder(dividingBy: h)
                let gxRow = gx.pointer + line * wid * c
                if !gx.accumulate { gxRow.update(repeating: 0, count: wid * c) }
                if let tile {
                    // Chunks of input columns; tap kx reads output column ix + p - kx.
                    for c0 in stride(from: 0, to: wid, by: chunk) {
                        let c1 = min(wid, c0 + chunk)
                        for ky in 0..<kh {
                            let oy = iy + p - ky
                            guard oy >= 0, oy < ho else { continue }
                            let gyRow = gy + (n * ho + oy) * wo * c
                            for kx in 0..<kw {
                                let (lo, hi) = validOutputRange(kernelOffset: kx, stride: 1, padding: p, inputExtent: wid, outputExtent: wo)
                                let (a, b) = (max(lo - p + kx, c0), min(hi - p + kx, c1))
                                guard a < b else { continue }
                                let ox = a + p - kx
                                let gi = gxRow + a * c, go = gyRow + ox * c
                                let wt = tile.pointer + ((ky * kw + kx) * wo + ox) * c
                                for i in 0..<((b - a) * c) { gi[i] += go[i] * wt[i] }
                            }
                        }
                    }
                    continue
                }
                for ky in 0..<kh {
                    let ty = iy + p - ky
                    guard ty >= 0, ty % s == 0, ty / s < ho else { continue }
                    let gyRow = gy + (n * ho + ty / s) * wo * c
                    for kx in 0..<kw {
                        let (lo, hi) = validOutputRange(kernelOffset: kx, stride: s, padding: p, inputExtent: wid, outputExtent: wo)
                        guard lo < hi else { continue }
                        do {
                            let wv = w + (ky * kw + kx) * c
                            for ox in lo..<hi {
                                let gi = gxRow + (ox * s - p + kx) * c
                                let go = gyRow + ox * c
                                for j in 0..<c { gi[j] += go[j] * wv[j] }
                            }
                        }
                    }
                }
            }
            gx.rowsFinished((r.lowerBound * wid)..<(r.upperBound * wid))
        }
    }
    if let gw {
        let lines = geo.batch * ho
        let blocks = Parallel.blockCount(count: lines, blockSize: depthwiseWeightRowsPerBlock)
        let partial = Storage(count: blocks * taps * c)
        Parallel.forEachBlock(count: lines, blockSize: depthwiseWeightRowsPerBlock) { b, r in
            let acc = partial.pointer + b * taps * c
            // Stride 1 accumulates per output column in a row-wide tile, then folds the columns.
            let width = s == 1 ? wo : 1
            let tile = Storage(count: taps * width * c)
            tile.pointer.update(repeating: 0, count: taps * width * c)
            // Stride 1: column chunks outermost, so a chunk's accumulators stay in L1 over the block's rows.
            let chunk = s == 1 ? depthwiseChunkColumns(channels: c) : wo
            for c0 in stride(from: 0, to: wo, by: chunk) {
                let c1 = min(wo, c0 + chunk)
                for line in r {
                    let (n, oy) = line.quotientAndRemainder(dividingBy: ho)
                    let gyRow = gy + line * wo * c
                    for ky in 0..<kh {
                        let iy = oy * s - p + ky
                        guard iy >= 0, iy < h else { continue }
                        let xRow = x + (n * h + iy) * wid * c
                        for kx in 0..<kw {
                            let (lo, hi) = validOutputRange(kernelOffset: kx, stride: s, padding: p, inputExtent: wid, outputExtent: wo)
                            let (a, b) = (max(lo, c0), min(hi, c1))
                            guard a < b else { continue }
                            let acc = tile.pointer + (ky * kw + kx) * width * c
                            if s == 1 {
                                let xs = xRow + (a - p + kx) * c, go = gyRow + a * c, at = acc + a * c
                                for i in 0..<((b - a) * c) { at[i] += go[i] * xs[i] }
                            } else {
                                for ox in a..<b {
                                    let xi = xRow + (ox * s - p + kx) * c
                                    let go = gyRow + ox * c
                                    for j in 0..<c { acc[j] += go[j] * xi[j] }
                                }
                            }
                        }
                    }
                }
            }
            acc.update(repeating: 0, count: taps * c)
            for t in 0..<taps {
                for col in 0..<width {
                    let src = tile.pointer + (t * width + col) * c, dst = acc + t * c
                    for j in 0..<c { dst[j] += src[j] }
                }
            }
        }
        // Fixed block order keeps the sum bit-identical run to run.
        let n = taps * c
        if !gw.accumulate { gw.pointer.update(repeating: 0, count: n) }
        for b in 0..<blocks {
            let acc = partial.pointer + b * n
            for j in 0..<n { gw.pointer[j] += acc[j] }
        }
    }
}

/// The HWIO kernel `w` with its in and out channels swapped, w'[tap][co][ci] = w[tap][ci][co]: the
/// backward data passes read the kernel this way round (a 1x1 conv's W^T; Winograd's turned kernel).
func channelsSwapped(_ w: UnsafePointer<Float>, taps: Int, inChannels cin: Int, outChannels cout: Int) -> Storage {
    let swapped = Storage(count: taps * cin * cout)
    for tap in 0..<taps {
        let (from, to) = (w + tap * cin * cout, swapped.pointer + tap * cin * cout)
        for ci in 0..<cin { for co in 0..<cout { to[co * cin + ci] = from[ci * cout + co] } }
    }
    return swapped
}
