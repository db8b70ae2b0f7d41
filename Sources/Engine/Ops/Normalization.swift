import StreamingStores

/// Whether batch norm normalises with the batch's statistics or the running ones.
public enum BatchNormMode: Sendable, Equatable {
    /// Batch statistics; running statistics move towards them by `momentum`.
    case training(momentum: Float)
    /// Running statistics; nothing is updated.
    case inference
}

/// Gathers per-channel batch statistics from every process of a data-parallel run, for
/// synchronised batch norm (the statistics of the global batch on every process).
public protocol BatchStatisticsReducer: Sendable {
    /// `values` of every process, in rank order; the same on every process. Called by every
    /// process at the same point of the same network, in the same order.
    func gather(_ values: [Double]) -> [[Double]]
}

/// Where training-mode batch norm gets its reducer: scoped, like the engine's other settings.
public enum BatchNormSync {
    @TaskLocal static var reducer: (any BatchStatisticsReducer)?

    /// Runs `body` with batch norm in training mode normalising by the statistics of every process's batch together.
    public static func synchronised<T>(by reducer: any BatchStatisticsReducer, _ body: () throws -> T) rethrows -> T {
        try $reducer.withValue(reducer, operation: body)
    }
}

/// Whether batch norm works inside the convolutions beside it (the default): they gather its statistics
/// and gradient sums as they write, and a 1x1 conv before it makes its input gradient
/// (`DeferredGradient`). Otherwise batch norm does all of it in passes of its own. The results are the
/// same either way; scoped like the engine's other settings (benchmarks compare the two).
public enum BatchNormFusion {
    @TaskLocal static var enabled = true
    /// Smallest gradient (bytes) whose writer gathers batch norm's backward sums. Below it the gradient
    /// is still in the last-level cache when batch norm's own pass reads it, and on the Zen 4 that
    /// pass was faster than gathering (bench engine, 4 and 2 MB layers: backward at 0.12-0.18 of
    /// memcpy on its own, 0.07-0.12 gathered; 16 and 33 MB layers: 0.19-0.39 on its own, 0.20-0.44 gathered).
    @TaskLocal static var minimumGatheredGradientBytes = 8 << 20

    /// True unless inside `withoutFusion`.
    public static var isEnabled: Bool { enabled }

    /// Runs `body` (forward and backward) with batch norm finding its sums in its own passes.
    public static func withoutFusion<T>(_ body: () throws -> T) rethrows -> T {
        try $enabled.withValue(false, operation: body)
    }
}

/// Per-channel loops over a (rows x c) matrix, run flat over tiles of whole rows.
///
/// With few channels a loop per row is mostly loop overhead; a tile of
/// `rowsPerTile` rows is one flat run of `tile` floats, and per-channel
/// coefficients are repeated to that length once, so every loop is long and
/// vectorises.
private struct ChannelTiling {
    let channels: Int
    let rowsPerTile: Int
    var tile: Int { rowsPerTile * channels }

    init(channels c: Int) {
        channels = c
        rowsPerTile = max(1, 512 / max(1, c))
    }

    /// `values` (one per channel) repeated over a tile.
    func repeated(_ values: [Float]) -> [Float] {
        var out = [Float](repeating: 0, count: tile)
        for r in 0..<rowsPerTile { for j in 0..<channels { out[r * channels + j] = values[j] } }
        return out
    }
}

/// Calls `body(start, count)` on runs of whole rows of at most one tile, in parallel; with `streaming`,
/// each block ends with the fence that publishes its streaming stores.
private func forEachTile(rows: Int, tiling: ChannelTiling, streaming: Bool, _ body: (_ start: Int, _ count: Int) -> Void) {
    let tiles = (rows + tiling.rowsPerTile - 1) / tiling.rowsPerTile
    Parallel.forEachBlock(count: tiles, blockSize: Parallel.blockSize(count: tiles, minimum: 8)) { _, r in
        for t in r {
            let first = t * tiling.rowsPerTile
            let n = min(tiling.rowsPerTile, rows - first)
            body(first * tiling.channels, n * tiling.channels)
        }
        if streaming { uidetect_stream_fence() }
    }
}

