import Boxes
import Foundation
import Images
import SeededRandom
import Shards

/// Renders plausible iPhone-style screens with exact boxes for the 13 classes
/// of the default vocabulary (`defaultClassNames`).
///
/// Each screen belongs to one of `appCount` apps (its `groupID`); an app fixes
/// the palette, light or dark appearance and shapes, so that splits by app are
/// meaningful. Screen `i` depends only on (seed, i): generation can run in any
/// order or in parallel and give the same bytes.
///
/// Section weights make class frequencies imbalanced as in the paper
/// (paper-facts.md): text most, then icon, container, picture; slider least.
/// Tab-bar items are labelled as their icon and text, as the paper remapped them.
public final class ScreenSynthesizer {
    public let size: Size
    public let seed: UInt64
    public let appCount: Int
    private let regular: Font
    private let bold: Font

    /// Classes by name, as indices into `defaultClassNames`.
    enum Kind: Int32 {
        case checkboxUnselected = 0, checkboxSelected, container, dialog, icon, pageControl, picture,
             segmentedControl, slider, text, textField, toggleUnselected, toggleSelected
    }

    public init(size: Size = Size(width: 256, height: 512), seed: UInt64, appCount: Int) throws {
        precondition(size.width >= 64 && size.height >= 64, "screens must be at least 64x64")
        self.size = size
        self.seed = seed
        self.appCount = max(1, appCount)
        regular = try Font(path: Font.regularPath)
        bold = try Font(path: Font.boldPath)
    }

    /// Screen `index`: image, boxes and labels.
    public func screen(index: Int) -> ScreenRecord {
        var g = SeededGenerator(seed: seed, index: UInt64(index))
        let app = Int(g.next() % UInt64(appCount))
        var canvas = Canvas(size: size, style: AppStyle(app: app, seed: seed), regular: regular, bold: bold, generator: g)
        canvas.compose()
        // Ids carry the seed, so that screens and apps of two synthetic sets never collide.
        return ScreenRecord(imageID: "synth-s\(seed)-" + String(format: "%08d", index), groupID: "app-s\(seed)-" + String(format: "%05d", app),
                            image: canvas.image, boxes: canvas.boxes, labels: canvas.labels, originalSize: size)
    }
}

/// One screen being drawn: the image, its annotations, and a pen moving down the page.
struct Canvas {
    var image: RGBImage
    var boxes: [Box] = []
    var labels: [Int32] = []
    let style: AppStyle
    let regular: Font
    let bold: Font
    var g: SeededGenerator
    /// Points to pixels: the screen is laid out as a 375-point-wide iPhone.
    let u: Float
    let width: Float, height: Float

    init(size: Size, style: AppStyle, regular: Font, bold: Font, generator: SeededGenerator) {
        image = RGBImage(size: size, fill: style.background)
        self.style = style
        self.regular = regular
        self.bold = bold
        g = generator
        u = Float(size.width) / 375
        width = Float(size.width)
        height = Float(size.height)
    }

    typealias Kind = ScreenSynthesizer.Kind

    mutating func annotate(_ box: Box, _ kind: Kind) {
        let b = box.clipped(to: image.size)
        guard b.width >= 1, b.height >= 1 else { return }
        boxes.append(b)
        labels.append(kind.rawValue)
    }

    // MARK: composition

    mutating func compose() {
        clutterBackground()
        var y = statusBar()
        y = navigationBar(top: y)
        let hasTabBar = g.chance(0.6)
        let bottom = hasTabBar ? height - 52 * u : height
        let margin = 16 * u
        while y < bottom - 30 * u {
            let section = pickSection()
            let next = draw(section, top: y + g.uniform(6...18) * u, left: margin, right: width - margin, limit: bottom)
            if next <= y { break }
            y = next
        }
        if hasTabBar { tabBar(top: bottom) }
        if g.chance(0.09) { dialog() }
    }

    enum Section: CaseIterable {
        case table, card, pictures, paragraph, segmented, slider, textFields, pageControl, checkboxes, toggles, buttons, header
    }

