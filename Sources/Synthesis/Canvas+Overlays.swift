import Boxes
import Images
import SeededRandom

/// What can cover a screen: dialogs, sheets, keyboards, drawers, snackbars. Each drops or clips the
/// annotations it hides (`occlude`); the modal ones also take everything behind them out of the order.
extension Canvas {
    /// Dims the whole screen behind a modal.
    mutating func scrim(_ alpha: Float) {
        image.fill(Box(xMin: 0, yMin: 0, xMax: width, yMax: height), color: RGB(0, 0, 0), alpha: alpha)
    }

    /// An alert (iOS) or a Material dialog, centred, over a dimmed screen.
    mutating func dialog() {
        layer = .overlay
        defer { layer = .content }
        let ios = style.idiom == .iOS
        let w = ios ? min(270 * u, width - 40 * u) : min(width - 48 * u, g.uniform(280...400) * u)
        let options = !ios && g.chance(0.3)
        let field = !options && g.chance(0.15)
        let h = (options ? g.uniform(230...320) : field ? 190 : g.uniform(140...220)) * u
        let box = Box(xMin: (width - w) / 2, yMin: (height - h) / 2, xMax: (width + w) / 2, yMax: (height + h) / 2)
        occlude(box, modal: true)
        scrim(g.uniform(0.3...0.55))
        let surface = style.dark ? RGB(44, 44, 46) : ios ? RGB(242, 242, 242) : RGB(255, 255, 255)
        image.paintRounded(box, radius: (ios ? 14 : g.pick([2, 4, 8, 28])) * u, color: surface)
        annotate(box, .dialog)
        let ink = style.dark ? RGB(255, 255, 255) : RGB(20, 20, 20)
        let title = phrase(words: 1...4) + (g.chance(0.5) ? "?" : "")
        if ios {
            text(title, centerX: box.centerX, centerY: box.yMin + 26 * u, points: 17, color: ink, face: .bold, maxWidth: w - 32 * u)
            let buttonsTop = box.yMax - 44 * u
            var b = box.yMin + 52 * u
            if field {
                textField(Box(xMin: box.xMin + 16 * u, yMin: b - 10 * u, xMax: box.xMax - 16 * u, yMax: b + 18 * u), placeholder: g.pick(style.language.placeholders), filled: false)
                b += 34 * u
            }
            paragraph(sentence(words: 4...18), x: box.xMin + 16 * u, baseline: b, width: w - 32 * u, points: 13, color: ink, maxLines: 4, limit: buttonsTop - 10 * u, centered: true)
            image.fill(Box(xMin: box.xMin, yMin: buttonsTop, xMax: box.xMax, yMax: buttonsTop + max(1, u / 2)), color: RGB(60, 60, 67), alpha: 0.3)
            let titles = g.chance(0.65) ? [g.pick(style.language.cancel), g.pick(style.language.confirm)] : [g.pick(style.language.confirm)]
            let slot = w / Float(titles.count)
            for (k, label) in titles.enumerated() {
                if k > 0 { image.fill(Box(xMin: box.xMin + slot * Float(k), yMin: buttonsTop, xMax: box.xMin + slot * Float(k) + max(1, u / 2), yMax: box.yMax), color: RGB(60, 60, 67), alpha: 0.3) }
                text(label, centerX: box.xMin + slot * (Float(k) + 0.5), centerY: buttonsTop + 22 * u, points: 17, color: RGB(0, 122, 255),
                     face: k == titles.count - 1 ? .bold : .regular, maxWidth: slot - 8 * u, interactive: true)
            }
            return
        }
        let left = box.xMin + 24 * u, right = box.xMax - 24 * u
        text(title, x: left, baseline: box.yMin + 40 * u, points: 20, color: ink, face: .title, maxWidth: right - left)
        let buttonsTop = box.yMax - 52 * u
        var y = box.yMin + 66 * u
        if options {
            let radio = g.chance(0.5)
            let chosen = g.int(0...4)
            var k = 0
            while y + 40 * u < buttonsTop {
                let cy = y + 20 * u
                beginGroup()
                if radio { checkbox(x: left, centerY: cy, checked: k == chosen) } else { checkbox(x: left, centerY: cy, checked: g.chance(0.4)) }
                text(phrase(words: 1...3), x: left + 36 * u, baseline: baseline(cy, 16), points: 16, color: ink, maxWidth: right - left - 36 * u)
                endGroup()
                y += 44 * u
                k += 1
            }
        } else {
            y = paragraph(sentence(words: 6...30), x: left, baseline: y, width: right - left, points: 15, color: ink.mixed(with: surface, 0.3), maxLines: 5,
                          limit: buttonsTop - (field ? 56 : 8) * u)
            if field { textField(Box(xMin: left, yMin: y - 6 * u, xMax: right, yMax: y + 40 * u), placeholder: g.pick(style.language.placeholders), filled: g.chance(0.3)) }
        }
        var x = box.xMax - 16 * u
        var labels = [g.pick(style.language.confirm)]
        if g.chance(0.7) { labels.append(g.pick(style.language.cancel)) }
        var frames: [(String, Float)] = []
        for label in labels {
            let l = style.uppercaseButtons ? label.uppercased() : label
            let tw = textWidth(l, points: 14, face: .bold)
            x -= tw + 16 * u
            frames.insert((l, x + 8 * u), at: 0)
        }
        for (l, tx) in frames {
            text(l, x: tx, baseline: buttonsTop + 32 * u, points: 14, color: style.accent, face: .bold, interactive: true)
        }
    }

