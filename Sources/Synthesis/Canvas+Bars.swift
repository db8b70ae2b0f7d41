import Boxes
import IconVocabulary
import Images
import SeededRandom

/// The bars around a screen's content, chosen before the content is drawn so that the content knows
/// its room; drawn after it, over whatever scrolled beneath them.
struct Chrome {
    enum TopBar { case none, iOSInline, iOSLarge, material, materialCentered }
    enum Under { case none, tabs, search, segments }
    enum Footer { case none, iOSTabBar, bottomNavigation, toolbar }

    var statusBar: Float = 0
    var topBar = TopBar.none
    var topBarHeight: Float = 0
    var under = Under.none
    var underHeight: Float = 0
    var footer = Footer.none
    var footerHeight: Float = 0
    /// The home indicator's strip under everything on notched iPhones.
    var homeIndicator: Float = 0
    var fab = false
    /// The content starts with a picture behind a transparent status bar and top bar.
    var hero = false

    var contentTop: Float { hero ? 0 : statusBar + topBarHeight + underHeight }
    var headerBottom: Float { statusBar + topBarHeight + underHeight }
    var bottomInset: Float { footerHeight + homeIndicator }
}

extension Canvas {
    /// Picks the bars of this screen from the app's idiom.
    mutating func planChrome(allowHero: Bool) -> Chrome {
        var c = Chrome()
        let ios = style.idiom == .iOS
        c.statusBar = (ios ? (device.notch ? 47 : 20) : 24) * u
        if device.notch { c.homeIndicator = 34 * u }
        let r = g.nextUnitDouble()
        if ios {
            c.topBar = r < 0.08 ? .none : (style.largeTitle && g.chance(0.7)) ? .iOSLarge : .iOSInline
            c.topBarHeight = c.topBar == .iOSLarge ? 96 * u : c.topBar == .iOSInline ? 44 * u : 0
            let v = g.nextUnitDouble()
            c.under = c.topBar == .none ? .none : v < 0.15 ? .search : v < 0.22 ? .segments : .none
            c.underHeight = c.under == .none ? 0 : 48 * u
            let f = g.nextUnitDouble()
            c.footer = f < 0.55 ? .iOSTabBar : f < 0.63 ? .toolbar : .none
            c.footerHeight = c.footer == .none ? 0 : c.footer == .iOSTabBar ? 49 * u : 44 * u
        } else {
            c.topBar = r < 0.06 ? .none : g.chance(0.15) ? .materialCentered : .material
            c.topBarHeight = c.topBar == .none ? 0 : 56 * u
            let v = g.nextUnitDouble()
            c.under = c.topBar == .none ? .none : v < 0.18 ? .tabs : v < 0.26 ? .search : .none
            c.underHeight = c.under == .tabs ? 48 * u : c.under == .search ? 60 * u : 0
            c.footer = g.chance(0.4) ? .bottomNavigation : .none
            c.footerHeight = c.footer == .bottomNavigation ? (g.chance(0.3) ? 80 : 56) * u : 0
            c.fab = g.chance(0.22)
        }
        c.hero = allowHero && c.under == .none && g.chance(0.12)
        return c
    }

    // MARK: status bar

