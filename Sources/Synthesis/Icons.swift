import Boxes
import Foundation
import IconVocabulary
import Images
import SeededRandom

/// Line-art and solid glyphs drawn into a square, in the look of the system icon sets.
/// Every shape has a meaning in the icon vocabulary (`type`); the last thirteen are drawn from
/// glyphs only (`procedural` false), the others also by hand for apps whose icons are line art.
enum IconShape: CaseIterable {
    case chevronRight, chevronLeft, arrowBack, plus, close, menu, moreVertical, moreHorizontal, search, home, gear, person, bell,
         heart, share, trash, star, check, bookmark, chat, mail, phone, camera, cart, location, calendar, clock, play, pause,
         skipNext, skipPrevious, download, edit, filter, lock, grid, list, refresh, info, mic, photo, cloud, send, globe, flag, music,
         expand, collapse, upload, sort, attach, help, like, dislike, copy, volume, mute, video, people

    /// What the shape means (icon-recognition.md); `other` for a grid, a list, a globe, a flag and music.
    var type: IconType {
        let name: String
        switch self {
        case .chevronRight: name = "forward"
        case .chevronLeft, .arrowBack: name = "back"
        case .plus: name = "add"
        case .moreVertical, .moreHorizontal: name = "more"
        case .gear: name = "settings"
        case .person: name = "profile"
        case .bell: name = "notifications"
        case .heart: name = "favorite"
        case .trash: name = "delete"
        case .check: name = "done"
        case .skipNext: name = "next"
        case .skipPrevious: name = "previous"
        case .mic: name = "microphone"
        case .photo: name = "photos"
        case .grid, .list, .globe, .flag, .music: name = "other"
        default: name = "\(self)"
        }
        return IconVocabulary.type(named: name)!
    }

    /// Whether `draw` can draw it by hand.
    var procedural: Bool { !Self.glyphOnly.contains(self) }
    static let glyphOnly: Set<IconShape> = [.expand, .collapse, .upload, .sort, .attach, .help, .like, .dislike, .copy, .volume, .mute, .video, .people]

    /// Icons a navigation or app bar shows at its right.
    static let barActions: [IconShape] = [.search, .share, .plus, .gear, .moreVertical, .bell, .cart, .edit, .filter, .heart, .bookmark, .refresh]
    /// Icons of tab bars and bottom navigation.
    static let tabs: [IconShape] = [.home, .search, .person, .star, .heart, .gear, .bell, .chat, .calendar, .cart, .music, .photo, .location, .grid, .bookmark]
    /// Icons at the start of list rows and menu items.
    static let rows: [IconShape] = allCases.filter { $0 != .chevronRight && $0 != .chevronLeft && $0 != .arrowBack && $0 != .expand && $0 != .collapse }

