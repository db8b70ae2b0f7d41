/// Elementwise ops on whole buffers, split across cores in fixed blocks.

let elementwiseBlock = 1 << 15

extension Tensor {
    /// A new uninitialised buffer the size of this tensor.
    func makeStorage() -> Storage { Storage(count: count) }

    /// `self + other`, same shapes.
    public static func + (a: Tensor, b: Tensor) -> Tensor {
        precondition(a.shape == b.shape, "add: shapes \(a.shape) and \(b.shape) differ")
        let out = a.makeStorage()
        let (pa, pb, po) = (a.storage.pointer, b.storage.pointer, out.pointer)
        Parallel.forEachBlock(count: a.count, blockSize: elementwiseBlock) { _, r in
            for i in r { po[i] = pa[i] + pb[i] }
        }
        return result(shape: a.shape, storage: out, inputs: [a, b], reusingGradient: { g, spare in
            // The spare buffer goes to one input at most: two tensors never share a gradient buffer.
            if a.requiresGrad { accumulate(into: a, g, reusing: spare) }
            if b.requiresGrad { accumulate(into: b, g, reusing: a.requiresGrad ? nil : spare) }
        })
    }

    /// `self - other`, same shapes.
    public static func - (a: Tensor, b: Tensor) -> Tensor {
        precondition(a.shape == b.shape, "subtract: shapes \(a.shape) and \(b.shape) differ")
        let out = a.makeStorage()
        let (pa, pb, po) = (a.storage.pointer, b.storage.pointer, out.pointer)
        Parallel.forEachBlock(count: a.count, blockSize: elementwiseBlock) { _, r in
            for i in r { po[i] = pa[i] - pb[i] }
        }
        return result(shape: a.shape, storage: out, inputs: [a, b]) { g in
            if a.requiresGrad { accumulate(into: a, g) }
            if b.requiresGrad { accumulate(into: b, g, scale: -1) }
        }
    }

    /// Elementwise product, same shapes.
    public static func * (a: Tensor, b: Tensor) -> Tensor {
        precondition(a.shape == b.shape, "multiply: shapes \(a.shape) and \(b.shape) differ")
        let out = a.makeStorage()
        let (pa, pb, po) = (a.storage.pointer, b.storage.pointer, out.pointer)
        Parallel.forEachBlock(count: a.count, blockSize: elementwiseBlock) { _, r in
            for i in r { po[i] = pa[i] * pb[i] }
        }
        return result(shape: a.shape, storage: out, inputs: [a, b]) { g in
            for (t, other) in [(a, pb), (b, pa)] where t.requiresGrad {
                t.withGradientTarget { gt, add in
                    Parallel.forEachBlock(count: t.count, blockSize: elementwiseBlock) { _, r in
                        if add { for i in r { gt[i] += g[i] * other[i] } } else { for i in r { gt[i] = g[i] * other[i] } }
                    }
                }
            }
        }
    }

    /// `self * factor` for a constant factor.
    public func scaled(by factor: Float) -> Tensor {
        let out = makeStorage()
        let (px, po) = (storage.pointer, out.pointer)
        Parallel.forEachBlock(count: count, blockSize: elementwiseBlock) { _, r in
            for i in r { po[i] = px[i] * factor }
        }
        return Tensor.result(shape: shape, storage: out, inputs: [self]) { [self] g in
            Tensor.accumulate(into: self, g, scale: factor)
        }
    }

    /// Adds a per-channel `bias` (shape `[C]`) along the last axis.
    public func addingBias(_ bias: Tensor) -> Tensor {
        let c = shape.last ?? 1
        precondition(bias.shape == [c], "bias shape \(bias.shape) does not match last axis \(c)")
        let rows = count / max(1, c)
        let out = makeStorage()
        let (px, pb, po) = (storage.pointer, bias.storage.pointer, out.pointer)
        Parallel.forEachBlock(count: rows, blockSize: max(1, elementwiseBlock / max(1, c))) { _, r in
            for row in r {
                let base = row * c
                for j in 0..<c { po[base + j] = px[base + j] + pb[j] }
            }
        }
        return Tensor.result(shape: shape, storage: out, inputs: [self, bias], reusingGradient: { [self] g, spare in
            if bias.requiresGrad { sumRows(g, rows: rows, columns: c, into: bias.ensureGrad().pointer) }
            if requiresGrad { Tensor.accumulate(into: self, g, reusing: spare) }
        })
    }