    /// The status bar: time, signal, Wi-Fi and battery (and notification icons on Android), labelled as
    /// text and decorative icons. `over` is the colour behind it.
    mutating func statusBar(_ c: Chrome, over background: RGB?) {
        layer = .statusBar
        defer { layer = .content }
        let h = c.statusBar
        if let background { image.fill(Box(xMin: 0, yMin: 0, xMax: width, yMax: h), color: background) }
        let behind = background ?? colour(at: width / 2, h / 2)
        let ink: RGB = behind.luminance > 0.6 ? RGB(0, 0, 0) : RGB(255, 255, 255)
        let time = g.chance(0.5) ? "9:41" : String(format: "%d:%02d", g.int(1...12), g.int(0...59))
        let s = min(h * 0.62, 15 * u)
        let cy = device.notch ? h * 0.55 : h / 2
        func glyphs(_ shapes: [StatusGlyph], from x: Float) -> Float {
            var x = x
            for shape in shapes {
                let w = shape == .battery ? s * 1.7 : s
                let b = Box(xMin: x, yMin: cy - s / 2, xMax: x + w, yMax: cy + s / 2)
                shape.draw(into: &image, box: b, color: ink, charge: g.uniform(0.15...1))
                annotate(b, .icon, iconType: IconVocabulary.other)  // signal, Wi-Fi, battery: none of the vocabulary's types
                x = b.xMax + 5 * u
            }
            return x
        }
        let points: Float = style.idiom == .iOS ? (device.notch ? 15 : 12) : 13
        if style.idiom == .iOS {
            if device.notch {
                text(time, centerX: 54 * u, centerY: cy, points: points, color: ink, face: .bold)
                _ = glyphs([.signal, .wifi, .battery], from: width - 24 * u - s * 3.7 - 10 * u)
            } else {
                _ = glyphs([.signal, .wifi], from: 6 * u)
                text(time, centerX: width / 2, centerY: cy, points: points, color: ink, face: .bold)
                _ = glyphs([.battery], from: width - 8 * u - s * 1.7)
            }
        } else {
            // Android: notification icons at the left, then system icons and (older versions) the time at the right.
            let timeLeft = g.chance(0.5)
            var x: Float = 8 * u
            if timeLeft { x = (text(time, x: x, baseline: cy + Float(pixelSize(points)) * 0.36, points: points, color: ink)?.xMax ?? x) + 8 * u }
            let notifications = (0..<g.int(0...2)).map { _ in g.pick([IconShape.mail, .chat, .bell, .download, .photo, .music, .calendar]) }
            for shape in notifications {
                icon(shape, at: Box(xMin: x, yMin: cy - s * 0.45, xMax: x + s * 0.9, yMax: cy + s * 0.45), color: ink)
                x += s * 0.9 + 6 * u
            }
            let timeW = timeLeft ? 0 : textWidth(time, points: points) + 8 * u
            let end = glyphs([.wifi, .signal, .battery], from: width - 8 * u - timeW - s * 3.7 - 10 * u)
            if !timeLeft { text(time, x: end + 2 * u, baseline: cy + Float(pixelSize(points)) * 0.36, points: points, color: ink) }
        }
    }

    // MARK: top bars

