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
