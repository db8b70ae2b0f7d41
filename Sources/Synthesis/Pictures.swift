import Boxes
import Foundation
import Images
import SeededRandom

/// What a synthetic picture shows.
enum PictureKind: CaseIterable {
    /// A landscape: sky, hills, sun and blobs, a little grain.
    case photo
    /// A smooth two- or three-colour gradient.
    case gradient
    /// Head and shoulders on a plain backdrop (avatars, profiles).
    case portrait
    /// One shaded object on a light backdrop (shops).
    case product
    /// Flat shapes on a pastel backdrop (onboarding, empty states).
    case illustration
    /// Streets, blocks and water (maps, delivery).
    case map
}

/// Renders pictures as images of their own, then composites them with rounded or round clipping.
struct PictureRenderer {
    var g: SeededGenerator

    mutating func render(_ kind: PictureKind, size: Size) -> RGBImage {
        switch kind {
        case .photo: return photo(size)
        case .gradient: return gradient(size, colours: [randomColour(), randomColour(), randomColour()].prefix(g.int(2...3)).map { $0 })
        case .portrait: return portrait(size)
        case .product: return product(size)
        case .illustration: return illustration(size)
        case .map: return map(size)
        }
    }

    mutating func randomColour(saturation: ClosedRange<Float> = 0.3...0.9, value: ClosedRange<Float> = 0.35...0.95) -> RGB {
        RGB(hue: g.uniform(0...1), saturation: g.uniform(saturation), value: g.uniform(value))
    }

    /// Rows `y0..<y1` filled with one colour each, `colour(y)`.
    static func fillRows(_ image: inout RGBImage, _ y0: Int, _ y1: Int, _ colour: (Int) -> RGB) {
        let w = image.width, h = image.height
        image.pixels.withUnsafeMutableBufferPointer { p in
            for y in max(0, y0)..<min(h, y1) {
                let c = colour(y)
                var i = y * w * 3
                for _ in 0..<w { p[i] = c.r; p[i + 1] = c.g; p[i + 2] = c.b; i += 3 }
            }
        }
    }