    /// The navigation bar or app bar, and what sits under it (tabs, a search field, segments).
    mutating func topBar(_ c: Chrome, title: String) {
        layer = .topBar
        defer { layer = .content }
        let top = c.statusBar
        let clear = c.hero
        let bar = style.barColour
        let ink = clear ? RGB(255, 255, 255) : style.onBar
        let tint = clear ? RGB(255, 255, 255) : (style.colouredBar ? style.onBar : style.accent)
        if !clear && c.topBar != .none {
            image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: top + c.topBarHeight + (c.under == .tabs ? c.underHeight : 0)), color: bar)
        }
        switch c.topBar {
        case .none: break
        case .iOSInline, .iOSLarge:
            let rowH = 44 * u, cy = top + rowH / 2
            var leftEnd: Float = 8 * u
            if c.topBar == .iOSInline && g.chance(0.7) {
                beginGroup()
                icon(.chevronLeft, at: Box(xMin: 8 * u, yMin: cy - 11 * u, xMax: 30 * u, yMax: cy + 11 * u), color: tint, interactive: true)
                leftEnd = 32 * u
                if g.chance(0.5) {
                    let back = g.pick(["Back", g.pick(style.language.words)])
                    leftEnd = text(back, x: 31 * u, baseline: cy + Float(pixelSize(17)) * 0.36, points: 17, color: tint, maxWidth: width * 0.25, interactive: true)?.xMax ?? leftEnd
                }
                endGroup()
            } else if g.chance(0.3) {
                let word = g.pick(style.language.cancel + ["Edit"])
                leftEnd = text(word, x: 16 * u, baseline: cy + Float(pixelSize(17)) * 0.36, points: 17, color: tint, maxWidth: width * 0.25, interactive: true)?.xMax ?? leftEnd
            }
            // Reading order: what is at the left, the title, the actions at the right (the large title sits below them).
            let actions = planActions(textual: g.chance(0.4))
            if c.topBar == .iOSInline {
                let room = max(20 * u, 2 * min(width / 2 - leftEnd, actions.start - width / 2) - 16 * u)
                text(title, centerX: width / 2, centerY: cy, points: 17, color: ink, face: .bold, maxWidth: room)
                drawActions(actions, top: top, height: rowH, tint: tint)
            } else {
                drawActions(actions, top: top, height: rowH, tint: tint)
                text(title, x: 16 * u, baseline: top + 82 * u, points: 32, color: ink, face: .title, maxWidth: width - 32 * u)
            }
            if !clear && !style.colouredBar { image.fill(Box(xMin: 0, yMin: top + c.topBarHeight - max(1, u / 2), xMax: width, yMax: top + c.topBarHeight), color: style.separator) }
        case .material, .materialCentered:
            let cy = top + 28 * u
            let navigation = g.nextUnitDouble()
            if navigation < 0.85 {
                let shape: IconShape = navigation < 0.4 ? .menu : navigation < 0.8 ? .arrowBack : .close
                icon(shape, at: Box(xMin: 16 * u, yMin: cy - 12 * u, xMax: 40 * u, yMax: cy + 12 * u), color: ink, interactive: true)
            }
            let actions = planActions(textual: g.chance(0.12))
            if c.topBar == .materialCentered {
                text(title, centerX: width / 2, centerY: cy, points: 20, color: ink, face: .title, maxWidth: max(20 * u, 2 * min(width / 2 - 56 * u, actions.start - width / 2)))
            } else {
                let x = navigation < 0.85 ? 72 * u : 16 * u
                text(title, x: x, baseline: cy + Float(pixelSize(20)) * 0.36, points: 20, color: ink, face: .title, maxWidth: actions.start - x - 8 * u)
            }
            drawActions(actions, top: top, height: 56 * u, tint: ink)
        }
        var y = top + c.topBarHeight
        switch c.under {
        case .none: break
        case .tabs: topTabs(top: y, height: c.underHeight, ink: ink)
        case .search:
            if !clear { image.fill(Box(xMin: 0, yMin: y, xMax: width, yMax: y + c.underHeight), color: style.idiom == .iOS ? bar : style.background) }
            let h = (style.idiom == .iOS ? 36 : 44) * u
            textField(Box(xMin: 16 * u, yMin: y + (c.underHeight - h) / 2, xMax: width - 16 * u, yMax: y + (c.underHeight + h) / 2),
                      placeholder: g.pick(style.language.placeholders.prefix(1) + ["Search"]), filled: false, search: true)
        case .segments:
            if !clear { image.fill(Box(xMin: 0, yMin: y, xMax: width, yMax: y + c.underHeight), color: bar) }
            segmentedControl(left: 16 * u, right: width - 16 * u, top: y + 8 * u, labels: segmentLabels(g.int(2...4)))
        }
        y += c.underHeight
        // Material elevation: a soft shadow under the bar.
        if style.idiom == .android && !clear && c.topBar != .none && c.under != .search {
            for k in 0..<max(1, Int(4 * u)) { image.fill(Box(xMin: 0, yMin: y + Float(k), xMax: width, yMax: y + Float(k + 1)), color: RGB(0, 0, 0), alpha: 0.14 * (1 - Float(k) / (4 * u))) }
        }
    }

    /// What a bar shows at its right: one text button, or up to three action icons, and the x where they start.
    struct BarActions {
        var word: String? = nil
        var shapes: [IconShape] = []
        var start: Float
    }

    mutating func planActions(textual: Bool) -> BarActions {
        if textual {
            let word = g.pick(["Edit", "Done", "Save", "Add"] + style.language.confirm.prefix(1))
            return BarActions(word: word, start: width - 24 * u - textWidth(word, points: 17))
        }
        let n = g.int(0...3)
        let shapes = (0..<n).map { k in k == n - 1 && style.idiom == .android && g.chance(0.5) ? .moreVertical : g.pick(IconShape.barActions) }
        let step = (style.idiom == .iOS ? 40 : 48) * u
        return BarActions(shapes: shapes, start: n == 0 ? width - 16 * u : width - 16 * u - 24 * u - Float(n - 1) * step - 8 * u)
    }

    mutating func drawActions(_ a: BarActions, top: Float, height: Float, tint: RGB) {
        let cy = top + height / 2
        if let word = a.word {
            text(word, x: width - 16 * u - textWidth(word, points: 17), baseline: cy + Float(pixelSize(17)) * 0.36, points: 17, color: tint,
                 face: g.chance(0.5) ? .bold : .regular, interactive: true)
            return
        }
        let s = 24 * u, step = (style.idiom == .iOS ? 40 : 48) * u
        var x = width - 16 * u - s - Float(a.shapes.count - 1) * step
        for shape in a.shapes {
            icon(shape, at: Box(xMin: x, yMin: cy - s / 2, xMax: x + s, yMax: cy + s / 2), color: tint, interactive: true)
            x += step
        }
    }

    /// Material tabs under an app bar: labels (upper-case or not), the selected one underlined; a scrolling
    /// row is left-aligned and runs off the right edge.
    mutating func topTabs(top: Float, height: Float, ink: RGB) {
        let n = g.int(2...5)
        let scrolling = n >= 4 && g.chance(0.5)
        let upper = g.chance(0.6)
        let labels = (0..<n).map { _ in upper ? g.pick(style.language.words).uppercased() : g.pick(style.language.words) }
        let selected = g.int(0...(n - 1))
        let withIcons = !scrolling && g.chance(0.2)
        var x: Float = scrolling ? 16 * u : 0
        let slot = width / Float(n)
        let dim = ink.mixed(with: style.barColour, 0.35)
        for k in 0..<n {
            let w = scrolling ? textWidth(labels[k], points: 14, face: .bold) + 32 * u : slot
            let cx = x + w / 2
            let colour = k == selected ? ink : dim
            if withIcons {
                beginGroup()
                icon(g.pick(IconShape.tabs), at: Box(xMin: cx - 10 * u, yMin: top + 4 * u, xMax: cx + 10 * u, yMax: top + 24 * u), color: colour, interactive: true, selected: k == selected)
                text(labels[k], centerX: cx, centerY: top + 34 * u, points: 12, color: colour, face: .bold, maxWidth: w - 8 * u, interactive: true, selected: k == selected)
                endGroup()
            } else {
                text(labels[k], centerX: cx, centerY: top + height / 2, points: 14, color: colour, face: .bold, maxWidth: w - 8 * u, interactive: true, selected: k == selected)
            }
            if k == selected {
                image.fill(Box(xMin: x + (scrolling ? 8 * u : 0), yMin: top + height - 2.5 * u, xMax: x + w - (scrolling ? 8 * u : 0), yMax: top + height),
                           color: style.colouredBar ? ink : style.accent)
            }
            x += w
        }
    }

    func segmentLabelsBase() -> [String] { ["All", "Day", "Week", "Month", "Year", "Photos", "Albums", "New", "Top", "Map", "List", "Popular", "Recent"] }

    mutating func segmentLabels(_ n: Int) -> [String] {
        (0..<n).map { _ in g.chance(0.6) ? g.pick(segmentLabelsBase()) : g.pick(style.language.words) }
    }

    // MARK: bottom bars

    /// The tab bar, bottom navigation or toolbar, and the home indicator.
    mutating func footer(_ c: Chrome) {
        layer = .bottomBar
        defer { layer = .content }
        let top = height - c.bottomInset
        switch c.footer {
        case .none: break
        case .iOSTabBar, .bottomNavigation:
            let ios = c.footer == .iOSTabBar
            let coloured = !ios && style.colouredBar && g.chance(0.35)
            let bg = ios ? (style.dark ? RGB(22, 22, 24) : RGB(248, 248, 248)) : coloured ? style.accent : (style.dark ? style.surface : RGB(255, 255, 255))
            image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: height), color: bg)
            if ios { image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: top + max(1, u / 2)), color: style.separator) }
            else { for k in 0..<max(1, Int(3 * u)) { image.fill(Box(xMin: 0, yMin: top - Float(k + 1), xMax: width, yMax: top - Float(k)), color: RGB(0, 0, 0), alpha: 0.08 * (1 - Float(k) / (3 * u))) } }
            tabButtons(top: top, height: c.footerHeight, background: bg, coloured: coloured, ios: ios)
        case .toolbar:
            image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: height), color: style.dark ? RGB(22, 22, 24) : RGB(248, 248, 248))
            image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: top + max(1, u / 2)), color: style.separator)
            let n = g.int(2...5), s = 24 * u
            for k in 0..<n {
                let cx = n == 1 ? width / 2 : 24 * u + s / 2 + Float(k) * (width - 48 * u - s) / Float(n - 1)
                icon(g.pick(IconShape.barActions + [.trash, .share, .chevronLeft, .chevronRight]), at: Box(xMin: cx - s / 2, yMin: top + 10 * u, xMax: cx + s / 2, yMax: top + 10 * u + s),
                     color: style.accent, interactive: true)
            }
        }
        if c.homeIndicator > 0 {
            let behind = colour(at: width / 2, height - 2)
            image.paintRounded(Box(xMin: width / 2 - 67 * u, yMin: height - 13 * u, xMax: width / 2 + 67 * u, yMax: height - 8 * u), radius: 2.5 * u,
                              color: behind.luminance > 0.5 ? RGB(0, 0, 0) : RGB(255, 255, 255))
        }
    }

    /// Tab buttons: each item's icon and text form one `tab_button` group; the selected one is tinted
    /// (Material 3: inside a pale pill), and both members carry the selection.
    mutating func tabButtons(top: Float, height h: Float, background: RGB, coloured: Bool, ios: Bool) {
        let n = g.int(3...5)
        let slot = width / Float(n)
        let selected = g.int(0...(n - 1))
        let labelsOnlySelected = !ios && n >= 4 && g.chance(0.2)
        let noLabels = g.chance(0.1)
        let pill = !ios && h > 60 * u
        let on = coloured ? RGB(255, 255, 255) : style.accent
        let off = coloured ? background.mixed(with: RGB(255, 255, 255), 0.6) : (style.dark ? RGB(140, 140, 146) : RGB(130, 130, 136))
        var shapes = IconShape.tabs
        var labels = style.language.tabs
        for k in 0..<n {
            let cx = slot * (Float(k) + 0.5)
            let isOn = k == selected
            let colour = isOn ? on : off
            let s = (ios ? 26 : 24) * u
            let showLabel = !noLabels && (!labelsOnlySelected || isOn)
            let iconTop = showLabel ? top + (pill ? 16 : ios ? 6 : 8) * u : top + (h - s) / 2
            let shape = shapes.remove(at: g.int(0...(shapes.count - 1)))
            beginGroup(.tabButton)
            if pill && isOn { image.paintRounded(Box(xMin: cx - 32 * u, yMin: iconTop - 4 * u, xMax: cx + 32 * u, yMax: iconTop + s + 4 * u), radius: 16 * u, color: style.accent.mixed(with: background, 0.78)) }
            icon(shape, at: Box(xMin: cx - s / 2, yMin: iconTop, xMax: cx + s / 2, yMax: iconTop + s), color: colour, interactive: true, selected: isOn)
            if showLabel {
                let label = labels.remove(at: g.int(0...(labels.count - 1)))
                let points: Float = ios ? 10 : 12
                text(label, centerX: cx, centerY: iconTop + s + (pill ? 14 : ios ? 9 : 10) * u, points: points, color: colour, face: isOn && !ios ? .bold : .regular,
                     maxWidth: slot - 4 * u, interactive: true, selected: isOn)
            }
            endGroup()
        }
    }

    /// A floating action button at the bottom right above `bottom`: a disc with an icon, or an extended pill
    /// with icon and text (one group).
    mutating func floatingButton(bottom: Float) {
        layer = .floating
        defer { layer = .content }
        let colour = style.secondaryAccent
        let ink: RGB = colour.luminance > 0.62 ? RGB(20, 20, 20) : RGB(255, 255, 255)
        let shape = g.pick([IconShape.plus, .edit, .chat, .camera, .send, .location])
        if g.chance(0.25) {
            let label = g.pick(style.language.actions)
            let w = textWidth(label, points: 14, face: .bold) + 68 * u, h = 48 * u
            let box = Box(xMin: width - 16 * u - w, yMin: bottom - 16 * u - h, xMax: width - 16 * u, yMax: bottom - 16 * u)
            occlude(box)
            image.paintRounded(box.offset(dy: 2 * u), radius: h / 2, color: RGB(0, 0, 0), alpha: 0.2)
            image.paintRounded(box, radius: style.cornerRadius > 10 ? h / 2 : 16 * u, color: colour)
            beginGroup()
            icon(shape, at: Box(xMin: box.xMin + 16 * u, yMin: box.centerY - 12 * u, xMax: box.xMin + 40 * u, yMax: box.centerY + 12 * u), color: ink, interactive: true)
            text(label, x: box.xMin + 52 * u, baseline: box.centerY + Float(pixelSize(14)) * 0.36, points: 14, color: ink, face: .bold, interactive: true)
            endGroup()
        } else {
            let d = 56 * u
            let box = Box(xMin: width - 16 * u - d, yMin: bottom - 16 * u - d, xMax: width - 16 * u, yMax: bottom - 16 * u)
            occlude(box)
            image.paintCircle(centerX: box.centerX, centerY: box.centerY + 3 * u, radius: d / 2, color: RGB(0, 0, 0), alpha: 0.22)
            if g.chance(0.4) { image.paintRounded(box, radius: 16 * u, color: colour) } else { image.paintCircle(centerX: box.centerX, centerY: box.centerY, radius: d / 2, color: colour) }
            icon(shape, at: Box(xMin: box.centerX - 12 * u, yMin: box.centerY - 12 * u, xMax: box.centerX + 12 * u, yMax: box.centerY + 12 * u), color: ink, interactive: true)
        }
    }
}

