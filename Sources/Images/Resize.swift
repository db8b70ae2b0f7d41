import Boxes

/// How an image of another size was fitted into a storage size: scaled by
/// `scale` (the same on both axes) and placed at the top-left, the rest padded.
public struct Letterbox: Equatable, Sendable {
    public let original: Size
    public let target: Size
    public let scale: Float

    /// The largest scale at which `original` fits in `target`.
    public init(original: Size, target: Size) {
        self.original = original
        self.target = target
        scale = min(Float(target.width) / Float(original.width), Float(target.height) / Float(original.height))
    }

    /// The size the original is scaled to: the target's top-left part that holds the picture, the rest padding.
    public var content: Size {
        Size(width: max(1, min(target.width, Int((Float(original.width) * scale).rounded()))),
             height: max(1, min(target.height, Int((Float(original.height) * scale).rounded()))))
    }

    /// A box in original pixels mapped into the target.
    public func forward(_ box: Box) -> Box { box.transformed(scaleX: scale, scaleY: scale) }

    /// A box in target pixels mapped back to original pixels.
    public func backward(_ box: Box) -> Box { box.transformed(scaleX: 1 / scale, scaleY: 1 / scale) }
}

extension RGBImage {
    /// Bilinear resampling to `newSize` (pixel centres aligned, as OpenCV's INTER_LINEAR).
    ///
    /// Shrinking by more than 2x first averages 2x2 blocks, so that thin
    /// lines and text do not alias away.
    public func resized(to newSize: Size) -> RGBImage {
        if newSize == size { return self }
        return resized(to: newSize, columns: 0..<newSize.width, rows: 0..<newSize.height)
    }

    /// The pixels `columns` x `rows` of `resized(to: newSize)`, computed alone: a zoom that is
    /// cropped back to size resamples only what stays visible.
    public func resized(to newSize: Size, columns: Range<Int>, rows: Range<Int>) -> RGBImage {
        precondition(columns.lowerBound >= 0 && columns.upperBound <= newSize.width && rows.lowerBound >= 0 && rows.upperBound <= newSize.height,
                     "resize window \(columns) x \(rows) outside \(newSize)")
        var source = self
        while source.width >= 2 * newSize.width && source.height >= 2 * newSize.height {
            source = source.halved()
        }
        return source.bilinear(to: newSize, columns: columns, rows: rows)
    }

    /// Fits the image into `target` keeping its aspect ratio; pads right and bottom with `fill`.
    public func letterboxed(into target: Size, fill: RGB = RGB(0, 0, 0)) -> (image: RGBImage, letterbox: Letterbox) {
        let lb = Letterbox(original: size, target: target)
        let scaled = resized(to: lb.content)
        var out = RGBImage(size: target, fill: fill)
        out.paste(scaled, x: 0, y: 0)
        return (out, lb)
    }

    /// Copies `other` with its top-left corner at (x, y), clipped to this image.
    public mutating func paste(_ other: RGBImage, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + other.width), y1 = min(height, y + other.height)
        guard x1 > x0, y1 > y0 else { return }
        let w = width, ow = other.width
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for yy in y0..<y1 {
                    let s = ((yy - y) * ow + (x0 - x)) * 3, d = (yy * w + x0) * 3
                    for i in 0..<((x1 - x0) * 3) { dst[d + i] = src[s + i] }
                }
            }
        }
    }

    private func halved() -> RGBImage {
        let nw = width / 2, nh = height / 2
        var out = [UInt8](repeating: 0, count: nw * nh * 3)
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<nh {
                for x in 0..<nw {
                    for c in 0..<3 {
                        let a = Int(p[((2 * y) * width + 2 * x) * 3 + c]) + Int(p[((2 * y) * width + 2 * x + 1) * 3 + c])
                        let b = Int(p[((2 * y + 1) * width + 2 * x) * 3 + c]) + Int(p[((2 * y + 1) * width + 2 * x + 1) * 3 + c])
                        out[(y * nw + x) * 3 + c] = UInt8((a + b + 2) / 4)
                    }
                }
            }
        }
        return RGBImage(size: Size(width: nw, height: nh), pixels: out)
    }

    private func bilinear(to newSize: Size, columns: Range<Int>, rows: Range<Int>) -> RGBImage {
        let (nw, nh) = (newSize.width, newSize.height)
        let sx = Float(width) / Float(nw), sy = Float(height) / Float(nh)
        let ow = columns.count
        // Per output column: the byte offsets of its two source columns and the right one's weight, computed once.
        var left = [Int](repeating: 0, count: ow), right = [Int](repeating: 0, count: ow), wxs = [Float](repeating: 0, count: ow)
        for (i, x) in columns.enumerated() {
            let fx = max(0, (Float(x) + 0.5) * sx - 0.5)
            let x0 = min(Int(fx), width - 1)
            left[i] = 3 * x0
            right[i] = 3 * min(x0 + 1, width - 1)
            wxs[i] = fx - Float(x0)
        }
        var out = [UInt8](repeating: 0, count: ow * rows.count * 3)
        pixels.withUnsafeBufferPointer { p in
        out.withUnsafeMutableBufferPointer { o in
        left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in
        wxs.withUnsafeBufferPointer { wxs in
            for (j, y) in rows.enumerated() {
                let fy = max(0, (Float(y) + 0.5) * sy - 0.5)
                let y0 = min(Int(fy), height - 1), y1 = min(y0 + 1, height - 1)
                let wy = fy - Float(y0)
                let top = p.baseAddress! + y0 * width * 3, bottom = p.baseAddress! + y1 * width * 3
                let row = o.baseAddress! + j * ow * 3
                for i in 0..<ow {
                    let (a, b, wx) = (left[i], right[i], wxs[i])
                    for c in 0..<3 {
                        let t = Float(top[a + c]) * (1 - wx) + Float(top[b + c]) * wx
                        let u = Float(bottom[a + c]) * (1 - wx) + Float(bottom[b + c]) * wx
                        row[3 * i + c] = roundedByte(t * (1 - wy) + u * wy)
                    }
                }
            }
        }
        }
        }
        }
        }
        return RGBImage(size: Size(width: ow, height: rows.count), pixels: out)
    }
}

/// `v` rounded half away from zero and clamped to a byte, without the library call that
/// `Float.rounded()` becomes: clamping first makes it non-negative, where adding 0.5 and
/// truncating rounds the same way.
@inline(__always)
public func roundedByte(_ v: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: Int32(Swift.min(255, Swift.max(0, v)) + 0.5))
}
