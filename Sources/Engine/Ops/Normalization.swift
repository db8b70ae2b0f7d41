/// Whether batch norm normalises with the batch's statistics or the running ones.
public enum BatchNormMode: Sendable, Equatable {
    /// Batch statistics; running statistics move towards them by `momentum`.
    case training(momentum: Float)
    /// Running statistics; nothing is updated.
    case inference
}

/// Rows per block of the per-channel reductions (fixed, for determinism).
private let reductionBlock = 256

/// Sums two per-channel quantities over the rows of a (rows x c) matrix.
///
/// `body(range, acc1, acc2)` adds the rows of `range` into two float
/// accumulators of `c` entries; blocks are combined in order in double.
private func channelSums(
    rows: Int, channels c: Int,
    _ body: (_ rows: Range<Int>, _ acc1: UnsafeMutablePointer<Float>, _ acc2: UnsafeMutablePointer<Float>) -> Void
) -> ([Double], [Double]) {
    let blocks = Parallel.blockCount(count: rows, blockSize: reductionBlock)
    let partial = UnsafeMutablePointer<Float>.allocate(capacity: max(1, blocks) * 2 * c)
    defer { partial.deallocate() }
    Parallel.forEachBlock(count: rows, blockSize: reductionBlock) { b, r in
        let acc = partial + b * 2 * c
        acc.initialize(repeating: 0, count: 2 * c)
        body(r, acc, acc + c)
    }
    var s1 = [Double](repeating: 0, count: c), s2 = [Double](repeating: 0, count: c)
    for b in 0..<blocks {
        let acc = partial + b * 2 * c
        for j in 0..<c { s1[j] += Double(acc[j]); s2[j] += Double(acc[c + j]) }
    }
    return (s1, s2)
}

/// y = x * a + b per channel, over the rows of a (rows x c) matrix.
private func affine(_ x: UnsafePointer<Float>, rows: Int, channels c: Int, a: [Float], b: [Float], out: UnsafeMutablePointer<Float>) {
    a.withUnsafeBufferPointer { pa in
        b.withUnsafeBufferPointer { pb in
            let (pa, pb) = (pa.baseAddress!, pb.baseAddress!)
            Parallel.forEachBlock(count: rows, blockSize: Parallel.blockSize(count: rows, minimum: 64)) { _, r in
                for row in r {
                    let xi = x + row * c, yi = out + row * c
                    for j in 0..<c { yi[j] = xi[j] * pa[j] + pb[j] }
                }
            }
        }
    }
}

extension Tensor {
    /// Batch normalisation over every axis but the last (channels), as in NHWC.
    ///
    /// y = (x - mean) / sqrt(var + eps) * scale + shift. In `.training` mode mean
    /// and var are the batch's (biased variance), and the running statistics
    /// are updated in place with the unbiased variance, as PyTorch does.
    public func batchNorm(
        scale: Tensor, shift: Tensor, runningMean: Tensor, runningVariance: Tensor,
        epsilon: Float = 1e-3, mode: BatchNormMode
    ) -> Tensor {
        let c = shape.last ?? 1
        precondition(scale.shape == [c] && shift.shape == [c] && runningMean.shape == [c] && runningVariance.shape == [c],
                     "batchNorm: parameters must have shape [\(c)]")
        let rows = count / max(1, c)
        let x = storage.pointer
        let out = makeStorage()
        var mean = [Float](repeating: 0, count: c), invStd = [Float](repeating: 0, count: c)
        let gamma = scale.scalars, beta = shift.scalars
        switch mode {
        case .training(let momentum):
            precondition(rows > 1, "batchNorm in training mode needs more than one value per channel")
            // Shifting by the first row keeps the one-pass variance accurate.
            let shiftRow = Array(UnsafeBufferPointer(start: x, count: c))
            let (s1, s2) = shiftRow.withUnsafeBufferPointer { k in
                let k = k.baseAddress!
                return channelSums(rows: rows, channels: c) { r, a1, a2 in
                    for row in r {
                        let xi = x + row * c
                        for j in 0..<c { let d = xi[j] - k[j]; a1[j] += d; a2[j] += d * d }
                    }
                }
            }
            let m = Double(rows)
            let rm = runningMean.storage.pointer, rv = runningVariance.storage.pointer
            for j in 0..<c {
                let d = s1[j] / m
                let variance = max(0, s2[j] / m - d * d)
                mean[j] = Float(Double(shiftRow[j]) + d)
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
        let a = (0..<c).map { gamma[$0] * invStd[$0] }
        let b = (0..<c).map { beta[$0] - mean[$0] * a[$0] }
        affine(x, rows: rows, channels: c, a: a, b: b, out: out.pointer)

        let input = self
        return Tensor.result(shape: shape, storage: out, inputs: [self, scale, shift]) { g in
            // Per channel: sum of g and of g * xhat, xhat = (x - mean) * invStd.
            let (sg, sgx) = mean.withUnsafeBufferPointer { pm in
                invStd.withUnsafeBufferPointer { pi in
                    let (pm, pi) = (pm.baseAddress!, pi.baseAddress!)
                    return channelSums(rows: rows, channels: c) { r, a1, a2 in
                        for row in r {
                            let xi = x + row * c, gi = g + row * c
                            for j in 0..<c { a1[j] += gi[j]; a2[j] += gi[j] * (xi[j] - pm[j]) * pi[j] }
                        }
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
            // dx = gamma * invStd * (g - k1 - xhat * k2); in inference mode k1 = k2 = 0.
            var k1 = [Float](repeating: 0, count: c), k2 = [Float](repeating: 0, count: c)
            if case .training = mode {
                for j in 0..<c { k1[j] = Float(sg[j] / Double(rows)); k2[j] = Float(sgx[j] / Double(rows)) }
            }
            let coef = a
            input.withGradientTarget { gx, add in
                withPointers(mean, invStd, k1, k2, coef) { pm, pi, p1, p2, pc in
                    Parallel.forEachBlock(count: rows, blockSize: Parallel.blockSize(count: rows, minimum: 64)) { _, r in
                        for row in r {
                            let xi = x + row * c, gi = g + row * c, di = gx + row * c
                            if add {
                                for j in 0..<c { di[j] += pc[j] * (gi[j] - p1[j] - (xi[j] - pm[j]) * pi[j] * p2[j]) }
                            } else {
                                for j in 0..<c { di[j] = pc[j] * (gi[j] - p1[j] - (xi[j] - pm[j]) * pi[j] * p2[j]) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Base pointers of five arrays at once.
private func withPointers<R>(
    _ a: [Float], _ b: [Float], _ c: [Float], _ d: [Float], _ e: [Float],
    _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> R
) -> R {
    a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in c.withUnsafeBufferPointer { pc in
        d.withUnsafeBufferPointer { pd in e.withUnsafeBufferPointer { pe in
            body(pa.baseAddress!, pb.baseAddress!, pc.baseAddress!, pd.baseAddress!, pe.baseAddress!)
        } }
    } } }
}