    /// Draws the glyph into the square `box` with `color`; `filled` picks the solid variant where there is one.
    /// `background` is the colour behind, used to cut holes.
    func draw(into image: inout RGBImage, box: Box, color: RGB, background: RGB, filled: Bool) {
        // The pen takes the pixels for the drawing and gives them back (a swap, so they are never copied).
        var p = Pen(box: box, color: color, background: background)
        swap(&p.image, &image)
        defer { swap(&p.image, &image) }
        let f = filled
        switch self {
        case .chevronRight: p.line(0.35, 0.15, 0.7, 0.5); p.line(0.7, 0.5, 0.35, 0.85)
        case .chevronLeft: p.line(0.65, 0.15, 0.3, 0.5); p.line(0.3, 0.5, 0.65, 0.85)
        case .arrowBack: p.line(0.15, 0.5, 0.88, 0.5); p.line(0.15, 0.5, 0.45, 0.2); p.line(0.15, 0.5, 0.45, 0.8)
        case .plus: p.line(0.5, 0.12, 0.5, 0.88); p.line(0.12, 0.5, 0.88, 0.5)
        case .close: p.line(0.2, 0.2, 0.8, 0.8); p.line(0.8, 0.2, 0.2, 0.8)
        case .menu: p.line(0.12, 0.25, 0.88, 0.25); p.line(0.12, 0.5, 0.88, 0.5); p.line(0.12, 0.75, 0.88, 0.75)
        case .moreVertical: for y: Float in [0.2, 0.5, 0.8] { p.disc(0.5, y, 0.1) }
        case .moreHorizontal: for x: Float in [0.2, 0.5, 0.8] { p.disc(x, 0.5, 0.1) }
        case .search: p.ring(0.42, 0.42, 0.3); p.line(0.63, 0.63, 0.9, 0.9)
        case .home:
            if f { p.polygon([(0.5, 0.1), (0.92, 0.5), (0.8, 0.5), (0.8, 0.9), (0.2, 0.9), (0.2, 0.5), (0.08, 0.5)]) }
            else { p.line(0.1, 0.5, 0.5, 0.12); p.line(0.5, 0.12, 0.9, 0.5); p.line(0.22, 0.42, 0.22, 0.88); p.line(0.78, 0.42, 0.78, 0.88); p.line(0.22, 0.88, 0.78, 0.88) }
        case .gear:
            for k in 0..<8 {
                let a = Float(k) * .pi / 4
                p.line(0.5 + 0.28 * cosf(a), 0.5 + 0.28 * sinf(a), 0.5 + 0.45 * cosf(a), 0.5 + 0.45 * sinf(a))
            }
            if f { p.disc(0.5, 0.5, 0.32); p.hole(0.5, 0.5, 0.12) } else { p.ring(0.5, 0.5, 0.3) }
        case .person:
            if f { p.disc(0.5, 0.32, 0.2); p.rounded(0.15, 0.6, 0.85, 0.95, 0.3) } else { p.ring(0.5, 0.32, 0.2); p.line(0.18, 0.92, 0.3, 0.66); p.line(0.3, 0.66, 0.7, 0.66); p.line(0.7, 0.66, 0.82, 0.92) }
        case .bell:
            if f { p.rounded(0.22, 0.15, 0.78, 0.75, 0.25) } else { p.line(0.25, 0.75, 0.25, 0.4); p.line(0.75, 0.75, 0.75, 0.4); p.ring(0.5, 0.4, 0.25, from: .pi, to: 2 * .pi) }
            p.line(0.12, 0.75, 0.88, 0.75); p.disc(0.5, 0.87, 0.09)
        case .heart:
            let pts: [(Float, Float)] = (0...24).map { k in
                let t = Float(k) / 24 * 2 * .pi
                let x = 16 * powf(sinf(t), 3), y = 13 * cosf(t) - 5 * cosf(2 * t) - 2 * cosf(3 * t) - cosf(4 * t)
                return (0.5 + x / 36, 0.45 - y / 36)
            }
            if f { p.polygon(pts) } else { p.polyline(pts, closed: true) }
        case .share:
            p.line(0.5, 0.1, 0.5, 0.62); p.line(0.32, 0.28, 0.5, 0.1); p.line(0.5, 0.1, 0.68, 0.28)
            p.line(0.2, 0.45, 0.2, 0.9); p.line(0.2, 0.9, 0.8, 0.9); p.line(0.8, 0.9, 0.8, 0.45)
        case .trash:
            p.line(0.15, 0.22, 0.85, 0.22); p.line(0.38, 0.1, 0.62, 0.1)
            if f { p.polygon([(0.25, 0.25), (0.75, 0.25), (0.7, 0.9), (0.3, 0.9)]) } else { p.line(0.25, 0.22, 0.3, 0.9); p.line(0.75, 0.22, 0.7, 0.9); p.line(0.3, 0.9, 0.7, 0.9) }
        case .star:
            let pts: [(Float, Float)] = (0..<10).map { k in
                let a = -Float.pi / 2 + Float(k) * .pi / 5, r: Float = k % 2 == 0 ? 0.46 : 0.2
                return (0.5 + r * cosf(a), 0.53 + r * sinf(a))
            }
            if f { p.polygon(pts) } else { p.polyline(pts, closed: true) }
        case .check: p.line(0.15, 0.52, 0.4, 0.78); p.line(0.4, 0.78, 0.88, 0.25)
        case .bookmark:
            let pts: [(Float, Float)] = [(0.25, 0.1), (0.75, 0.1), (0.75, 0.9), (0.5, 0.68), (0.25, 0.9)]
            if f { p.polygon(pts) } else { p.polyline(pts, closed: true) }
        case .chat:
            if f { p.rounded(0.1, 0.15, 0.9, 0.72, 0.15); p.polygon([(0.25, 0.65), (0.45, 0.65), (0.22, 0.9)]) }
            else { p.outline(0.1, 0.15, 0.9, 0.72); p.line(0.28, 0.72, 0.22, 0.9); p.line(0.22, 0.9, 0.45, 0.72) }
        case .mail:
            if f { p.rounded(0.08, 0.22, 0.92, 0.78, 0.06); p.stroke(0.1, 0.26, 0.5, 0.55, hole: true); p.stroke(0.5, 0.55, 0.9, 0.26, hole: true) }
            else { p.outline(0.08, 0.22, 0.92, 0.78); p.line(0.1, 0.26, 0.5, 0.55); p.line(0.5, 0.55, 0.9, 0.26) }
        case .phone:
            p.polygon([(0.2, 0.12), (0.38, 0.12), (0.45, 0.32), (0.35, 0.42), (0.58, 0.65), (0.68, 0.55), (0.88, 0.62), (0.88, 0.8), (0.75, 0.9), (0.1, 0.25)])
        case .camera:
            if f { p.rounded(0.08, 0.28, 0.92, 0.85, 0.1); p.rounded(0.35, 0.16, 0.65, 0.32, 0.04); p.hole(0.5, 0.56, 0.16) }
            else { p.outline(0.08, 0.28, 0.92, 0.85); p.line(0.35, 0.28, 0.4, 0.16); p.line(0.4, 0.16, 0.6, 0.16); p.line(0.6, 0.16, 0.65, 0.28); p.ring(0.5, 0.56, 0.16) }
        case .cart:
            p.line(0.05, 0.15, 0.2, 0.15); p.line(0.2, 0.15, 0.3, 0.65); p.line(0.3, 0.65, 0.82, 0.65)
            if f { p.polygon([(0.22, 0.25), (0.92, 0.25), (0.84, 0.55), (0.28, 0.55)]) } else { p.line(0.22, 0.25, 0.9, 0.25); p.line(0.9, 0.25, 0.82, 0.55); p.line(0.82, 0.55, 0.28, 0.55) }
            p.disc(0.35, 0.82, 0.07); p.disc(0.78, 0.82, 0.07)
        case .location:
            p.polygon((0...16).map { k in let a = Float.pi * (0.85 + 1.3 * Float(k) / 16); return (0.5 + 0.3 * cosf(a), 0.38 + 0.3 * sinf(a)) } + [(0.5, 0.95)])
            p.hole(0.5, 0.38, f ? 0.1 : 0.15)
        case .calendar:
            if f { p.rounded(0.1, 0.18, 0.9, 0.9, 0.08); p.stroke(0.18, 0.38, 0.82, 0.38, hole: true) } else { p.outline(0.1, 0.18, 0.9, 0.9); p.line(0.1, 0.38, 0.9, 0.38) }
            p.line(0.3, 0.08, 0.3, 0.24); p.line(0.7, 0.08, 0.7, 0.24)
        case .clock:
            if f { p.disc(0.5, 0.5, 0.42); p.stroke(0.5, 0.5, 0.5, 0.25, hole: true); p.stroke(0.5, 0.5, 0.68, 0.6, hole: true) }
            else { p.ring(0.5, 0.5, 0.42); p.line(0.5, 0.5, 0.5, 0.25); p.line(0.5, 0.5, 0.68, 0.6) }
        case .play: p.polygon([(0.25, 0.12), (0.85, 0.5), (0.25, 0.88)])
        case .pause: p.rounded(0.22, 0.15, 0.4, 0.85, 0.03); p.rounded(0.6, 0.15, 0.78, 0.85, 0.03)
        case .skipNext: p.polygon([(0.15, 0.2), (0.65, 0.5), (0.15, 0.8)]); p.rounded(0.7, 0.2, 0.82, 0.8, 0.02)
        case .skipPrevious: p.polygon([(0.85, 0.2), (0.35, 0.5), (0.85, 0.8)]); p.rounded(0.18, 0.2, 0.3, 0.8, 0.02)
        case .download: p.line(0.5, 0.1, 0.5, 0.65); p.line(0.28, 0.45, 0.5, 0.65); p.line(0.5, 0.65, 0.72, 0.45); p.line(0.15, 0.88, 0.85, 0.88)
        case .edit: p.polygon([(0.68, 0.1), (0.9, 0.32), (0.35, 0.87), (0.1, 0.9), (0.13, 0.65)]); if !f { p.hole(0.5, 0.52, 0.08) }
        case .filter: p.line(0.1, 0.25, 0.9, 0.25); p.line(0.25, 0.5, 0.75, 0.5); p.line(0.4, 0.75, 0.6, 0.75)
        case .lock:
            if f { p.rounded(0.18, 0.45, 0.82, 0.92, 0.08) } else { p.outline(0.18, 0.45, 0.82, 0.92) }
            p.ring(0.5, 0.42, 0.2, from: .pi, to: 2 * .pi); p.line(0.3, 0.42, 0.3, 0.47); p.line(0.7, 0.42, 0.7, 0.47)
        case .grid: for (x, y) in [(0.1, 0.1), (0.55, 0.1), (0.1, 0.55), (0.55, 0.55)] as [(Float, Float)] { if f { p.rounded(x, y, x + 0.35, y + 0.35, 0.05) } else { p.outline(x, y, x + 0.35, y + 0.35) } }
        case .list: for y: Float in [0.25, 0.5, 0.75] { p.disc(0.15, y, 0.07); p.line(0.32, y, 0.9, y) }
        case .refresh: p.ring(0.5, 0.5, 0.33, from: -0.3, to: 1.6 * .pi); p.polygon([(0.88, 0.25), (0.9, 0.55), (0.62, 0.45)])
        case .info:
            if f { p.disc(0.5, 0.5, 0.44); p.stroke(0.5, 0.45, 0.5, 0.75, hole: true); p.hole(0.5, 0.3, 0.06) }
            else { p.ring(0.5, 0.5, 0.44); p.line(0.5, 0.45, 0.5, 0.75); p.disc(0.5, 0.3, 0.06) }
        case .mic: p.rounded(0.35, 0.08, 0.65, 0.6, 0.15); p.ring(0.5, 0.42, 0.28, from: 0, to: .pi); p.line(0.5, 0.7, 0.5, 0.9)
        case .photo:
            if f { p.rounded(0.08, 0.15, 0.92, 0.85, 0.08) } else { p.outline(0.08, 0.15, 0.92, 0.85) }
            p.color = f ? p.background : p.color
            p.polygon([(0.15, 0.78), (0.4, 0.45), (0.58, 0.65), (0.7, 0.52), (0.85, 0.78)]); p.disc(0.7, 0.32, 0.07)
        case .cloud:
            p.disc(0.35, 0.58, 0.2); p.disc(0.58, 0.45, 0.25); p.disc(0.75, 0.62, 0.17); p.rounded(0.15, 0.6, 0.88, 0.79, 0.08)
            if !f { p.hole(0.5, 0.6, 0.13) }
        case .send: p.polygon([(0.08, 0.12), (0.92, 0.5), (0.08, 0.88), (0.2, 0.5)])
        case .globe: p.ring(0.5, 0.5, 0.42); p.line(0.08, 0.5, 0.92, 0.5); p.line(0.5, 0.08, 0.5, 0.92); p.ring(0.5, 0.5, 0.2)
        case .flag: p.line(0.2, 0.08, 0.2, 0.95); p.polygon([(0.2, 0.1), (0.85, 0.1), (0.7, 0.3), (0.85, 0.5), (0.2, 0.5)])
        case .music: p.line(0.4, 0.2, 0.4, 0.75); p.line(0.4, 0.2, 0.85, 0.1); p.line(0.85, 0.1, 0.85, 0.65); p.disc(0.3, 0.78, 0.12); p.disc(0.75, 0.68, 0.12)
        case .expand, .collapse, .upload, .sort, .attach, .help, .like, .dislike, .copy, .volume, .mute, .video, .people:
            break  // glyphs only (`procedural` is false): `Canvas.icon` never asks for these
        }
    }
}

