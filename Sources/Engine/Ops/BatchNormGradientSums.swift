/// Batch norm's two per-channel sums over its output gradient g, which its backward pass needs
/// before it can write a single input gradient: sum of g and sum of g * xhat, with
/// xhat = (x - mean) * invStd and g zeroed where a fused clamp cut the output.
///
/// A conv that writes g as its input gradient (the conv after batch norm, run backward) adds each
/// group of rows it finishes while the group is in cache (`gather`), which saves batch norm's
/// backward a whole read of g. Groups are `RowGroups` (a function of the shape), each
/// summed whole by one call and combined in group order, so the sums are the same bits whoever
/// gathered them. Only a gradient buffer's first writer gathers: a second contribution to the same
/// gradient (`Tensor.gradientTarget()` with `accumulate`) invalidates what was gathered.
final class BatchNormGradientSums: @unchecked Sendable {
    private let groups: RowGroups
    /// Batch norm's input (kept alive: the sums read it).
    private let input: Tensor
    /// Per channel: the forward pass's a and b (y = x * a + b, for the clamp's mask), mean and 1 / std.
    private let coefficients: Storage
    private let lower, upper: Float
    private let clamped: Bool
    /// Per group: the sum of g and of g * xhat (made by the first `reset`: most forward passes
    /// record no backward).
    private var partialStorage: Storage?
    private var partial: Storage { partialStorage! }
    /// The gradient buffer the gathered groups came from; nil once another writer added to it.
    private var buffer: UnsafePointer<Float>?
    /// Groups the gradient's writer had gathered when the last `finish` began (tests).
    private(set) var gatheredByWriter = 0
    /// Groups in all.
    var groupCount: Int { groups.count }

    init(input: Tensor, a: [Float], b: [Float], mean: [Float], invStd: [Float], clamp range: ClosedRange<Float>?) {
        self.input = input
        groups = RowGroups(shape: input.shape)
        let c = groups.channels
        let coefficients = Storage(count: 4 * c)
        for (k, values) in [a, b, mean, invStd].enumerated() {
            values.withUnsafeBufferPointer { (coefficients.pointer + k * c).update(from: $0.baseAddress!, count: c) }
        }
        self.coefficients = coefficients
        (lower, upper) = (range?.lowerBound ?? -.infinity, range?.upperBound ?? .infinity)
        clamped = range != nil
    }

    /// A new gradient buffer (fresh, or one taken over from another gradient): its first writer may gather from it.
    func reset(buffer: UnsafePointer<Float>) {
        if partialStorage == nil { partialStorage = Storage(count: groups.count * 2 * groups.channels) }
        groups.clear()
        self.buffer = buffer
    }

    /// Another writer adds to the gradient: what was gathered no longer sums it.
    func invalidate() { buffer = nil }

    /// Adds every group lying wholly inside `range` of the gradient `g`, once its rows are final.
    /// Safe to call concurrently on disjoint ranges.
    func gather(_ g: UnsafePointer<Float>, rows range: Range<Int>) {
        guard g == buffer else { return }
        groups.forEachNew(inside: range) { sumGroup($0, g) }
    }

    /// The sums over the whole gradient `g`, per channel in double: those gathered from it, and the rest summed now.
    func finish(_ g: UnsafePointer<Float>) -> (sumG: [Double], sumGXhat: [Double]) {
        if g != buffer { reset(buffer: g) }
        gatheredByWriter = groups.forEachMissing { sumGroup($0, g) }
        buffer = nil  // a later backward pass writes a new buffer
        let c = groups.channels
        var s1 = [Double](repeating: 0, count: c), s2 = s1
        s1.withUnsafeMutableBufferPointer { t1 in
            s2.withUnsafeMutableBufferPointer { t2 in
                let (t1, t2) = (t1.baseAddress!, t2.baseAddress!)
                for group in 0..<groups.count {
                    let (sumG, sumGXhat) = (partial.pointer + group * 2 * c, partial.pointer + group * 2 * c + c)
                    for j in 0..<c { t1[j] += Double(sumG[j]); t2[j] += Double(sumGXhat[j]) }  // base pointers: vectorises
                }
            }
        }
        return (s1, s2)
    }

