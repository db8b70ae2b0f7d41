import Boxes
import Images

/// The whole pixels a box covers, clipped to the image: x0..<x1, y0..<y1.
struct PixelRect: Equatable {
    let x0, y0, x1, y1: Int

    init(_ box: Box, in size: Size) {
        x0 = max(0, Int(box.xMin.rounded(.down)))
        y0 = max(0, Int(box.yMin.rounded(.down)))
        x1 = min(size.width, Int(box.xMax.rounded(.up)))
        y1 = min(size.height, Int(box.yMax.rounded(.up)))
    }

    var width: Int { max(0, x1 - x0) }
    var height: Int { max(0, y1 - y0) }
    var isEmpty: Bool { width == 0 || height == 0 }
}

/// Colours quantised to `bits` per channel (5: value >> 3) and compared in 0-255 units, as
/// step 7 counts them: anti-aliased pixels make exact colours meaningless.
struct ColorQuantiser {
    let bits: Int
    /// Two colours differ when some channel differs by more than this.
    let minDifference: Int

    var shift: Int { 8 - bits }
    var binCount: Int { 1 << (3 * bits) }

    /// The bin of a colour.
    @inline(__always)
    func bin(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        (Int(r) >> shift) << (2 * bits) | (Int(g) >> shift) << bits | Int(b) >> shift
    }

    /// The bin's channel values, each in 0..<2^bits.
    func levels(_ bin: Int) -> SIMD3<Int> {
        let mask = (1 << bits) - 1
        return SIMD3(bin >> (2 * bits) & mask, bin >> bits & mask, bin & mask)
    }

    /// The colour at the centre of a bin, in 0-255 units.
    func colour(_ bin: Int) -> SIMD3<Double> {
        let l = levels(bin)
        let half = Double(1 << shift) / 2
        return SIMD3(Double(l.x << shift) + half, Double(l.y << shift) + half, Double(l.z << shift) + half)
    }

    /// Whether two bins' colours differ by more than `minDifference` in some channel.
    func differ(_ a: Int, _ b: Int) -> Bool {
        let d = levels(a) &- levels(b)
        return max(abs(d.x), abs(d.y), abs(d.z)) << shift > minDifference
    }

    /// How many pixels of `rect` fall in each bin.
    func histogram(_ image: RGBImage, _ rect: PixelRect) -> [Int32] {
        var counts = [Int32](repeating: 0, count: binCount)
        guard !rect.isEmpty else { return counts }
        let width = image.width
        image.pixels.withUnsafeBufferPointer { p in
            counts.withUnsafeMutableBufferPointer { c in
                for y in rect.y0..<rect.y1 {
                    var i = (y * width + rect.x0) * 3
                    for _ in rect.x0..<rect.x1 {
                        c[bin(p[i], p[i + 1], p[i + 2])] += 1
                        i += 3
                    }
                }
            }
        }
        return counts
    }

    /// The background (the most frequent bin) and the tint (the most frequent bin differing from
    /// the background); lower bins win ties. nil for an empty rectangle.
    func colours(_ image: RGBImage, _ rect: PixelRect) -> (background: Int, tint: Int?)? {
        let counts = histogram(image, rect)
        var background = 0
        for k in counts.indices where counts[k] > counts[background] { background = k }
        guard counts[background] > 0 else { return nil }
        var tint: Int?
        for k in counts.indices where counts[k] > 0 && counts[k] > (tint.map { counts[$0] } ?? 0) && differ(k, background) { tint = k }
        return (background, tint)
    }