    /// A sheet from the bottom: modal (dimmed, labelled as a dialog, what is behind leaves the order) or
    /// standing (a container over the content). It holds a title and action rows or a grid of shortcuts.
    mutating func sheet(bottom: Float) {
        let modal = g.chance(0.7)
        layer = modal ? .overlay : .floating
        defer { layer = .content }
        let top = height * g.uniform(0.42...0.72)
        let end = modal ? height : bottom
        guard end - top > 90 * u else { return }
        let box = Box(xMin: 0, yMin: top, xMax: width, yMax: end + 20 * u)
        occlude(Box(xMin: 0, yMin: top, xMax: width, yMax: end), modal: modal)
        if modal { scrim(g.uniform(0.25...0.5)) }
        else { image.paintRounded(box.offset(dy: -2 * u), radius: 16 * u, color: RGB(0, 0, 0), alpha: 0.12) }
        let surface = style.dark ? style.surface : RGB(255, 255, 255)
        image.paintRounded(box, radius: (style.idiom == .iOS ? 12 : 16) * u, color: surface)
        let frame = Box(xMin: 0, yMin: top, xMax: width, yMax: end)
        if modal { annotate(frame, .dialog) } else { annotate(frame, .container, visited: false) }
        image.paintRounded(Box(xMin: width / 2 - 18 * u, yMin: top + 8 * u, xMax: width / 2 + 18 * u, yMax: top + 12 * u), radius: 2 * u, color: style.secondaryLabel)
        let ink = style.ink(on: surface)
        var y = top + 24 * u
        if g.chance(0.7) {
            text(phrase(words: 1...3), x: 16 * u, baseline: y + 16 * u, points: 18, color: ink, face: .title, maxWidth: width - 32 * u)
            y += 34 * u
        }
        if g.chance(0.3) {
            _ = shortcuts(top: y + 4 * u, left: 16 * u, right: width - 16 * u, limit: end - 8 * u)
            return
        }
        let rowH = 52 * u
        while y + rowH < end - 4 * u {
            let cy = y + rowH / 2
            beginGroup()
            icon(g.pick(IconShape.rows), at: Box(xMin: 16 * u, yMin: cy - 12 * u, xMax: 40 * u, yMax: cy + 12 * u), color: ink.mixed(with: surface, 0.3))
            text(phrase(words: 1...3), x: 72 * u, baseline: baseline(cy, 16), points: 16, color: ink, maxWidth: width - 88 * u, interactive: true)
            endGroup()
            y += rowH
        }
    }

    /// The on-screen keyboard at the bottom: keys are not elements of the vocabulary (no labels), and
    /// what it covers is dropped or clipped.
    mutating func keyboard() {
        let ios = style.idiom == .iOS
        let h = (ios ? 216 + 44 : 220 + 40) * u + (device.notch ? 34 * u : 0)
        let top = height - h
        occlude(Box(xMin: 0, yMin: top, xMax: width, yMax: height))
        let dark = style.dark
        let bg = dark ? RGB(43, 43, 45) : ios ? RGB(209, 212, 217) : RGB(236, 239, 241)
        let key = dark ? RGB(107, 107, 110) : RGB(255, 255, 255)
        let ink = dark ? RGB(255, 255, 255) : RGB(0, 0, 0)
        image.fill(Box(xMin: 0, yMin: top, xMax: width, yMax: height), color: bg)
        // Suggestions strip.
        let stripH = (ios ? 44 : 40) * u
        for k in 0..<3 {
            let word = g.pick(style.language.fillers + style.language.words.map { $0.lowercased() })
            let cx = width * (Float(k) + 0.5) / 3
            let f = font(.regular), px = pixelSize(16)
            image.draw(text: word, x: Int(cx - Float(f.width(of: word, pixelSize: px)) / 2), baseline: Int(top + stripH / 2 + Float(px) * 0.36), font: f, pixelSize: px, color: ink)
        }
        let rows = [Array("qwertyuiop"), Array("asdfghjkl"), Array("zxcvbnm")]
        let keyW = (width - 6 * u) / 10, keyH = 42 * u, gap = 6 * u
        var y = top + stripH + 6 * u
        let f = font(.regular), px = pixelSize(20)
        for (r, row) in rows.enumerated() {
            let x0 = (width - Float(row.count) * keyW) / 2
            for (k, ch) in row.enumerated() {
                let b = Box(xMin: x0 + Float(k) * keyW + gap / 2, yMin: y, xMax: x0 + Float(k + 1) * keyW - gap / 2, yMax: y + keyH)
                if ios { image.paintRounded(b.offset(dy: u), radius: 5 * u, color: RGB(0, 0, 0), alpha: 0.25) }
                image.paintRounded(b, radius: 5 * u, color: key)
                let s = String(ch)
                image.draw(text: s, x: Int(b.centerX - Float(f.width(of: s, pixelSize: px)) / 2), baseline: Int(b.centerY + Float(px) * 0.36), font: f, pixelSize: px, color: ink)
            }
            if r == 2 {
                for x in [3 * u, width - 3 * u - keyW * 1.4] {
                    image.paintRounded(Box(xMin: x, yMin: y, xMax: x + keyW * 1.4, yMax: y + keyH), radius: 5 * u, color: dark ? RGB(70, 70, 72) : RGB(171, 177, 186))
                }
            }
            y += keyH + 12 * u
        }
        let space = Box(xMin: width * 0.25, yMin: y, xMax: width * 0.75, yMax: y + keyH)
        image.paintRounded(space, radius: 5 * u, color: key)
    }

