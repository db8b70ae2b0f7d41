/// Sums and means down to a scalar.
extension Tensor {
    /// Sum of all values, as a scalar (shape `[]`).
    public func sum() -> Tensor {
        let p = storage.pointer
        let total = blockedSum(count: count) { r in
            var s: Float = 0
            for i in r { s += p[i] }
            return Double(s)
        }
        let out = Storage(count: 1)
        out.pointer[0] = Float(total)
        return Tensor.result(shape: [], storage: out, inputs: [self]) { [self] g in
            let v = g[0]
            withGradientTarget { gx, add in
                Parallel.forEachBlock(count: count, blockSize: elementwiseBlock) { _, r in
                    if add { for i in r { gx[i] += v } } else { (gx + r.lowerBound).update(repeating: v, count: r.count) }
                }
            }
        }
    }

    /// Mean of all values, as a scalar.
    public func mean() -> Tensor { sum().scaled(by: 1 / Float(max(1, count))) }
}

/// Sums per-block partials (each block's own sum, in double) in block order.
func blockedSum(count: Int, blockSize: Int = 4096, _ block: (Range<Int>) -> Double) -> Double {
    let blocks = Parallel.blockCount(count: count, blockSize: blockSize)
    var partial = [Double](repeating: 0, count: blocks)
    partial.withUnsafeMutableBufferPointer { buffer in
        let p = buffer.baseAddress!
        Parallel.forEachBlock(count: count, blockSize: blockSize) { b, r in p[b] = block(r) }
    }
    return partial.reduce(0, +)
}
