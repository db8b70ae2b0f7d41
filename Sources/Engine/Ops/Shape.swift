/// Ops that move values without arithmetic: reshape, transpose, concatenation,
/// nearest-neighbour upsampling, and row gathering.
extension Tensor {
    /// The same values in a new shape; one extent may be -1 (inferred).
    public func reshaped(_ newShape: [Int]) -> Tensor {
        var resolved = newShape
        if let unknown = newShape.firstIndex(of: -1) {
            let known = newShape.enumerated().filter { $0.offset != unknown }.reduce(1) { $0 * $1.element }
            precondition(known > 0 && count % known == 0, "reshape: cannot infer \(newShape) from \(shape)")
            resolved[unknown] = count / known
        }
        precondition(resolved.reduce(1, *) == count, "reshape: \(shape) has \(count) values, \(resolved) needs \(resolved.reduce(1, *))")
        // Shares the storage: row-major order is unchanged.
        return Tensor.result(shape: resolved, storage: storage, inputs: [self], reusingGradient: { [self] g, spare in
            Tensor.accumulate(into: self, g, reusing: spare)
        })
    }

    /// Permutes the axes: output axis i is input axis `axes[i]`.
    public func transposed(_ axes: [Int]) -> Tensor {
        precondition(axes.sorted() == Array(0..<shape.count), "transpose: \(axes) is not a permutation of \(shape.count) axes")
        let outShape = axes.map { shape[$0] }
        let inStrides = Tensor.strides(shape)
        let permutedStrides = axes.map { inStrides[$0] }
        let out = makeStorage()
        let src = storage.pointer, dst = out.pointer
        Tensor.permute(src: src, dst: dst, shape: outShape, srcStrides: permutedStrides, add: false)
        return Tensor.result(shape: outShape, storage: out, inputs: [self]) { [self] g in
            // The gradient is the inverse permutation, added into the input layout.
            let gx = ensureGrad().pointer
            let outStrides = Tensor.strides(outShape)
            var inverse = [Int](repeating: 0, count: axes.count)
            for (i, a) in axes.enumerated() { inverse[a] = i }
            Tensor.permute(src: g, dst: gx, shape: shape, srcStrides: inverse.map { outStrides[$0] }, add: true)
        }
    }

    static func strides(_ shape: [Int]) -> [Int] {
        var s = [Int](repeating: 1, count: shape.count)
        for i in stride(from: shape.count - 2, through: 0, by: -1) { s[i] = s[i + 1] * shape[i + 1] }
        return s
    }

    /// dst (row-major `shape`) [+]= src read with `srcStrides`.
    private static func permute(src: UnsafePointer<Float>, dst: UnsafeMutablePointer<Float>, shape: [Int], srcStrides: [Int], add: Bool) {
        let total = shape.reduce(1, *)
        guard total > 0 else { return }
        let rank = shape.count
        guard rank > 0 else { dst[0] = add ? dst[0] + src[0] : src[0]; return }
        let inner = shape[rank - 1], innerStride = srcStrides[rank - 1]
        var index = [Int](repeating: 0, count: rank)
        var o = 0
        while o < total {
            var base = 0
            for a in 0..<(rank - 1) { base += index[a] * srcStrides[a] }
            for i in 0..<inner {
                let v = src[base + i * innerStride]
                dst[o + i] = add ? dst[o + i] + v : v
            }
            o += inner
            var a = rank - 2
            while a >= 0 {
                index[a] += 1
                if index[a] < shape[a] { break }
                index[a] = 0
                a -= 1
            }
        }
    }

