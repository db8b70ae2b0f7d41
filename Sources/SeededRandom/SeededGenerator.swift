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
    @inlinable
    @inline(__always)
    public mutating func nextUnitDouble() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}


extension SeededGenerator {
    /// A generator for item `index` of a stream seeded by `seed`: the same
    /// pair gives the same sequence whatever order items are produced in,
    /// which keeps multi-threaded producers deterministic.
    public init(seed: UInt64, index: UInt64) {
        var mixer = SeededGenerator(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        self.init(seed: mixer.next())
    }

    /// A uniform Float in `range`.
    public mutating func uniform(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + (range.upperBound - range.lowerBound) * Float(next() >> 40) * 0x1.0p-24
    }

    /// A uniform integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { nextUnitDouble() < p }

    /// A random element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