    /// Sums group `group` of `g` into its slot, four rows at a time in independent chains.
    private func sumGroup(_ group: Int, _ g: UnsafePointer<Float>) {
        let c = groups.channels
        let span = groups.rows(of: group)
        let (start, count) = (span.lowerBound, span.count)
        let x = input.pointer + start * c, gs = g + start * c
        let out = partial.pointer + group * 2 * c
        if c % 8 == 0 {
            // 16 channels (a whole cache line of each row) per walk down the group where they fit:
            // with 8, two walks each read half of every line, and rows a power-of-two apart share
            // few L1 sets. Each lane does the same arithmetic either way, so the bits do not change.
            var j = 0
            while j + 16 <= c { sumLanes(SIMD16<Float>.self, channel: j, x: x, g: gs, rows: count, into: out); j += 16 }
            while j < c { sumLanes(SIMD8<Float>.self, channel: j, x: x, g: gs, rows: count, into: out); j += 8 }
        } else {
            let (pa, pb, pm, pi) = (coefficients.pointer, coefficients.pointer + c, coefficients.pointer + 2 * c, coefficients.pointer + 3 * c)
            out.update(repeating: 0, count: 2 * c)
            for row in 0..<count {
                let xr = x + row * c, gr = gs + row * c
                for j in 0..<c {
                    let z = xr[j] * pa[j] + pb[j]
                    let gj = !clamped || (z > lower && z < upper) ? gr[j] : 0
                    out[j] += gj; out[c + j] += gj * ((xr[j] - pm[j]) * pi[j])
                }
            }
        }
    }

    /// Channels j..<j + lanes of a group (`rows` rows of `x` and `g`): their sum of g and of g * xhat
    /// into `out` and `out + c`.
    @inline(__always)
    private func sumLanes<V: MaskingLanes>(_: V.Type, channel j: Int, x: UnsafePointer<Float>, g: UnsafePointer<Float>,
                                                    rows count: Int, into out: UnsafeMutablePointer<Float>) {
        let c = groups.channels
        let p = coefficients.pointer + j
        let (a, b, m, i) = (V(loading: p), V(loading: p + c), V(loading: p + 2 * c), V(loading: p + 3 * c))
        let (lo, hi) = (V(repeating: lower), V(repeating: upper))
        @inline(__always) func passed(_ q: Int) -> (V, V) {
            let xv = V(loading: x + q), gv = V(loading: g + q)
            guard clamped else { return (gv, (xv - m) * i) }
            let z = xv * a + b
            return (gv.kept(where: z, inside: lo, hi), (xv - m) * i)
        }
        var (s0, s1, s2, s3) = (V(), V(), V(), V())
        var (t0, t1, t2, t3) = (V(), V(), V(), V())
        var row = 0
        while row + 4 <= count {
            let q = row * c + j
            let (g0, h0) = passed(q), (g1, h1) = passed(q + c), (g2, h2) = passed(q + 2 * c), (g3, h3) = passed(q + 3 * c)
            s0 += g0; s1 += g1; s2 += g2; s3 += g3
            t0 = t0.addingProduct(g0, h0); t1 = t1.addingProduct(g1, h1)
            t2 = t2.addingProduct(g2, h2); t3 = t3.addingProduct(g3, h3)
            row += 4
        }
        while row < count {
            let (g0, h0) = passed(row * c + j)
            s0 += g0; t0 = t0.addingProduct(g0, h0)
            row += 1
        }
        ((s0 + s1) + (s2 + s3)).store(to: out + j)
        ((t0 + t1) + (t2 + t3)).store(to: out + c + j)
    }
}

/// Float lanes that keep their values where another vector lies strictly inside a range. Written out
/// per concrete type: in a generic function the mask operations ran lane by lane (batch norm backward 6-17x slower).
protocol MaskingLanes: SIMD & WinogradLanes where Scalar == Float {
    /// These lanes where lo < z < hi, zero elsewhere.
    func kept(where z: Self, inside lo: Self, _ hi: Self) -> Self
}

extension SIMD8: MaskingLanes where Scalar == Float {
    @inline(__always) func kept(where z: Self, inside lo: Self, _ hi: Self) -> Self { Self().replacing(with: self, where: (z .> lo) .& (z .< hi)) }
}

extension SIMD16: MaskingLanes where Scalar == Float {
    @inline(__always) func kept(where z: Self, inside lo: Self, _ hi: Self) -> Self { Self().replacing(with: self, where: (z .> lo) .& (z .< hi)) }
}
