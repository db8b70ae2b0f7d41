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
                    (dst.baseAddress! + d).update(from: src.baseAddress! + s, count: (x1 - x0) * 3)
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

    /// Separable bilinear resampling: each source row the window needs is resampled along x
    /// once (the two rows an output row blends are reused by the next output rows that share
    /// them), then output rows are blends of two such rows, a loop that vectorises. The
    /// arithmetic is the per-pixel formula's (x first, then y), so results are the same bytes.
    private func bilinear(to newSize: Size, columns: Range<Int>, rows: Range<Int>) -> RGBImage {
        let (nw, nh) = (newSize.width, newSize.height)
        let sx = Float(width) / Float(nw), sy = Float(height) / Float(nh)
        let span = 3 * columns.count
        // Per output byte: the offsets of its two source bytes in a row and the right one's weight, computed once.
        var left = [Int](repeating: 0, count: span), right = [Int](repeating: 0, count: span), wxs = [Float](repeating: 0, count: span)
        for (i, x) in columns.enumerated() {
            let fx = max(0, (Float(x) + 0.5) * sx - 0.5)
            let x0 = min(Int(fx), width - 1)
            for c in 0..<3 {
                left[3 * i + c] = 3 * x0 + c
                right[3 * i + c] = 3 * min(x0 + 1, width - 1) + c
                wxs[3 * i + c] = fx - Float(x0)
            }
        }
        var out = [UInt8](repeating: 0, count: span * rows.count)
        let resampled = UnsafeMutablePointer<Float>.allocate(capacity: 2 * span)
        defer { resampled.deallocate() }
        pixels.withUnsafeBufferPointer { p in
        out.withUnsafeMutableBufferPointer { o in
        left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in
        wxs.withUnsafeBufferPointer { wxs in
            let (left, right, wxs) = (left.baseAddress!, right.baseAddress!, wxs.baseAddress!)
            func resample(row y: Int, into d: UnsafeMutablePointer<Float>) {
                let src = p.baseAddress! + y * width * 3
                for k in 0..<span { d[k] = Float(src[left[k]]) * (1 - wxs[k]) + Float(src[right[k]]) * wxs[k] }
            }
            // The source rows held in `upper` and `lower` (-1: none yet).
            var (upper, lower) = (resampled, resampled + span)
            var (upperRow, lowerRow) = (-1, -1)
            for (j, y) in rows.enumerated() {
                let fy = max(0, (Float(y) + 0.5) * sy - 0.5)
                let y0 = min(Int(fy), height - 1), y1 = min(y0 + 1, height - 1)
                let wy = fy - Float(y0)
                if y0 == lowerRow { swap(&upper, &lower); swap(&upperRow, &lowerRow) }
                if y0 != upperRow { resample(row: y0, into: upper); upperRow = y0 }
                if y1 != lowerRow { resample(row: y1, into: lower); lowerRow = y1 }
                let row = o.baseAddress! + j * span
                for k in 0..<span { row[k] = nearbyByte(upper[k] * (1 - wy) + lower[k] * wy) }
            }
        }
        }
        }
        }
        }
        return RGBImage(size: Size(width: columns.count, height: rows.count), pixels: out)
    }
}
