import Boxes

/// An 8-bit RGB image, row-major, 3 bytes per pixel, origin top-left.
public struct RGBImage: Equatable, Sendable {
    public let size: Size
    /// `size.height * size.width * 3` bytes: row y, column x, channel c at `(y * width + x) * 3 + c`.
    public var pixels: [UInt8]

    public var width: Int { size.width }
    public var height: Int { size.height }

    /// An image filled with one colour.
    public init(size: Size, fill: RGB = RGB(0, 0, 0)) {
        self.size = size
        var p = [UInt8](repeating: fill.r, count: size.width * size.height * 3)
        if fill.g != fill.r || fill.b != fill.r {
            p.withUnsafeMutableBufferPointer { p in
                for i in 0..<(size.width * size.height) { p[3 * i + 1] = fill.g; p[3 * i + 2] = fill.b }
            }
        }
        pixels = p
    }

    /// An image wrapping `pixels` (row-major RGB).
    public init(size: Size, pixels: [UInt8]) {
        precondition(pixels.count == size.width * size.height * 3, "\(pixels.count) bytes for a \(size) RGB image")
        self.size = size
        self.pixels = pixels
    }

    /// The colour at (x, y).
    public func pixel(x: Int, y: Int) -> RGB {
        let i = (y * width + x) * 3
        return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// The rectangle x0..<x1, y0..<y1 as a new image.
    public func cropped(x0: Int, y0: Int, x1: Int, y1: Int) -> RGBImage {
        let (cx0, cy0) = (max(0, x0), max(0, y0))
        let (cx1, cy1) = (min(width, x1), min(height, y1))
        let w = max(0, cx1 - cx0), h = max(0, cy1 - cy0)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let s = ((cy0 + y) * width + cx0) * 3
                    (dst.baseAddress! + y * w * 3).update(from: src.baseAddress! + s, count: w * 3)
                }
            }
        }
        return RGBImage(size: Size(width: w, height: h), pixels: out)
    }
}

/// An 8-bit RGB colour.
public struct RGB: Equatable, Hashable, Sendable {
    public var r, g, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }

    /// A colour from 0xRRGGBB.
    public init(hex: UInt32) { self.init(UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF)) }

    /// This colour moved towards `other` by `t` (0 = self, 1 = other).
    public func mixed(with other: RGB, _ t: Float) -> RGB {
        func m(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(max(0, min(255, (Float(a) + (Float(b) - Float(a)) * t).rounded()))) }
        return RGB(m(r, other.r), m(g, other.g), m(b, other.b))
    }

    /// Relative luminance in 0...1 (Rec. 601 weights).
    public var luminance: Float { (0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)) / 255 }
}

extension RGB {
    /// A colour from hue (0...1, wrapping), saturation and value (0...1).
    public init(hue: Float, saturation s: Float, value v: Float) {
        let h = (hue - hue.rounded(.down)) * 6
        let i = Int(h) % 6, f = h - Float(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (Float, Float, Float)
        switch i {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        self.init(UInt8(r * 255), UInt8(g * 255), UInt8(b * 255))
    }
}