/// When batch norm's passes write their output with streaming stores (`StreamingStores`); scoped
/// like the engine's other settings (tests stream small tensors).
enum StreamingPolicy {
    /// Smallest tensor (bytes) written streaming: larger than what the last-level cache keeps
    /// between one layer's pass and the next. y = a x + b on the Zen 4, 2 threads: streaming 1.6x
    /// faster on 32 MB, 1.3x on 16 MB, 0.7x on 8 MB; in the bench network's batch norm with 8 MB,
    /// the 8 MB layer's forward went 44 -> 33 GB/s.
    @TaskLocal static var minimumBytes = 16 << 20

    /// Whether a pass writing `count` floats streams them.
    static func streams(_ count: Int) -> Bool { count * MemoryLayout<Float>.stride >= minimumBytes }
}

/// out[i] = vector(i) for the whole runs of 16 of 0..<n, with streaming stores when `streaming` and `out`
/// is 64-byte aligned (those stores need it), with plain ones when `inPlace`: how many floats it wrote
/// (none otherwise), the caller's plain loop writing the rest. In place, `out` is also a source: the
/// compiler's vectorised plain loop checks its pointers for overlap and would run lane by lane.
@inline(__always)
private func vectorPrefix(_ n: Int, to out: UnsafeMutablePointer<Float>, streaming: Bool, inPlace: Bool = false,
                          _ vector: (Int) -> SIMD16<Float>) -> Int {
    var i = 0
    if streaming, Int(bitPattern: out) & 63 == 0 {
        while i + 16 <= n { uidetect_stream16(out + i, vector(i)); i += 16 }
    } else if inPlace {
        while i + 16 <= n { vector(i).store(to: out + i); i += 16 }
    }
    return i
}