/// Draws in unit coordinates of a square box: strokes of a tenth of its side, solid shapes, holes.
struct Pen {
    var image = RGBImage(size: Size(width: 1, height: 1))
    let box: Box
    var color: RGB
    let background: RGB
    var s: Float { box.width }
    var thickness: Float { max(1, s * 0.09) }

    init(box: Box, color: RGB, background: RGB) {
        self.box = box
        self.color = color
        self.background = background
    }

    func x(_ v: Float) -> Float { box.xMin + v * s }
    func y(_ v: Float) -> Float { box.yMin + v * box.height }

    mutating func line(_ ax: Float, _ ay: Float, _ bx: Float, _ by: Float) {
        image.drawLine(x0: x(ax), y0: y(ay), x1: x(bx), y1: y(by), thickness: thickness, color: color)
    }
    /// A line in the background colour (a cut through a solid shape), or in the pen's colour.
    mutating func stroke(_ ax: Float, _ ay: Float, _ bx: Float, _ by: Float, hole: Bool) {
        image.drawLine(x0: x(ax), y0: y(ay), x1: x(bx), y1: y(by), thickness: thickness, color: hole ? background : color)
    }
    mutating func disc(_ cx: Float, _ cy: Float, _ r: Float) {
        image.paintCircle(centerX: x(cx), centerY: y(cy), radius: r * s, color: color)
    }
    mutating func hole(_ cx: Float, _ cy: Float, _ r: Float) {
        image.paintCircle(centerX: x(cx), centerY: y(cy), radius: r * s, color: background)
    }
    /// A circle outline, or an arc from angle `from` to `to` (radians, clockwise from 3 o'clock).
    mutating func ring(_ cx: Float, _ cy: Float, _ r: Float, from: Float = 0, to: Float = 2 * .pi) {
        if to - from >= 2 * .pi - 1e-3 {
            image.paintCircle(centerX: x(cx), centerY: y(cy), radius: r * s + thickness / 2, color: color)
            image.paintCircle(centerX: x(cx), centerY: y(cy), radius: max(0, r * s - thickness / 2), color: background)
            return
        }
        let n = 10
        let pts = (0...n).map { k -> (Float, Float) in
            let a = from + (to - from) * Float(k) / Float(n)
            return (cx + r * cosf(a), cy + r * sinf(a))
        }
        polyline(pts, closed: false)
    }
    mutating func polyline(_ pts: [(Float, Float)], closed: Bool) {
        for k in 0..<(pts.count - (closed ? 0 : 1)) {
            let a = pts[k], b = pts[(k + 1) % pts.count]
            line(a.0, a.1, b.0, b.1)
        }
    }
    mutating func rounded(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ r: Float) {
        image.paintRounded(Box(xMin: x(x0), yMin: y(y0), xMax: x(x1), yMax: y(y1)), radius: r * s, color: color)
    }
    mutating func outline(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) {
        line(x0, y0, x1, y0); line(x1, y0, x1, y1); line(x1, y1, x0, y1); line(x0, y1, x0, y0)
    }
    mutating func polygon(_ pts: [(Float, Float)]) {
        image.fillPolygon(pts.map { (x($0.0), y($0.1)) }, color: color)
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

    /// Fills a polygon (even-odd), anti-aliased by four sub-rows per pixel row.
    mutating func fillPolygon(_ pts: [(Float, Float)], color: RGB, alpha: Float = 1) {
        guard pts.count >= 3 else { return }
        let minY = max(0, Int(pts.map(\.1).min()!.rounded(.down))), maxY = min(height - 1, Int(pts.map(\.1).max()!.rounded(.up)))
        let minX = max(0, Int(pts.map(\.0).min()!.rounded(.down))), maxX = min(width - 1, Int(pts.map(\.0).max()!.rounded(.up)))
        guard minY <= maxY, minX <= maxX else { return }
        var coverage = [Float](repeating: 0, count: maxX - minX + 2)
        var crossings: [Float] = []
        for py in minY...maxY {
            for i in coverage.indices { coverage[i] = 0 }
            for sub in 0..<4 {
                let sy = Float(py) + (Float(sub) + 0.5) / 4
                crossings.removeAll(keepingCapacity: true)
                for k in pts.indices {
                    let a = pts[k], b = pts[(k + 1) % pts.count]
                    if (a.1 <= sy) != (b.1 <= sy) { crossings.append(a.0 + (sy - a.1) / (b.1 - a.1) * (b.0 - a.0)) }
                }
                crossings.sort()
                var k = 0
                while k + 1 < crossings.count {
                    let xa = max(Float(minX), crossings[k]), xb = min(Float(maxX + 1), crossings[k + 1])
                    if xb > xa {
                        let ia = Int(xa), ib = Int(xb)
                        if ia == ib { coverage[ia - minX] += (xb - xa) / 4 } else {
                            coverage[ia - minX] += (Float(ia + 1) - xa) / 4
                            if ib > ia + 1 { for i in (ia + 1)..<ib { coverage[i - minX] += 0.25 } }
                            if ib <= maxX { coverage[ib - minX] += (xb - Float(ib)) / 4 }
                        }
                    }
                    k += 2
                }
            }
            for px in minX...maxX where coverage[px - minX] > 0.01 { blend(x: px, y: py, color: color, alpha: alpha * min(1, coverage[px - minX])) }
        }
    }
}