    /// A navigation drawer from the left over a dimmed screen: a header (the account, one group), then
    /// menu rows (icon and text, one group each), the current one highlighted and selected.
    mutating func drawer() {
        layer = .overlay
        defer { layer = .content }
        let w = min(width * 0.82, 320 * u)
        let box = Box(xMin: 0, yMin: 0, xMax: w, yMax: height)
        occlude(box, modal: true)
        scrim(g.uniform(0.3...0.55))
        let surface = style.dark ? style.surface : RGB(255, 255, 255)
        image.fill(box, color: surface)
        let ink = style.ink(on: surface)
        var y: Float = 24 * u
        let headerH = g.uniform(120...176) * u
        if g.chance(0.5) {
            picture(Box(xMin: 0, yMin: 0, xMax: w, yMax: headerH), label: false)  // a backdrop, not content
        } else {
            image.fill(Box(xMin: 0, yMin: 0, xMax: w, yMax: headerH), color: style.accent)
        }
        beginGroup()  // the account: avatar, name and address, read as one
        avatar(centerX: 16 * u + 28 * u, centerY: headerH - 76 * u, radius: 28 * u)
        text(name(), x: 16 * u, baseline: headerH - 30 * u, points: 15, color: RGB(255, 255, 255), face: .bold, maxWidth: w - 32 * u)
        text(name().lowercased().replacingOccurrences(of: " ", with: ".") + "@mail.com", x: 16 * u, baseline: headerH - 12 * u, points: 13, color: RGB(235, 235, 235), maxWidth: w - 32 * u)
        endGroup()
        y = headerH + 8 * u
        let current = g.int(0...4)
        var k = 0
        while y + 48 * u < height {
            let cy = y + 24 * u
            let on = k == current
            if on { image.paintRounded(Box(xMin: 8 * u, yMin: y + 2 * u, xMax: w - 8 * u, yMax: y + 46 * u), radius: 4 * u, color: style.accent.mixed(with: surface, 0.85)) }
            beginGroup()
            icon(g.pick(IconShape.rows), at: Box(xMin: 16 * u, yMin: cy - 12 * u, xMax: 40 * u, yMax: cy + 12 * u), color: on ? style.accent : ink.mixed(with: surface, 0.35),
                 interactive: false, selected: on)
            text(g.pick(style.language.words), x: 72 * u, baseline: baseline(cy, 14), points: 14, color: on ? style.accent : ink, face: .bold, maxWidth: w - 88 * u,
                 interactive: true, selected: on)
            endGroup()
            y += 48 * u
            k += 1
            if k == 5 && y + 60 * u < height {
                image.fill(Box(xMin: 0, yMin: y + 4 * u, xMax: w, yMax: y + 4 * u + max(1, u / 2)), color: style.separator)
                text(phrase(words: 1...2), x: 16 * u, baseline: y + 30 * u, points: 13, color: ink.mixed(with: surface, 0.4), maxWidth: w - 32 * u)
                y += 44 * u
            }
        }
    }

    /// A snackbar above `bottom`: a message and an action.
    mutating func snackbar(bottom: Float) {
        layer = .floating
        defer { layer = .content }
        let h = 48 * u
        let box = Box(xMin: 8 * u, yMin: bottom - 8 * u - h, xMax: width - 8 * u, yMax: bottom - 8 * u)
        occlude(box)
        image.paintRounded(box, radius: 4 * u, color: RGB(50, 50, 50))
        let action = (style.uppercaseButtons ? g.pick(["UNDO", "RETRY", "VIEW", "OK"]) : g.pick(["Undo", "Retry", "View", "OK"]))
        let aw = textWidth(action, points: 14, face: .bold)
        text(sentence(words: 2...6), x: box.xMin + 16 * u, baseline: baseline(box.centerY, 14), points: 14, color: RGB(240, 240, 240), maxWidth: box.width - aw - 48 * u)
        text(action, x: box.xMax - 16 * u - aw, baseline: baseline(box.centerY, 14), points: 14, color: style.accent.mixed(with: RGB(255, 255, 255), 0.3), face: .bold, interactive: true)
    }
}