extension Tensor {
    /// Batch normalisation over every axis but the last (channels), as in NHWC.
    ///
    /// y = (x - mean) / sqrt(var + eps) * scale + shift. In `.training` mode mean
    /// and var are the batch's (biased variance), and the running statistics
    /// are updated in place with the unbiased variance, as PyTorch does.
    /// With `clampedTo` the output is clamped in the same pass (batch norm + ReLU6 as one op);
    /// the gradient then passes where the output lies strictly inside the range, exactly as
    /// a separate `clamped` would pass it, recomputed from the input instead of stored.
    /// `moments`: this tensor's per-channel moments, gathered by the conv that wrote it
    /// (`conv2dGatheringMoments`); in training mode batch norm then skips its own pass to find
    /// them, with the same result.
    public func batchNorm(
        scale: Tensor, shift: Tensor, runningMean: Tensor, runningVariance: Tensor,
        epsilon: Float = 1e-3, mode: BatchNormMode, clampedTo range: ClosedRange<Float>? = nil, moments: ChannelMoments? = nil
    ) -> Tensor {
        let c = shape.last ?? 1
        precondition(scale.shape == [c] && shift.shape == [c] && runningMean.shape == [c] && runningVariance.shape == [c],
                     "batchNorm: parameters must have shape [\(c)]")
        let rows = count / max(1, c)
        let tiling = ChannelTiling(channels: c)
        let x = storage.pointer
        let out = makeStorage()
        var mean = [Float](repeating: 0, count: c), invStd = [Float](repeating: 0, count: c)
        let gamma = scale.scalars, beta = shift.scalars
        let reducer: (any BatchStatisticsReducer)? = { if case .training = mode { return BatchNormSync.reducer } else { return nil } }()
        // Rows of the whole (global) batch the statistics are over.
        var batchRows = rows
        switch mode {
        case .training(let momentum):
            precondition(rows > 1, "batchNorm in training mode needs more than one value per channel")
            if let moments { precondition(moments.shape == shape, "batchNorm: moments of a \(moments.shape) tensor for \(shape)") }
            // Per channel: the mean and the sum of squared deviations (M2) of this batch.
            var (_, means, m2) = (moments ?? ChannelMoments(shape: shape)).finish(x)
            var m = Double(rows)
            if let reducer {
                // Combined over the processes in rank order (Chan et al.'s parallel variance): the same on every process.
                let parts = reducer.gather([m] + means + m2)
                let total = parts.reduce(0) { $0 + $1[0] }
                let globalMeans = (0..<c).map { j in parts.reduce(0) { $0 + $1[0] * $1[1 + j] } / total }
                m2 = (0..<c).map { j in parts.reduce(0) { $0 + $1[1 + c + j] + $1[0] * ($1[1 + j] - globalMeans[j]) * ($1[1 + j] - globalMeans[j]) } }
                means = globalMeans
                m = total
                batchRows = Int(total)
            }
            let rm = runningMean.storage.pointer, rv = runningVariance.storage.pointer
            for j in 0..<c {
                let variance = m2[j] / m
                mean[j] = Float(means[j])
                invStd[j] = Float(1 / (variance + Double(epsilon)).squareRoot())
                rm[j] = (1 - momentum) * rm[j] + momentum * mean[j]
                rv[j] = (1 - momentum) * rv[j] + momentum * Float(variance * m / (m - 1))
            }
        case .inference:
            for j in 0..<c {
                mean[j] = runningMean.storage.pointer[j]
                invStd[j] = 1 / (runningVariance.storage.pointer[j] + epsilon).squareRoot()
            }
        }
        // y = x * a + b per channel (clamped to [lo, hi] when fused with the activation).
        let a = (0..<c).map { gamma[$0] * invStd[$0] }
        let b = (0..<c).map { beta[$0] - mean[$0] * a[$0] }
        let (lo, hi) = (range?.lowerBound ?? -Float.infinity, range?.upperBound ?? Float.infinity)
        let streams = StreamingPolicy.streams(count)
        withPointers(tiling.repeated(a), tiling.repeated(b)) { pa, pb in
            forEachTile(rows: rows, tiling: tiling, streaming: streams) { start, n in
                let xs = x + start, ys = out.pointer + start
                // The same operations in the same order as the plain loops below: the same bits.
                let done = vectorPrefix(n, to: ys, streaming: streams) { i in
                    let z = SIMD16(loading: xs + i) * SIMD16(loading: pa + i) + SIMD16(loading: pb + i)
                    return range == nil ? z : VectorMath.clamped(z, lo, hi)
                }
                if range == nil {
                    for i in done..<n { ys[i] = xs[i] * pa[i] + pb[i] }
                } else {
                    for i in done..<n { ys[i] = Swift.min(Swift.max(xs[i] * pa[i] + pb[i], lo), hi) }
                }
            }
        }

        let input = self
        let clamped = range != nil
        let (tileA, tileB) = (tiling.repeated(a), tiling.repeated(b))
        // With the clamp, the gradient g passes where the output is strictly inside [lo, hi]:
        // where x * a + b is, recomputed exactly as the forward pass computed it (cheaper
        // than reading the output, a third stream beside x and g in a memory-bound pass).
        // Per channel: sum of g and of g * xhat, xhat = (x - mean) * invStd, gathered by the
        // gradient's writer where it can (the conv after this batch norm), the rest here.
        // Made only where a backward pass can follow: the sums keep the input alive.
        let records = Autodiff.isRecording && (requiresGrad || scale.requiresGrad || shift.requiresGrad)
        let sums = records ? BatchNormGradientSums(input: self, a: a, b: b, mean: mean, invStd: invStd, clamp: range) : nil
        let output = Tensor.result(shape: shape, storage: out, inputs: [self, scale, shift], reusingGradient: { g, spare in
            let (sg, sgx) = sums!.finish(g)
            if scale.requiresGrad {
                let p = scale.ensureGrad().pointer
                for j in 0..<c { p[j] += Float(sgx[j]) }
            }
            if shift.requiresGrad {
                let p = shift.ensureGrad().pointer
                for j in 0..<c { p[j] += Float(sg[j]) }
            }
            guard input.requiresGrad else { return }
            // dx = a * (g - k1 - xhat * k2), with k1 = mean(g), k2 = mean(g * xhat) in training
            // (over the global batch when synchronised) and 0 in inference; as A g + B x + C per channel.
            var (tg, tgx) = (sg, sgx)
            if let reducer {
                let parts = reducer.gather(sg + sgx)
                tg = (0..<c).map { j in parts.reduce(0) { $0 + $1[j] } }
                tgx = (0..<c).map { j in parts.reduce(0) { $0 + $1[c + j] } }
            }
            // A is batch norm's own a (x * a + b), so the pass reads one coefficient tile for both.
            var cb = [Float](repeating: 0, count: c), cc = cb
            for j in 0..<c {
                var (k1, k2) = (Float(0), Float(0))
                if case .training = mode { k1 = Float(tg[j] / Double(batchRows)); k2 = Float(tgx[j] / Double(batchRows)) }
                cb[j] = -a[j] * invStd[j] * k2
                cc[j] = a[j] * (invStd[j] * k2 * mean[j] - k1)
            }
            // Left to the 1x1 conv before batch norm where it makes its gradients a block of rows at a
            // time: each block of x's gradient is then made in cache and never written to memory.
            if BatchNormFusion.isEnabled, let spare, spare.count == input.count, !input.hasGradient, input.node?.backwardOfDeferred != nil {
                let rule = InputGradientRule(tiling: tiling, a: a, b: b, cb: cb, cc: cc, clamp: clamped ? (lo, hi) : nil)
                let (xs, gs) = (input.storage, spare)
                input.deferGradient(DeferredGradient(rows: rows, rowLength: c, buffer: spare) { range, destination in
                    rule.write(rows: range, x: xs.pointer, g: gs.pointer, to: destination)
                })
                return
            }
            // x's gradient written over g's buffer where nothing else holds it: no fresh buffer to
            // bring into cache (this pass alone on 8 MB, 2 Zen 3 cores: 1.2x faster).
            input.withGradientTarget(reusing: spare) { gx, add in
                // A gradient added to is read first, and one written in place was: streaming would save nothing.
                let inPlace = UnsafePointer(gx) == g
                let streams = !add && !inPlace && StreamingPolicy.streams(rows * c)
                withPointers(tileA, tileB, tiling.repeated(cb), tiling.repeated(cc)) { pa, fb, pb, pc in
                    forEachTile(rows: rows, tiling: tiling, streaming: streams) { start, n in
                        let xs = x + start, gs = g + start, ds = gx + start
                        @inline(__always) func passed(_ i: Int) -> Float {
                            let z = xs[i] * pa[i] + fb[i]
                            return z > lo && z < hi ? gs[i] : 0
                        }
                        let done = vectorPrefix(n, to: ds, streaming: streams, inPlace: inPlace) { i in
                            let (xv, av, gv) = (SIMD16(loading: xs + i), SIMD16(loading: pa + i), SIMD16(loading: gs + i))
                            let kept = clamped ? gv.kept(where: xv * av + SIMD16(loading: fb + i), inside: SIMD16(repeating: lo), SIMD16(repeating: hi)) : gv
                            return av * kept + SIMD16(loading: pb + i) * xv + SIMD16(loading: pc + i)
                        }
                        switch (add, clamped) {
                        case (true, false): for i in done..<n { ds[i] += pa[i] * gs[i] + pb[i] * xs[i] + pc[i] }
                        case (false, false): for i in done..<n { ds[i] = pa[i] * gs[i] + pb[i] * xs[i] + pc[i] }
                        case (true, true): for i in done..<n { ds[i] += pa[i] * passed(i) + pb[i] * xs[i] + pc[i] }
                        case (false, true): for i in done..<n { ds[i] = pa[i] * passed(i) + pb[i] * xs[i] + pc[i] }
                        }
                    }
                }
            }
        })
        output.batchNormGradientSums = sums
        return output
    }
}