    /// Grain: about one byte in sixteen moved by up to `amount`, from a cheap seeded sequence.
    mutating func grain(_ image: inout RGBImage, amount: Int) {
        var state = UInt32(truncatingIfNeeded: g.next()) | 1
        image.pixels.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                if state & 15 == 0 { p[i] = UInt8(max(0, min(255, Int(p[i]) + Int(state >> 24) % (2 * amount + 1) - amount))) }
            }
        }
    }

    mutating func photo(_ size: Size) -> RGBImage {
        var img = RGBImage(size: size)
        let sky = RGB(UInt8(g.int(60...220)), UInt8(g.int(80...220)), UInt8(g.int(120...255)))
        let ground = RGB(UInt8(g.int(20...180)), UInt8(g.int(40...200)), UInt8(g.int(10...160)))
        let h = Float(size.height), horizon = g.uniform(0.35...0.75)
        Self.fillRows(&img, 0, size.height) { y in
            let t = Float(y) / h
            return t < horizon ? sky.mixed(with: RGB(255, 255, 255), t * 0.6) : ground.mixed(with: RGB(0, 0, 0), (t - horizon) * 0.8)
        }
        // Hills: a wavy band above the horizon.
        let hill = ground.mixed(with: randomColour(), 0.4)
        let (amp, freq, phase) = (g.uniform(0.03...0.15) * h, g.uniform(0.5...3) * 2 * .pi / Float(size.width), g.uniform(0...6.28))
        img.pixels.withUnsafeMutableBufferPointer { p in
            for x in 0..<size.width {
                let top = max(0, Int(horizon * h - amp * (1 + sinf(Float(x) * freq + phase))))
                for y in top..<min(size.height, Int(horizon * h) + 1) {
                    let i = (y * size.width + x) * 3
                    p[i] = hill.r; p[i + 1] = hill.g; p[i + 2] = hill.b
                }
            }
        }
        for _ in 0..<g.int(1...5) {
            img.paintCircle(centerX: g.uniform(0...Float(size.width)), centerY: g.uniform(0...h), radius: g.uniform(0.06...0.3) * Float(min(size.width, size.height)),
                           color: randomColour(), alpha: g.uniform(0.5...1))
        }
        grain(&img, amount: 16)
        return img
    }

    mutating func gradient(_ size: Size, colours: [RGB]) -> RGBImage {
        var img = RGBImage(size: size)
        let angle = g.uniform(0...6.28)
        let (dx, dy) = (cosf(angle), sinf(angle))
        let w = Float(size.width), h = Float(size.height)
        let span = abs(dx) * w + abs(dy) * h
        let offset = min(0, dx * w) + min(0, dy * h)
        img.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let t = max(0, min(1, (Float(x) * dx + Float(y) * dy - offset) / max(1, span))) * Float(colours.count - 1)
                    let k = min(colours.count - 2, Int(t))
                    let c = colours[k].mixed(with: colours[k + 1], t - Float(k))
                    let i = (y * size.width + x) * 3
                    p[i] = c.r; p[i + 1] = c.g; p[i + 2] = c.b
                }
            }
        }
        return img
    }

    mutating func portrait(_ size: Size) -> RGBImage {
        let backdrop = randomColour(saturation: 0.1...0.5, value: 0.5...0.95)
        var img = RGBImage(size: size, fill: backdrop)
        let w = Float(size.width), h = Float(size.height), s = min(w, h)
        let skin = g.pick([RGB(241, 194, 125), RGB(224, 172, 105), RGB(198, 134, 66), RGB(141, 85, 36), RGB(255, 219, 172)])
        let cx = w / 2 + g.uniform(-0.1...0.1) * w
        img.paintRounded(Box(xMin: cx - 0.42 * s, yMin: h * 0.68, xMax: cx + 0.42 * s, yMax: h + 0.3 * s), radius: 0.3 * s, color: randomColour())
        img.paintCircle(centerX: cx, centerY: h * 0.42, radius: 0.22 * s, color: skin)
        img.paintRounded(Box(xMin: cx - 0.24 * s, yMin: h * 0.42 - 0.27 * s, xMax: cx + 0.24 * s, yMax: h * 0.42 - 0.05 * s), radius: 0.12 * s,
                        color: g.pick([RGB(40, 30, 20), RGB(90, 60, 30), RGB(200, 160, 90), RGB(20, 20, 20), RGB(150, 80, 40)]))
        grain(&img, amount: 6)
        return img
    }

    mutating func product(_ size: Size) -> RGBImage {
        var img = RGBImage(size: size, fill: RGB(UInt8(g.int(225...250)), UInt8(g.int(225...250)), UInt8(g.int(225...250))))
        let w = Float(size.width), h = Float(size.height), s = min(w, h)
        let colour = randomColour()
        img.paintRounded(Box(xMin: w / 2 - 0.35 * s, yMin: h / 2 + 0.25 * s, xMax: w / 2 + 0.35 * s, yMax: h / 2 + 0.36 * s), radius: 0.05 * s, color: RGB(0, 0, 0), alpha: 0.12)
        let body = Box(xMin: w / 2 - g.uniform(0.15...0.32) * s, yMin: h / 2 - g.uniform(0.2...0.38) * s, xMax: w / 2 + g.uniform(0.15...0.32) * s, yMax: h / 2 + 0.3 * s)
        img.paintRounded(body, radius: g.uniform(0.02...0.2) * s, color: colour)
        img.paintRounded(Box(xMin: body.xMin + body.width * 0.12, yMin: body.yMin + body.height * 0.1, xMax: body.xMin + body.width * 0.3, yMax: body.yMax - body.height * 0.1),
                        radius: body.width * 0.08, color: RGB(255, 255, 255), alpha: 0.25)
        return img
    }

    mutating func illustration(_ size: Size) -> RGBImage {
        var img = RGBImage(size: size, fill: randomColour(saturation: 0.08...0.3, value: 0.85...1))
        let w = Float(size.width), h = Float(size.height), s = min(w, h)
        let palette = [randomColour(), randomColour(), randomColour()]
        for _ in 0..<g.int(3...7) {
            let c = g.pick(palette), cx = g.uniform(0.1...0.9) * w, cy = g.uniform(0.15...0.85) * h, r = g.uniform(0.08...0.3) * s
            switch g.int(0...2) {
            case 0: img.paintCircle(centerX: cx, centerY: cy, radius: r, color: c)
            case 1: img.paintRounded(Box(xMin: cx - r, yMin: cy - r * 0.7, xMax: cx + r, yMax: cy + r * 0.7), radius: r * 0.2, color: c)
            default: img.fillPolygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], color: c)
            }
        }
        return img
    }

    mutating func map(_ size: Size) -> RGBImage {
        var img = RGBImage(size: size, fill: RGB(UInt8(g.int(232...245)), UInt8(g.int(228...240)), UInt8(g.int(215...228))))
        let w = Float(size.width), h = Float(size.height), s = min(w, h)
        if g.chance(0.6) {
            let y = g.uniform(0.2...0.9) * h
            img.fillPolygon([(0, y), (w * 0.6, y + 0.1 * h), (w, y - 0.05 * h), (w, h), (0, h)], color: RGB(170, 211, 242))
        }
        for _ in 0..<g.int(2...4) {
            let a = (g.uniform(0...w), g.uniform(0...h)), b = (g.uniform(0...w), g.uniform(0...h))
            img.drawLine(x0: a.0 - w, y0: a.1 - (b.1 - a.1), x1: b.0 + w, y1: b.1 + (b.1 - a.1), thickness: max(2, 0.04 * s), color: RGB(255, 255, 255))
        }
        let y = g.uniform(0...h)
        img.drawLine(x0: 0, y0: y, x1: w, y1: y + g.uniform(-0.3...0.3) * h, thickness: max(2, 0.06 * s), color: RGB(252, 214, 112))
        return img
    }
}

