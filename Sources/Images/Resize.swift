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
        var source = self
        while source.width >= 2 * newSize.width && source.height >= 2 * newSize.height {
            source = source.halved()
        }
        return source.bilinear(to: newSize)
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

    private func bilinear(to newSize: Size) -> RGBImage {
        let (nw, nh) = (newSize.width, newSize.height)
        let sx = Float(width) / Float(nw), sy = Float(height) / Float(nh)
        // Per output column: left source column and weight, computed once.
        var x0s = [Int](repeating: 0, count: nw), wxs = [Float](repeating: 0, count: nw)
        for x in 0..<nw {
            let fx = max(0, (Float(x) + 0.5) * sx - 0.5)
            x0s[x] = min(Int(fx), width - 1)
            wxs[x] = fx - Float(x0s[x])
        }
        var out = [UInt8](repeating: 0, count: nw * nh * 3)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<nh {
                    let fy = max(0, (Float(y) + 0.5) * sy - 0.5)
                    let y0 = min(Int(fy), height - 1), y1 = min(y0 + 1, height - 1)
                    let wy = fy - Float(y0)
                    for x in 0..<nw {
                        let xa = x0s[x], xb = min(xa + 1, width - 1), wx = wxs[x]
                        for c in 0..<3 {
                            let top = Float(p[(y0 * width + xa) * 3 + c]) * (1 - wx) + Float(p[(y0 * width + xb) * 3 + c]) * wx
                            let bottom = Float(p[(y1 * width + xa) * 3 + c]) * (1 - wx) + Float(p[(y1 * width + xb) * 3 + c]) * wx
                            o[(y * nw + x) * 3 + c] = UInt8(max(0, min(255, (top * (1 - wy) + bottom * wy).rounded())))
                        }
                    }
                }
            }
        }
        return RGBImage(size: newSize, pixels: out)
    }
}