/// Batch norm's input gradient dx = a (g where the clamp passed, else 0) + cb x + cc, per channel, for
/// rows on demand (`DeferredGradient`): the same operations in the same order as batch norm's own
/// backward pass, so the same bits.
private struct InputGradientRule {
    let tiling: ChannelTiling
    /// a, b (y = x a + b, for the clamp's mask), cb and cc, each repeated over a tile.
    let tiles: Storage
    let clamp: (lo: Float, hi: Float)?

    init(tiling: ChannelTiling, a: [Float], b: [Float], cb: [Float], cc: [Float], clamp: (Float, Float)?) {
        self.tiling = tiling
        self.clamp = clamp
        tiles = Storage(count: 4 * tiling.tile)
        for (k, values) in [a, b, cb, cc].enumerated() {
            tiling.repeated(values).withUnsafeBufferPointer { (tiles.pointer + k * tiling.tile).update(from: $0.baseAddress!, count: tiling.tile) }
        }
    }

    /// Rows `rows` of dx from x and g (whole tensors) into `destination` (row `rows.lowerBound` first).
    func write(rows: Range<Int>, x: UnsafePointer<Float>, g: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>) {
        let (c, tile) = (tiling.channels, tiling.tile)
        let (pa, fb, pb, pc) = (tiles.pointer, tiles.pointer + tile, tiles.pointer + 2 * tile, tiles.pointer + 3 * tile)
        let (lo, hi) = clamp ?? (-.infinity, .infinity)
        // Runs of at most a tile's rows, each from the tile's start: the tiles repeat per row.
        for first in stride(from: rows.lowerBound, to: rows.upperBound, by: tiling.rowsPerTile) {
            let n = min(tiling.rowsPerTile, rows.upperBound - first) * c
            let (xs, gs, ds) = (x + first * c, g + first * c, destination + (first - rows.lowerBound) * c)
            var i = 0
            while i + 16 <= n {
                let (xv, av, gv) = (SIMD16(loading: xs + i), SIMD16(loading: pa + i), SIMD16(loading: gs + i))
                let kept = clamp != nil ? gv.kept(where: xv * av + SIMD16(loading: fb + i), inside: SIMD16(repeating: lo), SIMD16(repeating: hi)) : gv
                (av * kept + SIMD16(loading: pb + i) * xv + SIMD16(loading: pc + i)).store(to: ds + i)
                i += 16
            }
            // Channel counts that are not a multiple of 16 (none of the convs that take a deferred gradient).
            while i < n {
                let z = xs[i] * pa[i] + fb[i]
                let passed = clamp == nil || (z > lo && z < hi) ? gs[i] : 0
                ds[i] = pa[i] * passed + pb[i] * xs[i] + pc[i]
                i += 1
            }
        }
    }
}

/// Base pointers of two arrays at once.
private func withPointers<R>(_ a: [Float], _ b: [Float], _ body: (UnsafePointer<Float>, UnsafePointer<Float>) -> R) -> R {
    a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in body(pa.baseAddress!, pb.baseAddress!) } }
}

/// Base pointers of four arrays at once.
private func withPointers<R>(
    _ a: [Float], _ b: [Float], _ c: [Float], _ d: [Float],
    _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> R
) -> R {
    withPointers(a, b) { pa, pb in withPointers(c, d) { pc, pd in body(pa, pb, pc, pd) } }
}

/// Base pointers of three arrays at once.
private func withPointers<R>(
    _ a: [Float], _ b: [Float], _ c: [Float], _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> R
) -> R {
    a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in c.withUnsafeBufferPointer { pc in
        body(pa.baseAddress!, pb.baseAddress!, pc.baseAddress!)
    } } }
}