    /// Joins tensors along `axis`; all other extents must agree.
    public static func concatenate(_ tensors: [Tensor], axis: Int) -> Tensor {
        precondition(!tensors.isEmpty, "concatenate: no tensors")
        let first = tensors[0].shape
        precondition(axis >= 0 && axis < first.count, "concatenate: axis \(axis) out of range for \(first)")
        for t in tensors {
            precondition(t.shape.count == first.count && t.shape.enumerated().allSatisfy { $0.offset == axis || $0.element == first[$0.offset] },
                         "concatenate: shape \(t.shape) does not match \(first) off axis \(axis)")
        }
        let outer = first[..<axis].reduce(1, *)
        let inner = first[(axis + 1)...].reduce(1, *)
        let widths = tensors.map { $0.shape[axis] * inner }
        let total = widths.reduce(0, +)
        var outShape = first
        outShape[axis] = tensors.reduce(0) { $0 + $1.shape[axis] }
        let out = Storage(count: outer * total)
        var offset = 0
        for (t, width) in zip(tensors, widths) {
            let src = t.storage.pointer, dst = out.pointer + offset
            for o in 0..<outer { (dst + o * total).update(from: src + o * width, count: width) }
            offset += width
        }
        return result(shape: outShape, storage: out, inputs: tensors) { g in
            var offset = 0
            for (t, width) in zip(tensors, widths) {
                if t.requiresGrad {
                    t.withGradientTarget { gt, add in
                        for o in 0..<outer {
                            let src = g + o * total + offset, dst = gt + o * width
                            if add { for i in 0..<width { dst[i] += src[i] } } else { dst.update(from: src, count: width) }
                        }
                    }
                }
                offset += width
            }
        }
    }

    /// Nearest-neighbour 2x upsampling of an NHWC tensor: (N, H, W, C) -> (N, 2H, 2W, C).
    public func upsampledNearest2x() -> Tensor {
        precondition(shape.count == 4, "upsample: input must be NHWC, got \(shape)")
        let (n, h, w, c) = (shape[0], shape[1], shape[2], shape[3])
        let outShape = [n, 2 * h, 2 * w, c]
        let out = Storage(count: outShape.reduce(1, *))
        let src = storage.pointer, dst = out.pointer
        Parallel.forEachBlock(count: n * h, blockSize: 8) { _, r in
            for line in r {
                let s = src + line * w * c
                let d0 = dst + line * 2 * (2 * w * c)
                for x in 0..<w {
                    (d0 + 2 * x * c).update(from: s + x * c, count: c)
                    (d0 + (2 * x + 1) * c).update(from: s + x * c, count: c)
                }
                (d0 + 2 * w * c).update(from: d0, count: 2 * w * c)
            }
        }
        return Tensor.result(shape: outShape, storage: out, inputs: [self]) { [self] g in
            withGradientTarget { gx, add in
                Parallel.forEachBlock(count: n * h, blockSize: 8) { _, r in
                    for line in r {
                        let d = gx + line * w * c
                        if !add { d.update(repeating: 0, count: w * c) }
                        let g0 = g + line * 2 * (2 * w * c), g1 = g0 + 2 * w * c
                        for x in 0..<w {
                            let a = g0 + 2 * x * c, b = a + c, e = g1 + 2 * x * c, f = e + c
                            let di = d + x * c
                            for j in 0..<c { di[j] += a[j] + b[j] + e[j] + f[j] }
                        }
                    }
                }
            }
        }
    }

    /// Rows `indices` of a (rows, columns) tensor, as (indices.count, columns).
    public func gatheringRows(_ indices: [Int]) -> Tensor {
        precondition(shape.count == 2, "gatherRows: input must be 2-D, got \(shape)")
        let (rows, c) = (shape[0], shape[1])
        precondition(indices.allSatisfy { $0 >= 0 && $0 < rows }, "gatherRows: index out of range 0..<\(rows)")
        let out = Storage(count: indices.count * c)
        let src = storage.pointer
        for (i, r) in indices.enumerated() { (out.pointer + i * c).update(from: src + r * c, count: c) }
        return Tensor.result(shape: [indices.count, c], storage: out, inputs: [self]) { [self] g in
            let gx = ensureGrad().pointer
            // Serial: a row may be gathered twice.
            for (i, r) in indices.enumerated() {
                let gi = g + i * c, d = gx + r * c
                for j in 0..<c { d[j] += gi[j] }
            }
        }
    }
}
