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

    /// Folds tile-length accumulators back to one value per channel.
    func fold(_ acc: UnsafePointer<Float>, into out: UnsafeMutablePointer<Double>) {
        for r in 0..<rowsPerTile { for j in 0..<channels { out[j] += Double(acc[r * channels + j]) } }
    }
}

/// Floats per block of the reductions, about: whole tiles of rows, the same for any thread count
/// (so sums are bit-identical with any). Large enough that folding a block's tile accumulators
/// into the per-channel sums (a tile of doubles per block) costs little beside the block itself,
/// which with 8 channels and blocks of 256 rows it did not.
private let reductionBlockFloats = 1 << 15

/// Sums two per-channel quantities over the rows of a (rows x c) matrix.
///
/// `body(start, count, acc1, acc2)` adds the flat elements `start ..< start + count`
/// (whole rows, starting on a tile boundary) into two tile-length float accumulators,
/// element i going to slot i % tile. Blocks are combined in order in double.
private func channelSums(
    rows: Int, tiling: ChannelTiling,
    _ body: (_ start: Int, _ count: Int, _ acc1: UnsafeMutablePointer<Float>, _ acc2: UnsafeMutablePointer<Float>) -> Void
) -> ([Double], [Double]) {
    let c = tiling.channels, tile = tiling.tile
    let block = max(reductionBlockFloats / tile, 1) * tiling.rowsPerTile
    let blocks = Parallel.blockCount(count: rows, blockSize: block)
    let partial = Storage(count: max(1, blocks) * 2 * tile)
    Parallel.forEachBlock(count: rows, blockSize: block) { b, r in
        let acc = partial.pointer + b * 2 * tile
        acc.initialize(repeating: 0, count: 2 * tile)
        var row = r.lowerBound
        while row < r.upperBound {
            let n = min(tiling.rowsPerTile, r.upperBound - row)
            body(row * c, n * c, acc, acc + tile)
            row += n
        }
    }
    var s1 = [Double](repeating: 0, count: c), s2 = [Double](repeating: 0, count: c)
    s1.withUnsafeMutableBufferPointer { p1 in
        s2.withUnsafeMutableBufferPointer { p2 in
            for b in 0..<blocks {
                let acc = partial.pointer + b * 2 * tile
                tiling.fold(acc, into: p1.baseAddress!)
                tiling.fold(acc + tile, into: p2.baseAddress!)
            }
        }
    }
    return (s1, s2)
}

/// Calls `body(start, count)` on runs of whole rows of at most one tile, in parallel.
private func forEachTile(rows: Int, tiling: ChannelTiling, _ body: (_ start: Int, _ count: Int) -> Void) {
    let tiles = (rows + tiling.rowsPerTile - 1) / tiling.rowsPerTile
    Parallel.forEachBlock(count: tiles, blockSize: Parallel.blockSize(count: tiles, minimum: 8)) { _, r in
        for t in r {
            let first = t * tiling.rowsPerTile
            let n = min(tiling.rowsPerTile, rows - first)
            body(first * tiling.channels, n * tiling.channels)
        }
    }
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
    public func batchNorm(
        scale: Tensor, shift: Tensor, runningMean: Tensor, runningVariance: Tensor,
        epsilon: Float = 1e-3, mode: BatchNormMode, clampedTo range: ClosedRange<Float>? = nil
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
            // Shifting by the first row keeps the one-pass variance accurate.
            let shiftRow = Array(UnsafeBufferPointer(start: x, count: c))
            let (s1, s2) = tiling.repeated(shiftRow).withUnsafeBufferPointer { k in
                let k = k.baseAddress!
                return channelSums(rows: rows, tiling: tiling) { start, n, a1, a2 in
                    let xs = x + start
                    for i in 0..<n { let d = xs[i] - k[i]; a1[i] += d; a2[i] += d * d }
                }
            }
            var m = Double(rows)
            // Per channel: the mean and the sum of squared deviations (M2) of this batch.
            var means = (0..<c).map { Double(shiftRow[$0]) + s1[$0] / m }
            var m2 = (0..<c).map { max(0, s2[$0] - s1[$0] * s1[$0] / m) }
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
        withPointers(tiling.repeated(a), tiling.repeated(b)) { pa, pb in
            forEachTile(rows: rows, tiling: tiling) { start, n in
                let xs = x + start, ys = out.pointer + start
                if range == nil {
                    for i in 0..<n { ys[i] = xs[i] * pa[i] + pb[i] }
                } else {
                    for i in 0..<n { ys[i] = Swift.min(Swift.max(xs[i] * pa[i] + pb[i], lo), hi) }
                }
            }
        }

        let input = self
        let clamped = range != nil
        let (tileA, tileB) = (tiling.repeated(a), tiling.repeated(b))
        return Tensor.result(shape: shape, storage: out, inputs: [self, scale, shift]) { g in
            // With the clamp, the gradient g passes where the output is strictly inside [lo, hi]:
            // where x * a + b is, recomputed exactly as the forward pass computed it (cheaper
            // than reading the output, a third stream beside x and g in a memory-bound pass).
            // Per channel: sum of g and of g * xhat, xhat = (x - mean) * invStd.
            let (sg, sgx) = withPointers(tiling.repeated(mean), tiling.repeated(invStd), tileA, tileB) { pm, pi, pa, pb in
                channelSums(rows: rows, tiling: tiling) { start, n, a1, a2 in
                    let xs = x + start, gs = g + start
                    if clamped {
                        for i in 0..<n {
                            let z = xs[i] * pa[i] + pb[i]
                            let gi = z > lo && z < hi ? gs[i] : 0
                            a1[i] += gi; a2[i] += gi * (xs[i] - pm[i]) * pi[i]
                        }
                    } else {
                        for i in 0..<n { a1[i] += gs[i]; a2[i] += gs[i] * (xs[i] - pm[i]) * pi[i] }
                    }
                }
            }
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
            input.withGradientTarget { gx, add in
                withPointers(tileA, tileB, tiling.repeated(cb), tiling.repeated(cc)) { pa, fb, pb, pc in
                    forEachTile(rows: rows, tiling: tiling) { start, n in
                        let xs = x + start, gs = g + start, ds = gx + start
                        @inline(__always) func passed(_ i: Int) -> Float {
                            let z = xs[i] * pa[i] + fb[i]
                            return z > lo && z < hi ? gs[i] : 0
                        }
                        switch (add, clamped) {
                        case (true, false): for i in 0..<n { ds[i] += pa[i] * gs[i] + pb[i] * xs[i] + pc[i] }
                        case (false, false): for i in 0..<n { ds[i] = pa[i] * gs[i] + pb[i] * xs[i] + pc[i] }
                        case (true, true): for i in 0..<n { ds[i] += pa[i] * passed(i) + pb[i] * xs[i] + pc[i] }
                        case (false, true): for i in 0..<n { ds[i] = pa[i] * passed(i) + pb[i] * xs[i] + pc[i] }
                        }
                    }
                }
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
