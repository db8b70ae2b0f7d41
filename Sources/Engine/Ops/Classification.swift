import Foundation

/// The ops of a classification head: pooling a feature map to one vector per image, and the
/// softmax cross-entropy of its logits.
extension Tensor {
    /// The mean over the spatial axes of an NHWC tensor: (N, H, W, C) -> (N, C).
    public func globalAveragePooled() -> Tensor {
        precondition(shape.count == 4, "global average pooling: NHWC input expected, got \(shape)")
        let (n, pixels, c) = (shape[0], shape[1] * shape[2], shape[3])
        let x = storage.pointer
        let out = Storage(count: n * c)
        let o = out.pointer
        let scale = 1 / Float(pixels)
        Parallel.forEachBlock(count: n, blockSize: 1) { _, images in
            for b in images {
                let ob = o + b * c
                ob.update(repeating: 0, count: c)
                // Pixel by pixel along the contiguous channels: the inner loop vectorises.
                for p in 0..<pixels {
                    let xp = x + (b * pixels + p) * c
                    for k in 0..<c { ob[k] += xp[k] }
                }
                for k in 0..<c { ob[k] *= scale }
            }
        }
        return Tensor.result(shape: [n, c], storage: out, inputs: [self]) { [self] g in
            withGradientTarget { gx, add in
                Parallel.forEachBlock(count: n, blockSize: 1) { _, images in
                    for b in images {
                        let gb = g + b * c
                        for p in 0..<pixels {
                            let gp = gx + (b * pixels + p) * c
                            if add { for k in 0..<c { gp[k] += scale * gb[k] } } else { for k in 0..<c { gp[k] = scale * gb[k] } }
                        }
                    }
                }
            }
        }
    }

    /// The mean softmax cross-entropy of (rows, K) logits against `labels` (0..<K), with label
    /// smoothing `smoothing` (the target puts 1 - smoothing on the label and spreads smoothing
    /// evenly over all K classes, as PyTorch's `label_smoothing`). A scalar.
    public func softmaxCrossEntropy(labels: [Int32], smoothing: Float = 0) -> Tensor {
        precondition(shape.count == 2, "softmax cross-entropy: logits must be (rows, classes), got \(shape)")
        let (rows, k) = (shape[0], shape[1])
        precondition(labels.count == rows && labels.allSatisfy { $0 >= 0 && $0 < k }, "softmax cross-entropy: a label is outside 0..<\(k)")
        precondition((0...1).contains(smoothing), "softmax cross-entropy: smoothing must lie in [0, 1]")
        let x = storage.pointer
        let gradient = Storage(count: count)
        let gp = gradient.pointer
        let spread = smoothing / Float(k), scale = 1 / Float(max(1, rows))
        let total = labels.withUnsafeBufferPointer { lb in
            blockedSum(count: rows, blockSize: 64) { r in
                var acc: Double = 0
                for row in r {
                    let xr = x + row * k, gr = gp + row * k
                    var top = -Float.infinity
                    for j in 0..<k { top = max(top, xr[j]) }
                    var sum: Float = 0
                    for j in 0..<k { gr[j] = expf(xr[j] - top); sum += gr[j] }
                    let logSum = logf(sum) + top
                    let label = Int(lb[row])
                    // Loss: -sum_j t_j log p_j, with t the smoothed target; gradient p - t.
                    var rowLoss: Float = 0
                    for j in 0..<k {
                        let t = spread + (j == label ? 1 - smoothing : 0)
                        rowLoss += t * (logSum - xr[j])
                        gr[j] = scale * (gr[j] / sum - t)
                    }
                    acc += Double(rowLoss)
                }
                return acc
            }
        }
        let out = Storage(count: 1)
        out.pointer[0] = Float(total) * scale
        return Tensor.result(shape: [], storage: out, inputs: [self]) { [self] g in
            Tensor.accumulate(into: self, UnsafePointer(gp), scale: g[0])
            _ = gradient  // keeps the stored gradient alive with the rule
        }
    }

    /// Row-wise softmax of (rows, K) logits: the probabilities a classifier reports (no gradient).
    public func softmaxProbabilities() -> [Float] {
        precondition(shape.count == 2, "softmax: (rows, classes) expected, got \(shape)")
        let (rows, k) = (shape[0], shape[1])
        var out = [Float](repeating: 0, count: count)
        let x = storage.pointer
        for row in 0..<rows {
            let xr = x + row * k
            var top = -Float.infinity
            for j in 0..<k { top = max(top, xr[j]) }
            var sum: Float = 0
            for j in 0..<k { out[row * k + j] = expf(xr[j] - top); sum += out[row * k + j] }
            for j in 0..<k { out[row * k + j] /= sum }
        }
        return out
    }
}