    /// max(x, 0).
    public func relu() -> Tensor { clamped(min: 0, max: .infinity) }

    /// min(max(x, 0), 6), MobileNet's activation.
    public func relu6() -> Tensor { clamped(min: 0, max: 6) }

    /// Clamps to [min, max]; the gradient passes where the input lies strictly inside.
    public func clamped(min lo: Float, max hi: Float) -> Tensor {
        let out = makeStorage()
        let (px, po) = (storage.pointer, out.pointer)
        Parallel.forEachBlock(count: count, blockSize: elementwiseBlock) { _, r in
            for i in r { po[i] = Swift.min(Swift.max(px[i], lo), hi) }
        }
        return Tensor.result(shape: shape, storage: out, inputs: [self], reusingGradient: { [self] g, spare in
            withGradientTarget(reusing: spare) { gx, add in
                Parallel.forEachBlock(count: count, blockSize: elementwiseBlock) { _, r in
                    var i = r.lowerBound
                    if !add {
                        // Explicit vectors: where gx is g's buffer (in place), the compiler's vectorised
                        // loop would find its pointers overlapping and run lane by lane.
                        let (l, h) = (SIMD16<Float>(repeating: lo), SIMD16<Float>(repeating: hi))
                        while i + 16 <= r.upperBound {
                            SIMD16(loading: g + i).kept(where: SIMD16(loading: px + i), inside: l, h).store(to: gx + i)
                            i += 16
                        }
                    }
                    while i < r.upperBound {
                        let pass: Float = px[i] > lo && px[i] < hi ? g[i] : 0
                        gx[i] = add ? gx[i] + pass : pass
                        i += 1
                    }
                }
            }
        })
    }

    /// The logistic function 1 / (1 + e^-x).
    public func sigmoid() -> Tensor {
        let out = makeStorage()
        let (px, po) = (storage.pointer, out.pointer)
        Parallel.forEachBlock(count: count, blockSize: elementwiseBlock) { _, r in
            for i in r { po[i] = stableSigmoid(px[i]) }
        }
        return Tensor.result(shape: shape, storage: out, inputs: [self]) { [self] g in
            withGradientTarget { gx, add in
                Parallel.forEachBlock(count: count, blockSize: elementwiseBlock) { _, r in
                    for i in r {
                        let d = g[i] * po[i] * (1 - po[i])
                        gx[i] = add ? gx[i] + d : d
                    }
                }
            }
        }
    }

    /// Adds `scale * g` into `t`'s gradient. With `spare` (the buffer holding g, which nothing else
    /// holds), scale 1 and no gradient yet, `t` takes the buffer as its gradient: nothing is copied.
    static func accumulate(into t: Tensor, _ g: UnsafePointer<Float>, scale: Float = 1, reusing spare: Storage? = nil) {
        t.withGradientTarget(reusing: scale == 1 ? spare : nil) { gt, add in
            if !add && UnsafePointer(gt) == g { return }
            Parallel.forEachBlock(count: t.count, blockSize: elementwiseBlock) { _, r in
                switch (add, scale == 1) {
                case (true, true): for i in r { gt[i] += g[i] }
                case (true, false): for i in r { gt[i] += scale * g[i] }
                case (false, true): (gt + r.lowerBound).update(from: g + r.lowerBound, count: r.count)
                case (false, false): for i in r { gt[i] = scale * g[i] }
                }
            }
        }
    }
}

/// 1 / (1 + e^-x) without overflow for large |x|.
@inline(__always)
public func stableSigmoid(_ x: Float) -> Float {
    if x >= 0 { return 1 / (1 + expf(-x)) }
    let e = expf(x)
    return e / (1 + e)
}

/// Adds the column sums of a `rows x columns` matrix into `out` (deterministic blocks).
func sumRows(_ m: UnsafePointer<Float>, rows: Int, columns c: Int, into out: UnsafeMutablePointer<Float>) {
    let block = 256
    let blocks = Parallel.blockCount(count: rows, blockSize: block)
    let partial = UnsafeMutablePointer<Float>.allocate(capacity: blocks * c)
    defer { partial.deallocate() }
    Parallel.forEachBlock(count: rows, blockSize: block) { b, r in
        let acc = partial + b * c
        acc.initialize(repeating: 0, count: c)
        for row in r {
            let src = m + row * c
            for j in 0..<c { acc[j] += src[j] }
        }
    }
    for b in 0..<blocks {
        let acc = partial + b * c
        for j in 0..<c { out[j] += acc[j] }
    }
}

import Foundation