/// The system glyphs of a status bar.
enum StatusGlyph {
    case signal, wifi, battery

    func draw(into image: inout RGBImage, box: Box, color: RGB, charge: Float) {
        switch self {
        case .signal:
            for k in 0..<4 {
                let bh = box.height * Float(k + 1) / 4, bw = box.width / 5.5
                let x = box.xMin + Float(k) * box.width / 4
                image.paintRounded(Box(xMin: x, yMin: box.yMax - bh, xMax: x + bw, yMax: box.yMax), radius: bw / 3, color: color)
            }
        case .wifi:
            let cx = box.centerX, by = box.yMax
            for (k, r) in [Float(0.95), 0.65, 0.35].enumerated() {
                image.fillPolygon([(cx, by), (cx - r * box.width * 0.55, by - r * box.height * 0.8), (cx - r * box.width * 0.3, by - r * box.height),
                                   (cx + r * box.width * 0.3, by - r * box.height), (cx + r * box.width * 0.55, by - r * box.height * 0.8)], color: color, alpha: k == 0 ? 0.9 : 1)
                if k < 2 {
                    let q = r - 0.15
                    image.fillPolygon([(cx, by), (cx - q * box.width * 0.55, by - q * box.height * 0.8), (cx - q * box.width * 0.3, by - q * box.height),
                                       (cx + q * box.width * 0.3, by - q * box.height), (cx + q * box.width * 0.55, by - q * box.height * 0.8)],
                                      color: image.pixel(x: min(image.width - 1, max(0, Int(box.xMin) - 2)), y: min(image.height - 1, max(0, Int(box.centerY)))))
                }
            }
        case .battery:
            let body = Box(xMin: box.xMin, yMin: box.yMin + box.height * 0.15, xMax: box.xMax - box.width * 0.08, yMax: box.yMax - box.height * 0.15)
            image.stroke(body, color: color, thickness: max(1, Int(box.height / 10)), alpha: 0.6)
            image.fill(Box(xMin: body.xMin + 2, yMin: body.yMin + 2, xMax: body.xMin + 2 + (body.width - 4) * charge, yMax: body.yMax - 2), color: color)
            image.fill(Box(xMin: body.xMax + 1, yMin: box.centerY - box.height * 0.15, xMax: box.xMax, yMax: box.centerY + box.height * 0.15), color: color, alpha: 0.6)
        }
    }
}
