import Foundation

/// Fused detection losses: each computes its value and its gradient in one pass
/// and keeps the gradient for the backward rule.
extension Tensor {
    /// Sum of the sigmoid focal loss (Lin et al. 2017) over rows of (rows, K) logits.
    ///
    /// `labels[r]` is the positive class of row r (0..<K), or -1 for a row
    /// whose targets are all zero (a negative anchor). Row r's terms are
    /// multiplied by `weights[r]`; a row of weight 0 adds nothing.
    /// Per term: alpha_t * (1 - p_t)^gamma * BCE(x, t), as torchvision's
    /// `sigmoid_focal_loss` with alpha 0.25 weighting positives.
    public func sigmoidFocalLoss(labels: [Int32], weights: [Float], alpha: Float = 0.25, gamma: Float = 2) -> Tensor {
        precondition(shape.count == 2, "focal loss: logits must be (rows, classes), got \(shape)")
        let (rows, k) = (shape[0], shape[1])
        precondition(labels.count == rows && weights.count == rows, "focal loss: \(labels.count) labels, \(weights.count) weights for \(rows) rows")
        precondition(labels.allSatisfy { $0 >= -1 && $0 < k }, "focal loss: a label is outside -1..<\(k)")
        let x = storage.pointer
        let gradient = Storage(count: count)
        let gp = gradient.pointer
        let total = labels.withUnsafeBufferPointer { lb in
            weights.withUnsafeBufferPointer { wb in
                let (lp, wp) = (lb.baseAddress!, wb.baseAddress!)
                return blockedSum(count: rows, blockSize: 512) { r in
                    if gamma == 2 { return focalRows(x, gp, rows: r, classes: k, labels: lp, weights: wp, alpha: alpha) }
                    var acc: Double = 0
                    for row in r {
                        let w = wp[row], label = Int(lp[row])
                        let xr = x + row * k, gr = gp + row * k
                        if w == 0 { gr.update(repeating: 0, count: k); continue }
                        var rowLoss: Float = 0
                        for j in 0..<k {
                            let (loss, grad) = focalTerm(xr[j], positive: j == label, alpha: alpha, gamma: gamma)
                            rowLoss += loss
                            gr[j] = w * grad
                        }
                        acc += Double(w * rowLoss)
                    }
                    return acc
                }
            }
        }
        let out = Storage(count: 1)
        out.pointer[0] = Float(total)
        return Tensor.result(shape: [], storage: out, inputs: [self]) { [self] g in
            Tensor.accumulate(into: self, UnsafePointer(gp), scale: g[0])
            _ = gradient  // keeps the stored gradient alive with the rule
        }
    }

    /// Sum of the smooth L1 loss with transition `beta` between this tensor and `target` (same shape).
    ///
    /// |d| < beta: 0.5 d^2 / beta; otherwise |d| - 0.5 beta. `target` receives no gradient.
    public func smoothL1Loss(target: Tensor, beta: Float) -> Tensor {
        precondition(shape == target.shape, "smooth L1: shapes \(shape) and \(target.shape) differ")
        precondition(beta >= 0, "smooth L1: beta must be >= 0")
        let p = storage.pointer, t = target.storage.pointer
        let gradient = Storage(count: count)
        let gp = gradient.pointer
        let total = blockedSum(count: count) { r in
            var acc: Float = 0
            for i in r {
                let d = p[i] - t[i], a = abs(d)
                if a < beta {
                    acc += 0.5 * d * d / beta
                    gp[i] = d / beta
                } else {
                    acc += a - 0.5 * beta
                    gp[i] = d > 0 ? 1 : (d < 0 ? -1 : 0)
                }
            }
            return Double(acc)
        }
        let out = Storage(count: 1)
        out.pointer[0] = Float(total)
        return Tensor.result(shape: [], storage: out, inputs: [self]) { [self] g in
            Tensor.accumulate(into: self, UnsafePointer(gp), scale: g[0])
            _ = gradient
        }
    }
}