    mutating func pickSection() -> Section {
        // Weights tuned so that the class counts fall roughly in the paper's order.
        let weighted: [(Section, Double)] = [
            (.table, 24), (.card, 14), (.pictures, 8), (.paragraph, 12), (.segmented, 3.5), (.slider, 0.3),
            (.textFields, 3.2), (.pageControl, 2.0), (.checkboxes, 1.5), (.toggles, 0.8), (.buttons, 6), (.header, 8),
        ]
        var r = g.nextUnitDouble() * weighted.reduce(0) { $0 + $1.1 }
        for (s, w) in weighted { r -= w; if r < 0 { return s } }
        return .table
    }

    /// Draws a section from `top`; returns the y below it (or `top` if it did not fit).
    mutating func draw(_ section: Section, top: Float, left: Float, right: Float, limit: Float) -> Float {
        switch section {
        case .table: return table(top: top, left: left, right: right, limit: limit)
        case .card: return card(top: top, left: left, right: right, limit: limit)
        case .pictures: return pictures(top: top, left: left, right: right, limit: limit)
        case .paragraph: return paragraph(top: top, left: left, right: right, limit: limit)
        case .segmented: return segmented(top: top, left: left, right: right, limit: limit)
        case .slider: return slider(top: top, left: left, right: right, limit: limit)
        case .textFields: return textFields(top: top, left: left, right: right, limit: limit)
        case .pageControl: return carousel(top: top, left: left, right: right, limit: limit)
        case .checkboxes: return checkboxes(top: top, left: left, right: right, limit: limit)
        case .toggles: return toggleRows(top: top, left: left, right: right, limit: limit)
        case .buttons: return buttons(top: top, left: left, right: right, limit: limit)
        case .header: return header(top: top, left: left, right: right, limit: limit)
        }
    }

    // MARK: text

    static let words = ["Settings", "General", "Privacy", "Account", "Notifications", "Sounds", "Display", "Battery",
                        "Wallpaper", "Storage", "Photos", "Music", "Messages", "Mail", "Calendar", "Weather", "News",
                        "Profile", "Friends", "Search", "Recent", "Favorites", "Library", "Downloads", "Home", "Explore",
                        "Cart", "Orders", "Help", "About", "Language", "Region", "Security", "Password", "Sign In",
                        "Continue", "Cancel", "Done", "Edit", "Share", "Delete", "Save", "Next", "Back", "Today",
                        "Tomorrow", "Updates", "Featured", "Top Charts", "Playlists", "Artists", "Albums", "Podcasts",
                        "Workout", "Sleep", "Steps", "Heart Rate", "Bluetooth", "Wi-Fi", "Airplane Mode", "Cellular",
                        "Hotspot", "Focus", "Screen Time", "Control Center", "Siri", "Keyboard", "Accessibility",
                        "Reminders", "Notes", "Maps", "Camera", "Wallet", "Health", "Files", "Clock", "Contacts",
                        "Delivery", "Payment", "Address", "Coupons", "Reviews", "Details", "Overview", "Activity"]
    static let fillers = ["your", "new", "all", "and", "the", "for", "with", "more", "items", "today", "from", "now",
                          "best", "free", "open", "view", "saved", "data", "photos", "friends", "nearby", "week"]

    mutating func phrase(words count: ClosedRange<Int>) -> String {
        var out = [g.pick(Self.words)]
        for _ in 1..<max(1, g.int(count)) { out.append(g.chance(0.6) ? g.pick(Self.fillers) : g.pick(Self.words).lowercased()) }
        if g.chance(0.08) { out.append(String(g.int(1...999))) }
        return out.joined(separator: " ")
    }

    /// Draws a line of text; labels it `text` unless `label` is false. Returns the ink box.
    @discardableResult
    mutating func text(_ s: String, x: Float, baseline: Float, points: Float, color: RGB, bold isBold: Bool = false,
                       maxWidth: Float? = nil, label: Bool = true) -> Box? {
        let px = max(6, Int((points * u * style.textScale).rounded()))
        var string = s
        let font = isBold ? bold : regular
        if let maxWidth {
            while string.count > 1 && Float(font.width(of: string, pixelSize: px)) > maxWidth { string.removeLast() }
        }
        let ink = image.draw(text: string, x: Int(x.rounded()), baseline: Int(baseline.rounded()), font: font, pixelSize: px, color: color)
        if label, let ink { annotate(ink, .text) }
        return ink
    }

    func textWidth(_ s: String, points: Float, bold isBold: Bool = false) -> Float {
        Float((isBold ? bold : regular).width(of: s, pixelSize: max(6, Int((points * u * style.textScale).rounded()))))
    }

    // MARK: bars

