/// Exponential and log1p on 16 lanes at once, for the losses' hot loops.
///
/// libm's `expf` and `log1pf` are scalar calls (about 10-20 ns each): the focal loss makes two
/// per logit, 3.3 million logits a step at the real-screen recipe's size, which cost more than a
/// third of the step's loss and matching. These are the Cephes polynomials (relative error about
/// 2e-7 over the ranges below), written with SIMD types so that one call covers 16 logits.
enum VectorMath {
    /// e^t for t <= 0 (a t below -87 gives e^-87, about 1.6e-38; the losses add it to 1).
    @inline(__always)
    static func expNonPositive(_ t: SIMD16<Float>) -> SIMD16<Float> {
        let t = clamped(t, -87, 0)
        // Adding 1.5 * 2^23 rounds t log2(e) to the nearest integer n and leaves n in the low
        // mantissa bits, from which 2^n is built without a (range-checked) float-to-int conversion.
        let magic = t * 1.44269504088896341 + 12582912
        let n = magic - 12582912
        // ln 2 split in two so that r = t - n ln 2 keeps its low bits (Cephes' C1, C2).
        let r = t - n * 0.693359375 + n * 2.12194440e-4
        var p = SIMD16<Float>(repeating: 1.9875691500e-4)
        p = p * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        p = p * (r * r) + r + 1
        let bits = unsafeBitCast(magic, to: SIMD16<UInt32>.self)
        var scaleBits = SIMD16<UInt32>()
        for i in 0..<16 { scaleBits[i] = (bits[i] &- 0x4B40_0000 &+ 127) &<< 23 }
        return p * unsafeBitCast(scaleBits, to: SIMD16<Float>.self)
    }

    /// `v` clamped lane by lane to [lower, upper]. The standard library's generic `clamped`,
    /// `pointwiseMin`/`pointwiseMax` and integer conversions are not inlined and cost a call per
    /// lane; these lane loops compile to a few vector instructions.
    @inline(__always)
    static func clamped(_ v: SIMD16<Float>, _ lower: Float, _ upper: Float) -> SIMD16<Float> {
        var r = v
        for i in 0..<16 { r[i] = Swift.min(Swift.max(r[i], lower), upper) }
        return r
    }

    /// log(1 + e) for e in [0, 1], accurate relative to the result also for tiny e.
    @inline(__always)
    static func log1pUnit(_ e: SIMD16<Float>) -> SIMD16<Float> {
        // log(1 + e) = k ln 2 + 2 atanh(f / (2 + f)) with 1 + f = (1 + e) / 2^k, |f| <= 0.293:
        // f = e itself below sqrt(2) - 1 (no rounding of 1 + e, so tiny e keep their digits).
        let high = e .> 0.41421356
        let f = e.replacing(with: (e - 1) * 0.5, where: high)
        let s = f / (f + 2)
        let s2 = s * s
        var q = SIMD16<Float>(repeating: 1.0 / 11)
        q = q * s2 + 1.0 / 9
        q = q * s2 + 1.0 / 7
        q = q * s2 + 1.0 / 5
        q = q * s2 + 1.0 / 3
        q = q * s2 + 1
        let atanh2 = 2 * s * q
        return atanh2 + SIMD16<Float>(repeating: 0).replacing(with: 0.69314718055994531, where: high)
    }
}
