import Boxes

/// Filled and outlined shapes, alpha-blended; coordinates in pixels, clipped to the image.
extension RGBImage {
    /// Blends `color` over the pixel at (x, y) with opacity `alpha` (0...1). No bounds check.
    @inline(__always)
    public mutating func blend(x: Int, y: Int, color: RGB, alpha: Float) {
        let i = (y * width + x) * 3
        if alpha >= 1 {
            pixels[i] = color.r; pixels[i + 1] = color.g; pixels[i + 2] = color.b
            return
        }
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(Float(a) + (Float(b) - Float(a)) * alpha + 0.5) }
        pixels[i] = mix(pixels[i], color.r)
        pixels[i + 1] = mix(pixels[i + 1], color.g)
        pixels[i + 2] = mix(pixels[i + 2], color.b)
    }

    /// Fills the rectangle x0..<x1, y0..<y1.
    public mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, color: RGB, alpha: Float = 1) {
        let (a, b, c, d) = (max(0, x0), max(0, y0), min(width, x1), min(height, y1))
        guard c > a, d > b else { return }
        for y in b..<d { for x in a..<c { blend(x: x, y: y, color: color, alpha: alpha) } }
    }

    /// Fills a box (rounded to whole pixels).
    public mutating func fill(_ box: Box, color: RGB, alpha: Float = 1) {
        fill(x0: Int(box.xMin.rounded()), y0: Int(box.yMin.rounded()), x1: Int(box.xMax.rounded()), y1: Int(box.yMax.rounded()),
             color: color, alpha: alpha)
    }

    /// Fills a box with rounded corners of `radius`, anti-aliased at the corners.
    public mutating func fillRounded(_ box: Box, radius: Float, color: RGB, alpha: Float = 1) {
        let r = max(0, min(radius, min(box.width, box.height) / 2))
        let x0 = max(0, Int(box.xMin.rounded(.down))), x1 = min(width, Int(box.xMax.rounded(.up)))
        let y0 = max(0, Int(box.yMin.rounded(.down))), y1 = min(height, Int(box.yMax.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        for y in y0..<y1 {
            let py = Float(y) + 0.5
            for x in x0..<x1 {
                let px = Float(x) + 0.5
                // Distance outside the rounded rectangle, via the nearest corner centre.
                let cx = min(max(px, box.xMin + r), box.xMax - r), cy = min(max(py, box.yMin + r), box.yMax - r)
                let d = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot() - r
                let edge = min(px - box.xMin, box.xMax - px, py - box.yMin, box.yMax - py)
                let coverage = min(1, max(0, 0.5 - d), max(0, min(1, edge + 0.5)))
                if coverage > 0 { blend(x: x, y: y, color: color, alpha: alpha * coverage) }
            }
        }
    }

    /// Fills a circle, anti-aliased.
    public mutating func fillCircle(centerX: Float, centerY: Float, radius: Float, color: RGB, alpha: Float = 1) {
        fillRounded(Box(xMin: centerX - radius, yMin: centerY - radius, xMax: centerX + radius, yMax: centerY + radius),
                    radius: radius, color: color, alpha: alpha)
    }

    /// Outlines a box with lines `thickness` pixels wide, drawn inside the box.
    public mutating func stroke(_ box: Box, color: RGB, thickness: Int = 1, alpha: Float = 1) {
        let x0 = Int(box.xMin.rounded()), y0 = Int(box.yMin.rounded()), x1 = Int(box.xMax.rounded()), y1 = Int(box.yMax.rounded())
        fill(x0: x0, y0: y0, x1: x1, y1: y0 + thickness, color: color, alpha: alpha)
        fill(x0: x0, y0: y1 - thickness, x1: x1, y1: y1, color: color, alpha: alpha)
        fill(x0: x0, y0: y0 + thickness, x1: x0 + thickness, y1: y1 - thickness, color: color, alpha: alpha)
        fill(x0: x1 - thickness, y0: y0 + thickness, x1: x1, y1: y1 - thickness, color: color, alpha: alpha)
    }

    /// Draws a box outline `thickness` pixels wide in `color`, edged on both sides by a 1-pixel line of
    /// a contrasting shade (black beside light colours, white beside dark ones) so that it shows on light
    /// and dark screens alike, and a filled tag holding `label` above its top-left corner. The tag stays
    /// inside the image: inside the box where there is no room above, and moved left at the right edge.
    public mutating func annotate(_ box: Box, label: String, color: RGB, font: Font, pixelSize: Int = 10, thickness: Int = 2) {
        let contrast: RGB = color.luminance > 0.5 ? RGB(0, 0, 0) : RGB(255, 255, 255)
        let x0 = Int(box.xMin.rounded()), y0 = Int(box.yMin.rounded()), x1 = Int(box.xMax.rounded()), y1 = Int(box.yMax.rounded())
        let t = max(1, thickness)
        stroke(Box(xMin: Float(x0 - 1), yMin: Float(y0 - 1), xMax: Float(x1 + 1), yMax: Float(y1 + 1)), color: contrast, thickness: 1, alpha: 0.75)
        if x1 - x0 > 2 * t + 2 && y1 - y0 > 2 * t + 2 {
            stroke(Box(xMin: Float(x0 + t), yMin: Float(y0 + t), xMax: Float(x1 - t), yMax: Float(y1 - t)), color: contrast, thickness: 1, alpha: 0.75)
        }
        stroke(Box(xMin: Float(x0), yMin: Float(y0), xMax: Float(x1), yMax: Float(y1)), color: color, thickness: t)
        let textWidth = font.width(of: label, pixelSize: pixelSize)
        let tagWidth = textWidth + 4, tagHeight = pixelSize + 3
        let x = max(0, min(x0, width - tagWidth))
        let top = y0 - tagHeight >= 0 ? y0 - tagHeight : max(0, min(y0, height - tagHeight))
        fill(x0: x, y0: top, x1: x + tagWidth, y1: top + tagHeight, color: color, alpha: 0.9)
        let ink: RGB = color.luminance > 0.55 ? RGB(0, 0, 0) : RGB(255, 255, 255)
        draw(text: label, x: x + 2, baseline: top + pixelSize, font: font, pixelSize: pixelSize, color: ink)
    }
}
