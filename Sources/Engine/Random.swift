import Foundation

/// A seeded, portable random generator (xoshiro256**, seeded by SplitMix64).
///
/// The same seed gives the same sequence on every machine, unlike
/// `SystemRandomNumberGenerator`.
public struct SeededGenerator: RandomNumberGenerator {
    private var s0, s1, s2, s3: UInt64

    /// A generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

extension RandomNumberGenerator {
    /// A uniform double in [0, 1) with 53 random bits.
    @inline(__always)
    mutating func nextUnitDouble() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}

/// Fills `count` floats with N(mean, std^2) samples (Box-Muller in double precision).
func fillNormal<G: RandomNumberGenerator>(
    _ p: UnsafeMutablePointer<Float>, count: Int, mean: Float, std: Float, using g: inout G
) {
    var i = 0
    while i < count {
        let u1 = 1 - g.nextUnitDouble()  // (0, 1]: log is finite
        let u2 = g.nextUnitDouble()
        let r = (-2 * log(u1)).squareRoot()
        let a = 2 * Double.pi * u2
        p[i] = mean + std * Float(r * cos(a))
        if i + 1 < count { p[i + 1] = mean + std * Float(r * sin(a)) }
        i += 2
    }
}

