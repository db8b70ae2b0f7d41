import Boxes
import Images
import SeededRandom

/// Simple line-art and filled icons, drawn into a square.
enum IconShape: CaseIterable {
    case chevronRight, chevronLeft, plus, close, menu, search, home, gear, person, bell, heart, share, trash, star, filledSquare

    /// Draws the icon into `box` (square) with strokes of `color`.
    func draw(into image: inout RGBImage, box: Box, color: RGB, background: RGB, generator g: inout SeededGenerator) {
        let s = box.width
        let (x, y) = (box.xMin, box.yMin)
        let t = max(1, s * 0.1)
        func line(_ ax: Float, _ ay: Float, _ bx: Float, _ by: Float) {
            image.drawLine(x0: x + ax * s, y0: y + ay * s, x1: x + bx * s, y1: y + by * s, thickness: t, color: color)
        }
        func ring(_ cx: Float, _ cy: Float, _ r: Float) {
            image.fillCircle(centerX: x + cx * s, centerY: y + cy * s, radius: r * s, color: color)
            image.fillCircle(centerX: x + cx * s, centerY: y + cy * s, radius: r * s - t, color: background)
        }
        switch self {
        case .chevronRight: line(0.35, 0.15, 0.7, 0.5); line(0.7, 0.5, 0.35, 0.85)
        case .chevronLeft: line(0.65, 0.15, 0.3, 0.5); line(0.3, 0.5, 0.65, 0.85)
        case .plus: line(0.5, 0.12, 0.5, 0.88); line(0.12, 0.5, 0.88, 0.5)
        case .close: line(0.18, 0.18, 0.82, 0.82); line(0.82, 0.18, 0.18, 0.82)
        case .menu: line(0.12, 0.25, 0.88, 0.25); line(0.12, 0.5, 0.88, 0.5); line(0.12, 0.75, 0.88, 0.75)
        case .search: ring(0.42, 0.42, 0.3); line(0.63, 0.63, 0.9, 0.9)
        case .home:
            line(0.1, 0.5, 0.5, 0.12); line(0.5, 0.12, 0.9, 0.5)
            line(0.22, 0.42, 0.22, 0.88); line(0.78, 0.42, 0.78, 0.88); line(0.22, 0.88, 0.78, 0.88)
        case .gear:
            for k in 0..<8 {
                let a = Float(k) * .pi / 4
                line(0.5 + 0.28 * cosf(a), 0.5 + 0.28 * sinf(a), 0.5 + 0.46 * cosf(a), 0.5 + 0.46 * sinf(a))
            }
            ring(0.5, 0.5, 0.3)
        case .person:
            image.fillCircle(centerX: x + 0.5 * s, centerY: y + 0.32 * s, radius: 0.2 * s, color: color)
            image.fillRounded(Box(xMin: x + 0.15 * s, yMin: y + 0.58 * s, xMax: x + 0.85 * s, yMax: y + 0.95 * s), radius: 0.3 * s, color: color)
        case .bell:
            image.fillRounded(Box(xMin: x + 0.22 * s, yMin: y + 0.15 * s, xMax: x + 0.78 * s, yMax: y + 0.75 * s), radius: 0.25 * s, color: color)
            line(0.12, 0.75, 0.88, 0.75)
            image.fillCircle(centerX: x + 0.5 * s, centerY: y + 0.86 * s, radius: 0.09 * s, color: color)
        case .heart:
            image.fillCircle(centerX: x + 0.32 * s, centerY: y + 0.36 * s, radius: 0.2 * s, color: color)
            image.fillCircle(centerX: x + 0.68 * s, centerY: y + 0.36 * s, radius: 0.2 * s, color: color)
            for k in 0..<Int(s * 0.5) {
                let f = Float(k) / (s * 0.5)
                line(0.13 + 0.37 * f, 0.42 + 0.43 * f, 0.87 - 0.37 * f, 0.42 + 0.43 * f)
            }
        case .share:
            line(0.5, 0.1, 0.5, 0.62); line(0.32, 0.28, 0.5, 0.1); line(0.5, 0.1, 0.68, 0.28)
            line(0.2, 0.45, 0.2, 0.9); line(0.2, 0.9, 0.8, 0.9); line(0.8, 0.9, 0.8, 0.45)
        case .trash:
            line(0.15, 0.22, 0.85, 0.22); line(0.38, 0.1, 0.62, 0.1)
            line(0.25, 0.22, 0.3, 0.9); line(0.75, 0.22, 0.7, 0.9); line(0.3, 0.9, 0.7, 0.9)
        case .star:
            var points: [(Float, Float)] = []
            for k in 0..<10 {
                let a = -Float.pi / 2 + Float(k) * .pi / 5
                let r: Float = k % 2 == 0 ? 0.45 : 0.2
                points.append((0.5 + r * cosf(a), 0.52 + r * sinf(a)))
            }
            for k in 0..<10 { line(points[k].0, points[k].1, points[(k + 1) % 10].0, points[(k + 1) % 10].1) }
        case .filledSquare:
            // An app-icon-like tile with a glyph-like mark.
            let tile = RGB(UInt8(g.int(40...230)), UInt8(g.int(40...230)), UInt8(g.int(40...230)))
            image.fillRounded(box, radius: s * 0.22, color: tile)
            image.fillCircle(centerX: x + 0.5 * s, centerY: y + 0.5 * s, radius: 0.22 * s, color: RGB(255, 255, 255), alpha: 0.9)
        }
    }
}

extension RGBImage {
    /// An anti-aliased line segment of the given thickness.
    mutating func drawLine(x0: Float, y0: Float, x1: Float, y1: Float, thickness: Float, color: RGB) {
        let r = thickness / 2
        let minX = max(0, Int((min(x0, x1) - r - 1).rounded(.down))), maxX = min(width - 1, Int((max(x0, x1) + r + 1).rounded(.up)))
        let minY = max(0, Int((min(y0, y1) - r - 1).rounded(.down))), maxY = min(height - 1, Int((max(y0, y1) + r + 1).rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return }
        let dx = x1 - x0, dy = y1 - y0
        let length2 = max(1e-6, dx * dx + dy * dy)
        for py in minY...maxY {
            for px in minX...maxX {
                let cx = Float(px) + 0.5, cy = Float(py) + 0.5
                let t = max(0, min(1, ((cx - x0) * dx + (cy - y0) * dy) / length2))
                let ex = cx - (x0 + t * dx), ey = cy - (y0 + t * dy)
                let d = (ex * ex + ey * ey).squareRoot()
                let coverage = max(0, min(1, r - d + 0.5))
                if coverage > 0 { blend(x: px, y: py, color: color, alpha: coverage) }
            }
        }
    }
}

import Foundation