/// Focal-loss terms with gamma 2 of rows `rows` of (rows, k) logits, as one flat run 16 logits at a
/// time whatever k (the detector's 13 classes would leave 3 of 16 lanes idle per row): writes each
/// term's derivative times its row's weight to `gradient` and returns the weighted loss. Each lane
/// does a row-at-a-time pass's arithmetic with its own row's weight, so the gradient's bits do not
/// depend on how rows fall into vectors. Positives take the scalar `focalTerm`; rows of weight 0
/// get a gradient of 0 and add nothing, even with a NaN logit.
@inline(__always)
func focalRows(
    _ x: UnsafePointer<Float>, _ gradient: UnsafeMutablePointer<Float>, rows: Range<Int>, classes k: Int,
    labels: UnsafePointer<Int32>, weights: UnsafePointer<Float>, alpha: Float
) -> Double {
    var total: Double = 0
    let first = rows.lowerBound * k
    let end = rows.upperBound * k
    // Each logit's row weight, laid out as the logits (16 zeros past the end): written a row at a
    // time, read a vector at a time. Set lane by lane in a vector register, each lane's store
    // stalled the vector's reload: 60% of this pass on the Zen 3.
    let laneWeights = UnsafeMutablePointer<Float>.allocate(capacity: end - first + 16)
    defer { laneWeights.deallocate() }
    for row in rows { (laneWeights + (row * k - first)).update(repeating: weights[row], count: k) }
    (laneWeights + (end - first)).update(repeating: 0, count: 16)
    // Flat index of the next positive logit of a row of nonzero weight, in row order.
    var scanned = rows.lowerBound
    func nextPositive() -> Int {
        while scanned < rows.upperBound {
            let row = scanned
            scanned += 1
            if labels[row] >= 0 && weights[row] != 0 { return row * k + Int(labels[row]) }
        }
        return Int.max
    }
    var positiveAt = nextPositive()
    var i = first
    while i < end {
        let n = min(16, end - i)
        var v = SIMD16<Float>()
        if n == 16 {
            v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD16<Float>.self)
        } else {
            for t in 0..<n { v[t] = x[i + t] }
        }
        let w = UnsafeRawPointer(laneWeights + (i - first)).loadUnaligned(as: SIMD16<Float>.self)
        var positive: UInt32 = 0  // a bit per lane holding a positive
        while positiveAt < i + n {
            positive |= 1 << UInt32(positiveAt - i)
            positiveAt = nextPositive()
        }
        // Every term as a negative's: alpha_t (1 - alpha), modulator s^2, -log(1 - s) = max(x, 0) + log1p(e^-|x|).
        let e = VectorMath.expNonPositive(v.replacing(with: -v, where: v .> 0))
        let l1p = VectorMath.log1pUnit(e)
        let s = (SIMD16<Float>(repeating: 1) / (e + 1)).replacing(with: e / (e + 1), where: v .< 0)
        let nlog1mS = VectorMath.clamped(v, 0, .infinity) + l1p
        let mod = (1 - alpha) * s * s
        var termLoss = mod * nlog1mS
        var termGrad = w * mod * (s + 2 * (1 - s) * nlog1mS)
        // The polynomials clamp a NaN away; the training loop's non-finite check needs to see it.
        let nan = v .!= v
        termLoss.replace(with: .nan, where: nan)
        termGrad.replace(with: .nan, where: nan)
        while positive != 0 {
            let t = positive.trailingZeroBitCount
            positive &= positive - 1
            let (pl, pg) = focalTerm(v[t], positive: true, alpha: alpha, gamma: 2)
            termLoss[t] = pl
            termGrad[t] = w[t] * pg
        }
        let unweighted = w .== 0
        termGrad.replace(with: 0, where: unweighted)
        termLoss.replace(with: 0, where: unweighted)
        if n == 16 {
            UnsafeMutableRawPointer(gradient + i).storeBytes(of: termGrad, as: SIMD16<Float>.self)
        } else {
            for t in 0..<n { gradient[i + t] = termGrad[t] }
            for t in n..<16 { termLoss[t] = 0 }
        }
        total += Double((w * termLoss).sum())
        i += 16
    }
    return total
}

/// One focal-loss term and its derivative with respect to the logit.
@inline(__always)
func focalTerm(_ x: Float, positive: Bool, alpha: Float, gamma: Float) -> (loss: Float, grad: Float) {
    let e = expf(-abs(x))
    let l1p = log1pf(e)
    let s = x >= 0 ? 1 / (1 + e) : e / (1 + e)
    if positive {
        let nlogS = max(-x, 0) + l1p            // -log s
        let q = 1 - s
        let mod = gamma == 2 ? q * q : powf(q, gamma)
        return (alpha * mod * nlogS, alpha * mod * (-gamma * s * nlogS - q))
    } else {
        let nlog1mS = max(x, 0) + l1p           // -log(1 - s)
        let mod = gamma == 2 ? s * s : powf(s, gamma)
        return ((1 - alpha) * mod * nlog1mS, (1 - alpha) * mod * (s + gamma * (1 - s) * nlog1mS))
    }
}
