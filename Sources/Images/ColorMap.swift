/// Per-pixel colour arithmetic over the interleaved RGB bytes, in loops that vectorise.
///
/// Interleaved pixels do not line up with vector lanes, so the colour map runs over the bytes
/// as one flat stream: output byte k of channel c = k % 3 combines the bytes k - c, k - c + 1,
/// k - c + 2 of its pixel, that is bytes k + d for d in -2...2 with a coefficient that depends
/// on d and c only. The coefficients repeat every 3 bytes; over groups of 48 bytes (16 pixels,
/// whole vectors) each tap's coefficients are one fixed row, so the inner loop is plain
/// contiguous arithmetic.
extension RGBImage {
    /// The image with every pixel v mapped to `matrix` * v + `offset` (row-major 3x3), rounded
    /// half up and clamped to bytes: the same bytes as the per-pixel formula
    /// `m0 * r + m1 * g + m2 * b + offset`, summed in that order.
    public func colorMapped(matrix m: [Float], offset: Float) -> RGBImage {
        precondition(m.count == 9, "a 3x3 colour matrix has 9 entries")
        let n = pixels.count
        // taps[d + 2][j]: the coefficient of byte k + d for output byte k at position j of a 48-byte group.
        var taps = [Float](repeating: 0, count: 5 * 48)
        for d in -2...2 {
            for j in 0..<48 {
                let c = j % 3, source = c + d
                if source >= 0 && source < 3 { taps[(d + 2) * 48 + j] = m[3 * c + source] }
            }
        }
        // Two zero bytes either side, and a group's room after the end, so every shifted read stays inside.
        var padded = [UInt8](repeating: 0, count: n + 4 + 48)
        padded.withUnsafeMutableBufferPointer { p in
            pixels.withUnsafeBufferPointer { (p.baseAddress! + 2).update(from: $0.baseAddress!, count: n) }
        }
        var out = [UInt8](repeating: 0, count: n + 48)
        padded.withUnsafeBufferPointer { src in
        out.withUnsafeMutableBufferPointer { dst in
        taps.withUnsafeBufferPointer { taps in
            let (s, o, t) = (src.baseAddress! + 2, dst.baseAddress!, taps.baseAddress!)
            for group in stride(from: 0, to: n, by: 48) {
                let (b, r) = (s + group, o + group)
                for j in 0..<48 {
                    // The per-pixel formula's order: the zero taps add nothing.
                    let v = Float(b[j - 2]) * t[j] + Float(b[j - 1]) * t[48 + j] + Float(b[j]) * t[96 + j]
                        + Float(b[j + 1]) * t[144 + j] + Float(b[j + 2]) * t[192 + j] + offset
                    r[j] = nearbyByte(v)
                }
            }
        }
        }
        }
        out.removeLast(48)
        return RGBImage(size: size, pixels: out)
    }

    /// The sum of each channel over all pixels (red, green, blue).
    public var channelSums: (Int, Int, Int) {
        let n = pixels.count
        var sums = [0, 0, 0]
        // 48 lane sums (16 pixels), folded into Int every 2^20 groups, before a lane could pass 2^32.
        var lanes = [UInt32](repeating: 0, count: 48)
        pixels.withUnsafeBufferPointer { p in
        lanes.withUnsafeMutableBufferPointer { lanes in
            let (p, lanes) = (p.baseAddress!, lanes.baseAddress!)
            var k = 0
            while k + 48 <= n {
                let end = Swift.min(n - (n - k) % 48, k + 48 * (1 << 20))
                while k < end {
                    for j in 0..<48 { lanes[j] &+= UInt32(p[k + j]) }
                    k += 48
                }
                for j in 0..<48 { sums[j % 3] += Int(lanes[j]); lanes[j] = 0 }
            }
            while k < n { sums[k % 3] += Int(p[k]); k += 1 }
        }
        }
        return (sums[0], sums[1], sums[2])
    }
}

/// `v` rounded half up (floor(v + 0.5)) and clamped to a byte, for `v` within +-4 million (every
/// pixel computation's range), in arithmetic a loop vectorises: the rounding by a magic number and
/// the clamp on integers, where a float-to-integer conversion is range-checked and a float clamp's
/// NaN rules keep the loop scalar.
@inlinable @inline(__always)
public func nearbyByte(_ v: Float) -> UInt8 {
    let y = v + 0.5
    // Adding 1.5 * 2^23 leaves y's nearest integer in the low mantissa bits; one less where
    // that rounded up is floor(y).
    let magic = y + 12_582_912
    let floor = Int32(bitPattern: magic.bitPattern) &- 0x4B40_0000 &- (magic - 12_582_912 > y ? 1 : 0)
    return UInt8(truncatingIfNeeded: Swift.min(Swift.max(floor, 0), 255))
}