    mutating func statusBar() -> Float {
        let h = 44 * u
        let color = style.label
        text("9:41", x: 24 * u, baseline: 30 * u, points: 15, color: color, bold: true)
        // Signal, Wi-Fi and battery glyphs: icons at the right.
        var x = width - 24 * u
        let batteryBox = Box(xMin: x - 25 * u, yMin: 19 * u, xMax: x, yMax: 31 * u)
        image.stroke(batteryBox, color: color, thickness: max(1, Int(u)))
        image.fill(Box(xMin: batteryBox.xMin + 2 * u, yMin: batteryBox.yMin + 2 * u, xMax: batteryBox.xMin + g.uniform(6...22) * u, yMax: batteryBox.yMax - 2 * u), color: color)
        annotate(batteryBox, .icon)
        x = batteryBox.xMin - 6 * u
        for _ in 0..<2 {
            let s = 14 * u
            let b = Box(xMin: x - s, yMin: 18 * u, xMax: x, yMax: 18 * u + s)
            for k in 0..<4 {
                let bh = s * Float(k + 1) / 4
                image.fill(Box(xMin: b.xMin + Float(k) * s / 4, yMin: b.yMax - bh, xMax: b.xMin + Float(k) * s / 4 + s / 6, yMax: b.yMax), color: color)
            }
            annotate(b, .icon)
            x = b.xMin - 6 * u
        }
        return h
    }

    mutating func navigationBar(top: Float) -> Float {
        if style.largeTitle {
            if g.chance(0.5) { icon(.plus, at: Box(xMin: width - 40 * u, yMin: top + 8 * u, xMax: width - 18 * u, yMax: top + 30 * u), color: style.accent) }
            text(phrase(words: 1...2), x: 16 * u, baseline: top + 78 * u, points: 32, color: style.label, bold: true, maxWidth: width - 32 * u)
            return top + 92 * u
        }
        let h = 44 * u
        if g.chance(0.7) {
            icon(.chevronLeft, at: Box(xMin: 8 * u, yMin: top + 11 * u, xMax: 30 * u, yMax: top + 33 * u), color: style.accent)
            if g.chance(0.5) { text(g.pick(["Back", "Settings", "Home", "Cancel"]), x: 32 * u, baseline: top + 28 * u, points: 17, color: style.accent) }
        }
        let title = g.pick(Self.words)
        let tw = textWidth(title, points: 17, bold: true)
        text(title, x: (width - tw) / 2, baseline: top + 28 * u, points: 17, color: style.label, bold: true)
        if g.chance(0.6) {
            if g.chance(0.5) {
                let label = g.pick(["Edit", "Done", "Save", "Add"])
                text(label, x: width - 16 * u - textWidth(label, points: 17), baseline: top + 28 * u, points: 17, color: style.accent)
            } else {
                icon(g.pick([.share, .plus, .search, .gear, .menu]), at: Box(xMin: width - 38 * u, yMin: top + 11 * u, xMax: width - 16 * u, yMax: top + 33 * u), color: style.accent)
            }
        }
        image.fill(Box(xMin: 0, yMin: top + h - max(1, u), xMax: width, yMax: top + h), color: style.separator)
        return top + h
    }