extension RGBImage {
    /// Copies `tile` with its top-left at (x, y), clipped to a rounded rectangle of `radius` (anti-aliased
    /// at the corners): outside the corners the image keeps its pixels.
    mutating func composite(_ tile: RGBImage, x: Int, y: Int, radius: Float) {
        let r = max(0, min(radius, Float(min(tile.width, tile.height)) / 2))
        let w = width, h = height
        let tw = tile.width, th = tile.height
        let ri = Int(r.rounded(.up))
        tile.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                let x0 = max(0, -x), x1 = min(tw, w - x)
                guard x1 > x0 else { return }
                for ty in 0..<th {
                    let iy = y + ty
                    guard iy >= 0, iy < h else { continue }
                    let inCornerRows = ty < ri || ty >= th - ri
                    if !inCornerRows {
                        // Whole row inside the rounded shape: one copy.
                        let s = (ty * tw + x0) * 3, t = (iy * w + x + x0) * 3
                        UnsafeMutableRawPointer(dst.baseAddress! + t).copyMemory(from: src.baseAddress! + s, byteCount: (x1 - x0) * 3)
                        continue
                    }
                    for tx in x0..<x1 {
                        let ix = x + tx
                        var a: Float = 1
                        if inCornerRows && (tx < ri || tx >= tw - ri) {
                            let px = Float(tx) + 0.5, py = Float(ty) + 0.5
                            let cx = min(max(px, r), Float(tw) - r), cy = min(max(py, r), Float(th) - r)
                            let d = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot() - r
                            a = max(0, min(1, 0.5 - d))
                        }
                        let s = (ty * tw + tx) * 3, t = (iy * w + ix) * 3
                        if a >= 1 {
                            dst[t] = src[s]; dst[t + 1] = src[s + 1]; dst[t + 2] = src[s + 2]
                        } else if a > 0 {
                            for c in 0..<3 {
                                let under = Float(dst[t + c]), over = Float(src[s + c])
                                dst[t + c] = UInt8(under + (over - under) * a + 0.5)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension RGBImage {
    /// `fillRounded` with the same coverage, faster: per row, the pixels certainly inside are filled
    /// without a distance, and only the few at the edges and corners compute one.
    mutating func paintRounded(_ box: Box, radius: Float, color: RGB, alpha: Float = 1) {
        let r = max(0, min(radius, min(box.width, box.height) / 2))
        let x0 = max(0, Int(box.xMin.rounded(.down))), x1 = min(width, Int(box.xMax.rounded(.up)))
        let y0 = max(0, Int(box.yMin.rounded(.down))), y1 = min(height, Int(box.yMax.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { p in
            @inline(__always) func put(_ x: Int, _ y: Int, _ a: Float) {
                let i = (y * w + x) * 3
                if a >= 1 { p[i] = color.r; p[i + 1] = color.g; p[i + 2] = color.b; return }
                @inline(__always) func mix(_ under: UInt8, _ over: UInt8) -> UInt8 {
                    let u = Float(under)
                    return UInt8(u + (Float(over) - u) * a + 0.5)
                }
                p[i] = mix(p[i], color.r)
                p[i + 1] = mix(p[i + 1], color.g)
                p[i + 2] = mix(p[i + 2], color.b)
            }
            for y in y0..<y1 {
                let py = Float(y) + 0.5
                let cy = min(max(py, box.yMin + r), box.yMax - r)
                let dy = py - cy
                // Pixel centres in [inner0, inner1] have full coverage.
                var inner0 = Float.infinity, inner1 = -Float.infinity
                let q = (r - 0.5) * (r - 0.5) - dy * dy
                if py - box.yMin >= 0.5, box.yMax - py >= 0.5, r >= 0.5, q >= 0 {
                    let h = q.squareRoot()
                    inner0 = max(box.xMin + r - h, box.xMin + 0.5)
                    inner1 = min(box.xMax - r + h, box.xMax - 0.5)
                } else if py - box.yMin >= 0.5, box.yMax - py >= 0.5, r < 0.5 {
                    inner0 = box.xMin + 0.5
                    inner1 = box.xMax - 0.5
                }
                for x in x0..<x1 {
                    let px = Float(x) + 0.5
                    if px >= inner0 && px <= inner1 { put(x, y, alpha); continue }
                    let cx = min(max(px, box.xMin + r), box.xMax - r)
                    let d = ((px - cx) * (px - cx) + dy * dy).squareRoot() - r
                    let edge = min(px - box.xMin, box.xMax - px, py - box.yMin, box.yMax - py)
                    let coverage = min(1, max(0, 0.5 - d), max(0, min(1, edge + 0.5)))
                    if coverage > 0 { put(x, y, alpha * coverage) }
                }
            }
        }
    }

    /// `fillCircle` through `paintRounded`.
    mutating func paintCircle(centerX: Float, centerY: Float, radius: Float, color: RGB, alpha: Float = 1) {
        paintRounded(Box(xMin: centerX - radius, yMin: centerY - radius, xMax: centerX + radius, yMax: centerY + radius), radius: radius, color: color, alpha: alpha)
    }
}
