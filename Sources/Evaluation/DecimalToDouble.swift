/// Decimal numbers to the correctly rounded double without strtod, for the decimals detection
/// files are full of: a detector's float score printed as a double has 16-17 significant digits
/// ("0.8294500112533569"), past Clinger's fast path (mantissa <= 2^53), and strtod costs several
/// times the rest of a record.
///
/// The quotient m / 10^e is first computed in double (within two units in the last place), then
/// checked exactly in integers against the midpoints between it and its neighbours, and moved to the
/// neighbour where the check says so; a value on a midpoint goes to the even neighbour (IEEE's
/// rounding, as strtod's).
enum DecimalToDouble {
    /// m / 10^e correctly rounded, for m < 2^64 and 0 <= e <= 22; nil outside the range the exact
    /// check covers (values below about 2^-70 or from 2^54 up, zero), where the caller falls back to strtod.
    static func quotient(_ m: UInt64, _ e: Int) -> Double? {
        guard m != 0, e >= 0, e <= 22 else { return nil }
        var c = Double(m) / powersOfTen[e]
        let tenToE = widePowersOfTen[e]
        let scaledM = { (shift: Int) -> Wide in Wide(m) << shift }
        for _ in 0..<4 {
            guard c.isNormal, c.exponent >= -70, c.exponent <= 53 else { return nil }
            // c = M * 2^E with M in [2^52, 2^53).
            let M = c.significandBitPattern | (1 << 52)
            let E = Int(c.exponent) - 52
            // v = m / 10^e against the upper midpoint (2M + 1) 2^(E-1): m 2^(1-E) against (2M + 1) 10^e.
            let left = scaledM(1 - E)
            let upper = left.compare(tenToE * (2 * M + 1))
            // And against the lower one, (2M - 1) 2^(E-1), or (4M - 1) 2^(E-2) when M = 2^52
            // (below it the spacing halves).
            let lower = M == 1 << 52 ? scaledM(2 - E).compare(tenToE * (4 * M - 1)) : left.compare(tenToE * (2 * M - 1))
            if upper < 0 && lower > 0 { return c }
            if upper > 0 { c = c.nextUp; continue }
            if lower < 0 { c = c.nextDown; continue }
            // On a midpoint: the neighbour with the even significand.
            if M & 1 == 0 { return c }
            return upper == 0 ? c.nextUp : c.nextDown
        }
        return nil
    }

    /// 10^e for e <= 22, exactly.
    static let widePowersOfTen: [Wide] = (0...22).map { Wide(powerOfTen: $0) }

    /// Exact powers of ten up to 1e22: every one is a double.
    static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { r, _ in r * 10 } }

    /// An unsigned integer of 192 bits, little-endian words: enough for m 2^(1-E) and (2M+1) 10^e here.
    struct Wide {
        var w: (UInt64, UInt64, UInt64)

        init(_ v: UInt64) { w = (v, 0, 0) }

        /// 10^e for e <= 22 (below 2^74).
        init(powerOfTen e: Int) {
            var r = Wide(1)
            for _ in 0..<e { r = r * 10 }
            self = r
        }

        /// Shifted left by `s` bits, 0 <= s < 128 (the caller keeps the value below 2^192).
        static func << (a: Wide, s: Int) -> Wide {
            precondition(s >= 0 && s < 128)
            var r = a
            var s = s
            if s >= 64 { r.w = (0, r.w.0, r.w.1); s -= 64 }
            guard s > 0 else { return r }
            r.w = (r.w.0 << s, (r.w.1 << s) | (r.w.0 >> (64 - s)), (r.w.2 << s) | (r.w.1 >> (64 - s)))
            return r
        }

        /// The product with a word (the caller keeps it below 2^192).
        static func * (a: Wide, b: UInt64) -> Wide {
            let p0 = a.w.0.multipliedFullWidth(by: b), p1 = a.w.1.multipliedFullWidth(by: b), p2 = a.w.2.multipliedFullWidth(by: b)
            var r = Wide(p0.low)
            let (s1, o1) = p0.high.addingReportingOverflow(p1.low)
            r.w.1 = s1
            r.w.2 = p1.high &+ p2.low &+ (o1 ? 1 : 0)
            return r
        }

        /// -1, 0 or 1 as `self` is below, equal to or above `b`.
        func compare(_ b: Wide) -> Int {
            if w.2 != b.w.2 { return w.2 < b.w.2 ? -1 : 1 }
            if w.1 != b.w.1 { return w.1 < b.w.1 ? -1 : 1 }
            if w.0 != b.w.0 { return w.0 < b.w.0 ? -1 : 1 }
            return 0
        }
    }
}