    mutating func tabBar(top: Float) {
        image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: height), color: style.dark ? RGB(22, 22, 24) : RGB(248, 248, 248))
        image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: top + max(1, u)), color: style.separator)
        let n = g.int(3...5)
        let slot = width / Float(n)
        let selected = g.int(0...(n - 1))
        for k in 0..<n {
            let cx = slot * (Float(k) + 0.5)
            let color = k == selected ? style.accent : style.secondaryLabel
            let s = 26 * u
            icon(g.pick([.home, .search, .person, .star, .heart, .gear, .bell, .menu]), at: Box(xMin: cx - s / 2, yMin: top + 6 * u, xMax: cx + s / 2, yMax: top + 6 * u + s), color: color)
            let label = g.pick(["Home", "Search", "Profile", "Library", "Settings", "Explore", "Saved", "Inbox", "Store"])
            text(label, x: cx - textWidth(label, points: 10) / 2, baseline: top + 44 * u, points: 10, color: color)
        }
    }

    // MARK: elements

    mutating func icon(_ shape: IconShape, at box: Box, color: RGB, label: Bool = true) {
        let bg = image.pixel(x: min(image.width - 1, max(0, Int(box.centerX))), y: min(image.height - 1, max(0, Int(box.yMin))))
        shape.draw(into: &image, box: box, color: color, background: bg, generator: &g)
        if label { annotate(box, .icon) }
    }

    mutating func toggle(x: Float, centerY: Float, on: Bool) {
        let w = 51 * u, h = 31 * u
        let box = Box(xMin: x, yMin: centerY - h / 2, xMax: x + w, yMax: centerY + h / 2)
        image.fillRounded(box, radius: h / 2, color: on ? (g.chance(0.7) ? RGB(52, 199, 89) : style.accent) : style.fill)
        let knobX = on ? box.xMax - h / 2 : box.xMin + h / 2
        image.fillCircle(centerX: knobX, centerY: centerY + u, radius: h / 2 - 1.5 * u, color: RGB(0, 0, 0), alpha: 0.12)
        image.fillCircle(centerX: knobX, centerY: centerY, radius: h / 2 - 2 * u, color: RGB(255, 255, 255))
        annotate(box, on ? .toggleSelected : .toggleUnselected)
    }

    mutating func checkbox(x: Float, centerY: Float, checked: Bool) {
        let s = 22 * u
        let box = Box(xMin: x, yMin: centerY - s / 2, xMax: x + s, yMax: centerY + s / 2)
        let r = style.squareCheckboxes ? 4 * u : s / 2
        if checked {
            image.fillRounded(box, radius: r, color: style.accent)
            image.drawLine(x0: x + 0.25 * s, y0: centerY, x1: x + 0.43 * s, y1: centerY + 0.2 * s, thickness: max(1, 2 * u), color: RGB(255, 255, 255))
            image.drawLine(x0: x + 0.43 * s, y0: centerY + 0.2 * s, x1: x + 0.78 * s, y1: centerY - 0.22 * s, thickness: max(1, 2 * u), color: RGB(255, 255, 255))
        } else {
            image.fillRounded(box, radius: r, color: style.secondaryLabel)
            let inner = Box(xMin: box.xMin + 1.5 * u, yMin: box.yMin + 1.5 * u, xMax: box.xMax - 1.5 * u, yMax: box.yMax - 1.5 * u)
            image.fillRounded(inner, radius: max(0, r - 1.5 * u), color: image.pixel(x: max(0, Int(x) - 2), y: Int(centerY)))
        }
        annotate(box, checked ? .checkboxSelected : .checkboxUnselected)
    }

    mutating func picture(_ box: Box, radius: Float) {
        // Photo-like: a sky gradient, a horizon, blobs; or an abstract gradient.
        let x0 = max(0, Int(box.xMin)), x1 = min(image.width, Int(box.xMax)), y0 = max(0, Int(box.yMin)), y1 = min(image.height, Int(box.yMax))
        guard x1 > x0 + 2, y1 > y0 + 2 else { return }
        let top = RGB(UInt8(g.int(60...220)), UInt8(g.int(80...220)), UInt8(g.int(120...255)))
        let bottom = RGB(UInt8(g.int(20...180)), UInt8(g.int(40...200)), UInt8(g.int(10...160)))
        let horizon = g.uniform(0.4...0.8)
        var tile = RGBImage(size: Size(width: x1 - x0, height: y1 - y0))
        for y in 0..<tile.height {
            let t = Float(y) / Float(tile.height)
            let c = t < horizon ? top.mixed(with: RGB(255, 255, 255), t * 0.5) : bottom.mixed(with: RGB(0, 0, 0), (t - horizon) * 0.8)
            for x in 0..<tile.width { tile.blend(x: x, y: y, color: c, alpha: 1) }
        }
        for _ in 0..<g.int(1...5) {
            let c = RGB(UInt8(g.int(0...255)), UInt8(g.int(0...255)), UInt8(g.int(0...255)))
            tile.fillCircle(centerX: g.uniform(0...Float(tile.width)), centerY: g.uniform(0...Float(tile.height)),
                            radius: g.uniform(0.08...0.35) * Float(min(tile.width, tile.height)), color: c, alpha: g.uniform(0.5...1))
        }
        // Texture: a little noise so pictures do not look flat.
        for i in stride(from: 0, to: tile.pixels.count, by: 1) where g.next() & 7 == 0 {
            tile.pixels[i] = UInt8(max(0, min(255, Int(tile.pixels[i]) + g.int(-18...18))))
        }
        if radius > 0 {
            // Round the corners by painting the background back outside the rounded shape.
            var mask = RGBImage(size: tile.size, fill: RGB(0, 0, 0))
            mask.fillRounded(Box(xMin: 0, yMin: 0, xMax: Float(tile.width), yMax: Float(tile.height)), radius: radius, color: RGB(255, 255, 255))
            for y in 0..<tile.height { for x in 0..<tile.width {
                let a = Float(mask.pixels[(y * tile.width + x) * 3]) / 255
                if a < 1 {
                    let bg = image.pixel(x: x0 + x, y: y0 + y)
                    tile.blend(x: x, y: y, color: bg, alpha: 1 - a)
                }
            } }
        }
        image.paste(tile, x: x0, y: y0)
        annotate(Box(xMin: Float(x0), yMin: Float(y0), xMax: Float(x1), yMax: Float(y1)), .picture)
    }

    // MARK: sections

    mutating func table(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let rowHeight = g.pick([44, 44, 52, 60]) * u
        let rows = g.int(2...6)
        let inset = g.chance(0.5)
        let x0 = inset ? left : 0, x1 = inset ? right : width
        guard top + rowHeight * 1.5 < limit else { return top }
        let n = min(rows, Int((limit - top) / rowHeight))
        let group = Box(xMin: x0, yMin: top, xMax: x1, yMax: top + Float(n) * rowHeight)
        if inset { image.fillRounded(group, radius: style.cornerRadius * u, color: style.secondaryBackground) }
        let withIcons = g.chance(0.6)
        for r in 0..<n {
            let y = top + Float(r) * rowHeight, cy = y + rowHeight / 2
            var x = x0 + 16 * u
            if withIcons {
                let s = 28 * u
                icon(g.pick(IconShape.allCases), at: Box(xMin: x, yMin: cy - s / 2, xMax: x + s, yMax: cy + s / 2),
                     color: g.chance(0.5) ? style.accent : style.label)
                x += s + 12 * u
            }
            let accessory = g.nextUnitDouble()
            let reserve: Float = accessory < 0.18 ? 70 * u : 40 * u
            if rowHeight > 50 * u && g.chance(0.6) {
                text(phrase(words: 1...3), x: x, baseline: cy - 2 * u, points: 16, color: style.label, maxWidth: x1 - x - reserve)
                text(phrase(words: 2...5), x: x, baseline: cy + 16 * u, points: 13, color: style.secondaryLabel, maxWidth: x1 - x - reserve)
            } else {
                text(phrase(words: 1...3), x: x, baseline: cy + 6 * u, points: 17, color: style.label, maxWidth: x1 - x - reserve)
            }
            if accessory < 0.04 {
                toggle(x: x1 - 16 * u - 51 * u, centerY: cy, on: g.chance(0.5))
            } else if accessory < 0.07 {
                checkbox(x: x1 - 16 * u - 22 * u, centerY: cy, checked: g.chance(0.45))
            } else if accessory < 0.45 {
                icon(.chevronRight, at: Box(xMin: x1 - 30 * u, yMin: cy - 8 * u, xMax: x1 - 14 * u, yMax: cy + 8 * u), color: style.secondaryLabel)
            } else if accessory < 0.65 {
                let detail = g.pick(["On", "Off", "Never", "1 GB", "English", "Automatic", String(g.int(1...99))])
                text(detail, x: x1 - 36 * u - textWidth(detail, points: 17), baseline: cy + 6 * u, points: 17, color: style.secondaryLabel)
                icon(.chevronRight, at: Box(xMin: x1 - 30 * u, yMin: cy - 8 * u, xMax: x1 - 14 * u, yMax: cy + 8 * u), color: style.secondaryLabel)
            }
            if r < n - 1 { image.fill(Box(xMin: x, yMin: y + rowHeight - max(1, u / 2), xMax: x1, yMax: y + rowHeight), color: style.separator) }
        }
        // An inset group is a visible container of its rows (iOS's grouped table section).
        if inset { annotate(group, .container) }
        return group.yMax
    }

    mutating func card(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let h = g.uniform(120...230) * u
        guard top + 80 * u < limit else { return top }
        let box = Box(xMin: left, yMin: top, xMax: right, yMax: min(top + h, limit))
        image.fillRounded(Box(xMin: box.xMin, yMin: box.yMin + 2 * u, xMax: box.xMax, yMax: box.yMax + 2 * u), radius: style.cornerRadius * u, color: RGB(0, 0, 0), alpha: 0.08)
        image.fillRounded(box, radius: style.cornerRadius * u, color: style.dark ? style.secondaryBackground : RGB(255, 255, 255))
        var y = box.yMin
        if g.chance(0.7) && box.height > 110 * u {
            let ph = box.height * g.uniform(0.45...0.65)
            picture(Box(xMin: box.xMin, yMin: y, xMax: box.xMax, yMax: y + ph), radius: style.cornerRadius * u * 0.5)
            y += ph
        }
        var baseline = y + 24 * u
        let inner = box.xMax - box.xMin - 24 * u
        if baseline < box.yMax - 6 * u { text(phrase(words: 1...4), x: box.xMin + 12 * u, baseline: baseline, points: 17, color: style.label, bold: true, maxWidth: inner) }
        baseline += 20 * u
        while baseline < box.yMax - 8 * u {
            text(phrase(words: 3...7), x: box.xMin + 12 * u, baseline: baseline, points: 14, color: style.secondaryLabel, maxWidth: inner - (g.chance(0.3) ? 30 * u : 0))
            baseline += 18 * u
        }
        if g.chance(0.4) { icon(g.pick([.heart, .share, .star, .bell]), at: Box(xMin: box.xMax - 34 * u, yMin: box.yMax - 30 * u, xMax: box.xMax - 14 * u, yMax: box.yMax - 10 * u), color: style.accent) }
        annotate(box, .container)
        return box.yMax + 4 * u
    }

    mutating func pictures(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let n = g.int(1...3)
        let gap = 8 * u
        let w = (right - left - Float(n - 1) * gap) / Float(n)
        let h = min(w * g.uniform(0.6...1.1), limit - top - 24 * u)
        guard h > 40 * u else { return top }
        for k in 0..<n {
            let x = left + Float(k) * (w + gap)
            picture(Box(xMin: x, yMin: top, xMax: x + w, yMax: top + h), radius: g.chance(0.5) ? style.cornerRadius * u : 0)
            if g.chance(0.6) { text(phrase(words: 1...2), x: x, baseline: top + h + 16 * u, points: 13, color: style.label, maxWidth: w) }
        }
        return top + h + 22 * u
    }

    mutating func paragraph(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var baseline = top + 16 * u
        let lines = g.int(1...4)
        for k in 0..<lines where baseline < limit - 4 * u {
            let w = k == lines - 1 ? (right - left) * g.uniform(0.3...0.9) : right - left
            text(phrase(words: 4...9), x: left, baseline: baseline, points: 15, color: k == 0 && g.chance(0.3) ? style.label : style.secondaryLabel, maxWidth: w)
            baseline += 20 * u
        }
        return baseline
    }

    mutating func header(top: Float, left: Float, right: Float, limit: Float) -> Float {
        guard top + 30 * u < limit else { return top }
        text(phrase(words: 1...3).uppercased(), x: left, baseline: top + 16 * u, points: 13, color: style.secondaryLabel, maxWidth: right - left - 60 * u)
        if g.chance(0.4) {
            let more = g.pick(["See All", "More", "Show"])
            text(more, x: right - textWidth(more, points: 15), baseline: top + 16 * u, points: 15, color: style.accent)
        }
        return top + 24 * u
    }

    mutating func segmented(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let h = 32 * u
        guard top + h < limit else { return top }
        let n = g.int(2...4)
        let box = Box(xMin: left, yMin: top, xMax: right, yMax: top + h)
        image.fillRounded(box, radius: 8 * u, color: style.fill)
        let seg = box.width / Float(n)
        let selected = g.int(0...(n - 1))
        let sel = Box(xMin: box.xMin + Float(selected) * seg + 2 * u, yMin: box.yMin + 2 * u, xMax: box.xMin + Float(selected + 1) * seg - 2 * u, yMax: box.yMax - 2 * u)
        image.fillRounded(sel, radius: 7 * u, color: style.dark ? RGB(99, 99, 102) : RGB(255, 255, 255))
        for k in 0..<n {
            let label = g.pick(["All", "Day", "Week", "Month", "Year", "Photos", "Albums", "New", "Top", "Map", "List"])
            let cx = box.xMin + seg * (Float(k) + 0.5)
            text(label, x: cx - textWidth(label, points: 13) / 2, baseline: top + 21 * u, points: 13, color: style.label, label: false)
        }
        annotate(box, .segmentedControl)
        return box.yMax
    }

    mutating func slider(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let h = 28 * u
        guard top + h < limit else { return top }
        var x0 = left, x1 = right
        if g.chance(0.5) {
            icon(.star, at: Box(xMin: left, yMin: top + 4 * u, xMax: left + 20 * u, yMax: top + 24 * u), color: style.secondaryLabel)
            icon(.star, at: Box(xMin: right - 24 * u, yMin: top + 2 * u, xMax: right, yMax: top + 26 * u), color: style.secondaryLabel)
            x0 += 30 * u; x1 -= 34 * u
        }
        let cy = top + h / 2, value = g.uniform(0.05...0.95)
        let knob = x0 + (x1 - x0) * value
        image.fillRounded(Box(xMin: x0, yMin: cy - 2 * u, xMax: x1, yMax: cy + 2 * u), radius: 2 * u, color: style.fill)
        image.fillRounded(Box(xMin: x0, yMin: cy - 2 * u, xMax: knob, yMax: cy + 2 * u), radius: 2 * u, color: style.accent)
        image.fillCircle(centerX: knob, centerY: cy + u, radius: 14 * u, color: RGB(0, 0, 0), alpha: 0.15)
        image.fillCircle(centerX: knob, centerY: cy, radius: 13 * u, color: RGB(255, 255, 255))
        annotate(Box(xMin: x0 - 2 * u, yMin: top, xMax: x1 + 2 * u, yMax: top + h), .slider)
        return top + h
    }

    mutating func textFields(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var y = top
        for _ in 0..<g.int(1...3) {
            let h = 36 * u
            guard y + h < limit else { break }
            let box = Box(xMin: left, yMin: y, xMax: right, yMax: y + h)
            if g.chance(0.5) {
                image.fillRounded(box, radius: 10 * u, color: style.fill)
            } else {
                image.fillRounded(box, radius: 6 * u, color: style.separator)
                image.fillRounded(Box(xMin: box.xMin + u, yMin: box.yMin + u, xMax: box.xMax - u, yMax: box.yMax - u), radius: 5 * u, color: style.background)
            }
            var x = box.xMin + 10 * u
            if g.chance(0.35) {
                IconShape.search.draw(into: &image, box: Box(xMin: x, yMin: y + 10 * u, xMax: x + 16 * u, yMax: y + 26 * u), color: style.secondaryLabel, background: style.fill, generator: &g)
                x += 24 * u
            }
            let filled = g.chance(0.3)
            text(filled ? phrase(words: 1...3) : g.pick(["Search", "Email", "Password", "Name", "Phone number", "Address", "Message"]),
                 x: x, baseline: y + 23 * u, points: 16, color: filled ? style.label : style.secondaryLabel, maxWidth: box.xMax - x - 8 * u, label: false)
            annotate(box, .textField)
            y = box.yMax + 10 * u
        }
        return y
    }

    mutating func carousel(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let h = min((right - left) * 0.5, limit - top - 24 * u)
        guard h > 50 * u else { return top }
        picture(Box(xMin: left, yMin: top, xMax: right, yMax: top + h), radius: style.cornerRadius * u)
        let n = g.int(3...7), r = 3.5 * u, gap = 16 * u
        let cx = (left + right) / 2, cy = top + h + 12 * u
        let x0 = cx - Float(n - 1) * gap / 2
        let current = g.int(0...(n - 1))
        for k in 0..<n {
            image.fillCircle(centerX: x0 + Float(k) * gap, centerY: cy, radius: r, color: k == current ? style.label : style.secondaryLabel, alpha: k == current ? 1 : 0.5)
        }
        annotate(Box(xMin: x0 - r - 2 * u, yMin: cy - r - 2 * u, xMax: x0 + Float(n - 1) * gap + r + 2 * u, yMax: cy + r + 2 * u), .pageControl)
        return cy + 12 * u
    }

    mutating func checkboxes(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var y = top
        for _ in 0..<g.int(1...4) {
            guard y + 30 * u < limit else { break }
            let cy = y + 15 * u
            checkbox(x: left, centerY: cy, checked: g.chance(0.4))
            text(phrase(words: 2...5), x: left + 32 * u, baseline: cy + 5 * u, points: 15, color: style.label, maxWidth: right - left - 32 * u)
            y += 34 * u
        }
        return y
    }

    mutating func toggleRows(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var y = top
        for _ in 0..<g.int(1...3) {
            guard y + 44 * u < limit else { break }
            let cy = y + 22 * u
            text(phrase(words: 1...3), x: left, baseline: cy + 6 * u, points: 17, color: style.label, maxWidth: right - left - 70 * u)
            toggle(x: right - 51 * u, centerY: cy, on: g.chance(0.5))
            y += 44 * u
        }
        return y
    }

    mutating func buttons(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let h = 48 * u
        guard top + h < limit else { return top }
        let label = g.pick(["Continue", "Sign In", "Get Started", "Buy Now", "Add to Cart", "Subscribe", "Follow", "Download", "Try Free"])
        let filled = g.chance(0.6)
        let w = g.chance(0.6) ? right - left : textWidth(label, points: 17, bold: true) + 48 * u
        let box = Box(xMin: left, yMin: top, xMax: left + w, yMax: top + h)
        if filled { image.fillRounded(box, radius: g.chance(0.3) ? h / 2 : style.cornerRadius * u, color: style.accent) }
        // Buttons are labelled by what they show: here, their text.
        text(label, x: box.centerX - textWidth(label, points: 17, bold: true) / 2, baseline: top + 30 * u, points: 17,
             color: filled ? RGB(255, 255, 255) : style.accent, bold: true)
        return box.yMax
    }

    mutating func dialog() {
        image.fill(Box(xMin: 0, yMin: 0, xMax: width, yMax: height), color: RGB(0, 0, 0), alpha: 0.4)
        let w = 270 * u, h = g.uniform(130...190) * u
        let box = Box(xMin: (width - w) / 2, yMin: (height - h) / 2, xMax: (width + w) / 2, yMax: (height + h) / 2)
        image.fillRounded(box, radius: 14 * u, color: style.dark ? RGB(44, 44, 46) : RGB(250, 250, 250))
        // What the dialog covers is no longer visible: drop it. Dimmed elements around it stay.
        let keep = boxes.indices.filter { boxes[$0].intersectionArea(box) < 0.3 * boxes[$0].area }
        boxes = keep.map { boxes[$0] }
        labels = keep.map { labels[$0] }
        let title = phrase(words: 1...3) + "?"
        text(title, x: box.centerX - min(w - 24 * u, textWidth(title, points: 17, bold: true)) / 2, baseline: box.yMin + 30 * u, points: 17,
             color: style.label, bold: true, maxWidth: w - 24 * u)
        var baseline = box.yMin + 52 * u
        while baseline < box.yMax - 52 * u {
            text(phrase(words: 3...6), x: box.xMin + 16 * u, baseline: baseline, points: 13, color: style.label, maxWidth: w - 32 * u)
            baseline += 17 * u
        }
        let buttonTop = box.yMax - 44 * u
        image.fill(Box(xMin: box.xMin, yMin: buttonTop, xMax: box.xMax, yMax: buttonTop + max(1, u / 2)), color: style.separator)
        let titles = g.chance(0.6) ? [g.pick(["Cancel", "Not Now", "Later"]), g.pick(["OK", "Allow", "Delete", "Continue"])] : ["OK"]
        let slot = w / Float(titles.count)
        for (k, label) in titles.enumerated() {
            let cx = box.xMin + slot * (Float(k) + 0.5)
            text(label, x: cx - textWidth(label, points: 17) / 2, baseline: buttonTop + 28 * u, points: 17, color: style.accent, bold: k == titles.count - 1)
        }
        annotate(box, .dialog)
    }

    /// Things that are not elements: faint shapes and gradients behind the content.
    mutating func clutterBackground() {
        if g.chance(0.3) {
            let tint = style.accent
            for y in 0..<image.height where y % 2 == 0 {
                let a = 0.08 * (1 - Float(y) / height)
                image.fill(x0: 0, y0: y, x1: image.width, y1: y + 2, color: tint, alpha: a)
            }
        }
        for _ in 0..<g.int(0...3) {
            image.fillCircle(centerX: g.uniform(0...width), centerY: g.uniform(0...height), radius: g.uniform(10...80) * u,
                             color: style.accent, alpha: g.uniform(0.03...0.08))
        }
    }
}