    /// The one colour that stands apart: the farthest from the per-channel median of the others,
    /// selected when it differs from that median by more than `minDifference` in some channel
    /// and none of the others does. nil when no single colour does (two colours never do: each is
    /// as far from the other).
    func outlier(_ colours: [SIMD3<Double>]) -> Int? {
        guard colours.count >= 2 else { return nil }
        func others(_ i: Int) -> [SIMD3<Double>] { colours.indices.filter { $0 != i }.map { colours[$0] } }
        let distances = colours.indices.map { Self.distance(colours[$0], Self.median(others($0))) }
        let far = distances.max()!
        let farthest = distances.indices.filter { distances[$0] == far }
        guard farthest.count == 1, far > Double(minDifference) else { return nil }
        let median = Self.median(others(farthest[0]))
        guard others(farthest[0]).allSatisfy({ Self.distance($0, median) <= Double(minDifference) }) else { return nil }
        return farthest[0]
    }

    /// The largest channel difference.
    static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z))
    }

    /// The per-channel median (the mean of the middle two for an even count).
    static func median(_ colours: [SIMD3<Double>]) -> SIMD3<Double> {
        func mid(_ v: [Double]) -> Double {
            let s = v.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        return SIMD3(mid(colours.map(\.x)), mid(colours.map(\.y)), mid(colours.map(\.z)))
    }

    /// Whether a thin bar runs under the item: in the rows from a quarter of its height above its
    /// bottom to a tenth below it, between one and max(2, 15% of its height) rows in which at
    /// least 60% of the pixels differ from the item's background.
    func hasUnderline(_ image: RGBImage, frame: Box, background: Int) -> Bool {
        let h = frame.height
        let rect = PixelRect(Box(xMin: frame.xMin, yMin: frame.yMax - 0.25 * h, xMax: frame.xMax, yMax: frame.yMax + 0.1 * h), in: image.size)
        guard !rect.isEmpty else { return false }
        let width = image.width
        var barRows = 0
        image.pixels.withUnsafeBufferPointer { p in
            for y in rect.y0..<rect.y1 {
                var differing = 0
                var i = (y * width + rect.x0) * 3
                for _ in rect.x0..<rect.x1 {
                    if differ(bin(p[i], p[i + 1], p[i + 2]), background) { differing += 1 }
                    i += 3
                }
                if Double(differing) >= 0.6 * Double(rect.width) { barRows += 1 }
            }
        }
        return barRows >= 1 && barRows <= max(2, Int(0.15 * h))
    }

    /// A page control's dots: runs of columns holding a pixel unlike the background. The current
    /// page is the dot whose colour stands apart (`outlier`). nil with fewer than two dots or when
    /// no dot stands apart.
    func pageIndicator(_ image: RGBImage, frame: Box) -> (page: Int, count: Int)? {
        let rect = PixelRect(frame, in: image.size)
        guard let background = colours(image, rect)?.background else { return nil }
        let width = image.width
        var ink = [Bool](repeating: false, count: rect.width)
        image.pixels.withUnsafeBufferPointer { p in
            for y in rect.y0..<rect.y1 {
                for x in rect.x0..<rect.x1 where !ink[x - rect.x0] {
                    let i = (y * width + x) * 3
                    if differ(bin(p[i], p[i + 1], p[i + 2]), background) { ink[x - rect.x0] = true }
                }
            }
        }
        var dots: [Range<Int>] = []
        var start: Int?
        for x in 0...ink.count {
            let on = x < ink.count && ink[x]
            if on && start == nil { start = x }
            if !on, let s = start { dots.append(s..<x); start = nil }
        }
        guard dots.count >= 2 else { return nil }
        var dotColours: [SIMD3<Double>] = []
        for dot in dots {
            let counts = histogram(image, PixelRect(Box(xMin: Float(rect.x0 + dot.lowerBound), yMin: Float(rect.y0),
                                                        xMax: Float(rect.x0 + dot.upperBound), yMax: Float(rect.y1)), in: image.size))
            var best: Int?
            for k in counts.indices where counts[k] > 0 && counts[k] > (best.map { counts[$0] } ?? 0) && differ(k, background) { best = k }
            guard let best else { return nil }
            dotColours.append(colour(best))
        }
        return outlier(dotColours).map { (page: $0 + 1, count: dots.count) }
    }
}
