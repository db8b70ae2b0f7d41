import Boxes
import Images
import SeededRandom

/// Blocks of content. Each draws from `top` between `left` and `right`, in reading order, and returns
/// the y below it (or `top` when it does not fit above `limit`). Content may run past `limit` by a row
/// or so: the bar or screen edge below cuts it, as in a scrolled list.
extension Canvas {
    enum Section: CaseIterable {
        case list, card, pictures, paragraph, header, segmented, slider, fields, carousel, checkboxes, toggles, buttons,
             chips, shelf, shortcuts, stats, profile, rating
    }

    mutating func draw(_ section: Section, top: Float, left: Float, right: Float, limit: Float) -> Float {
        switch section {
        case .list: return list(top: top, left: left, right: right, limit: limit)
        case .card: return cards(top: top, left: left, right: right, limit: limit)
        case .pictures: return pictures(top: top, left: left, right: right, limit: limit)
        case .paragraph: return article(top: top, left: left, right: right, limit: limit)
        case .header: return header(top: top, left: left, right: right, limit: limit)
        case .segmented:
            guard top + 40 * u < limit else { return top }
            return segmentedControl(left: left, right: right, top: top, labels: segmentLabels(g.int(2...4)))
        case .slider: return sliderRow(top: top, left: left, right: right, limit: limit)
        case .fields: return fields(top: top, left: left, right: right, limit: limit)
        case .carousel: return carousel(top: top, left: left, right: right, limit: limit)
        case .checkboxes: return checkboxes(top: top, left: left, right: right, limit: limit)
        case .toggles: return toggleRows(top: top, left: left, right: right, limit: limit)
        case .buttons: return buttons(top: top, left: left, right: right, limit: limit)
        case .chips: return chips(top: top, left: left, right: right, limit: limit)
        case .shelf: return shelf(top: top, left: left, right: right, limit: limit)
        case .shortcuts: return shortcuts(top: top, left: left, right: right, limit: limit)
        case .stats: return stats(top: top, left: left, right: right, limit: limit)
        case .profile: return profile(top: top, left: left, right: right, limit: limit)
        case .rating: return rating(top: top, left: left, right: right, limit: limit)
        }
    }

    /// Baseline for text of `points` centred on `centerY`.
    func baseline(_ centerY: Float, _ points: Float) -> Float { centerY + Float(pixelSize(points)) * 0.36 }

    // MARK: lists

    /// Table rows: iOS plain or inset-grouped sections, Material lists with avatars, two lines and meta text.
    /// Each row's parts (icon or picture, texts, accessory, toggle or checkbox) form one group.
    mutating func list(top: Float, left: Float, right: Float, limit: Float, rows: ClosedRange<Int> = 2...7, settings: Bool = false) -> Float {
        let twoLines = g.chance(settings ? 0.2 : 0.5)
        let rowHeight = (twoLines ? g.pick([60, 64, 72]) : g.pick([44, 48, 52, 56])) * u * max(0.85, style.spacing)
        guard top + rowHeight < limit + rowHeight * 0.5 else { return top }
        // Rows as cards of their own (a container per row, part of the row's group), or an inset section.
        let cardRows = !settings && g.chance(0.3)
        let inset = !cardRows && (style.idiom == .iOS ? g.chance(settings ? 0.75 : 0.55) : g.chance(0.3))
        // Plain rows span the column (the whole width on a phone); inset sections sit within the margins.
        let x0 = inset || cardRows ? left : max(0, left - 16 * u), x1 = inset || cardRows ? right : min(width, right + 16 * u)
        let fit = max(1, Int((limit - top) / rowHeight + (g.chance(0.4) ? 0.6 : 0)))
        let n = min(g.int(rows), fit)
        let section = Box(xMin: x0, yMin: top, xMax: x1, yMax: top + Float(n) * rowHeight)
        if inset { image.paintRounded(section, radius: style.cornerRadius * u, color: style.surface) }
        let leading = g.nextUnitDouble()
        let divider = !cardRows && (style.idiom == .iOS || g.chance(0.5))
        for r in 0..<n {
            let y = top + Float(r) * rowHeight, cy = y + rowHeight / 2
            var x = x0 + 16 * u
            beginGroup()
            var rowCard: Box? = nil
            if cardRows {
                let b = Box(xMin: x0, yMin: y + 4 * u, xMax: x1, yMax: y + rowHeight - 4 * u)
                _ = cardSurface(b)
                rowCard = b
            }
            if leading < (settings ? 0.6 : 0.35) {
                let s = (style.idiom == .android ? 24 : 28) * u
                icon(g.pick(IconShape.rows), at: Box(xMin: x, yMin: cy - s / 2, xMax: x + s, yMax: cy + s / 2),
                     color: g.chance(0.5) ? style.accent : style.secondaryLabel, framed: true)
                x += s + (style.idiom == .android ? 32 : 14) * u
            } else if leading < (settings ? 0.65 : 0.55) && !settings {
                let r = min(20 * u, rowHeight * 0.36)
                avatar(centerX: x + r, centerY: cy, radius: r)
                x += 2 * r + 16 * u
            } else if leading < 0.65 && !settings {
                let s = rowHeight - 12 * u
                picture(Box(xMin: x, yMin: cy - s / 2, xMax: x + s, yMax: cy + s / 2), radius: g.chance(0.5) ? 4 * u : 0)
                x += s + 12 * u
            }
            let accessory = g.nextUnitDouble()
            let reserve: Float = accessory < 0.25 ? 80 * u : 48 * u
            let titlePoints: Float = style.idiom == .iOS ? 17 : 16
            if twoLines {
                text(phrase(words: 1...3), x: x, baseline: cy - 3 * u, points: titlePoints, color: style.label, face: g.chance(0.3) ? .bold : .regular, maxWidth: x1 - x - reserve)
                text(g.chance(0.3) ? value() + " · " + phrase(words: 1...3) : sentence(words: 2...8), x: x, baseline: cy + 16 * u, points: 14, color: style.secondaryLabel, maxWidth: x1 - x - reserve)
            } else {
                text(phrase(words: 1...3), x: x, baseline: baseline(cy, titlePoints), points: titlePoints, color: style.label, maxWidth: x1 - x - reserve)
            }
            let chevronBox = Box(xMin: x1 - 28 * u, yMin: cy - 8 * u, xMax: x1 - 14 * u, yMax: cy + 8 * u)
            switch accessory {
            case ..<(settings ? 0.15 : 0.05): toggle(x: x1 - 16 * u - (style.idiom == .iOS ? 51 : 36) * u, centerY: cy, on: g.chance(0.5))
            case ..<(settings ? 0.2 : 0.09): checkbox(x: x1 - 16 * u - 22 * u, centerY: cy, checked: g.chance(0.45))
            case ..<0.25:
                let detail = value()
                text(detail, x: x1 - (style.idiom == .iOS ? 34 : 16) * u - textWidth(detail, points: 15), baseline: baseline(cy, 15), points: 15, color: style.secondaryLabel)
                if style.idiom == .iOS { icon(.chevronRight, at: chevronBox, color: style.secondaryLabel) }
            case ..<0.5:
                if style.idiom == .iOS || settings { icon(.chevronRight, at: chevronBox, color: style.secondaryLabel) }
            case ..<0.62:
                let s = 22 * u
                icon(g.pick([.moreVertical, .info, .download, .heart, .star, .phone, .close]), at: Box(xMin: x1 - 16 * u - s, yMin: cy - s / 2, xMax: x1 - 16 * u, yMax: cy + s / 2),
                     color: style.secondaryLabel, interactive: true)
            case ..<0.72:
                let meta = value()
                text(meta, x: x1 - 16 * u - textWidth(meta, points: 12), baseline: y + 24 * u, points: 12, color: style.secondaryLabel)
            default: break
            }
            if let rowCard { annotate(rowCard, .container) }
            endGroup()
            if divider && r < n - 1 { image.fill(Box(xMin: x, yMin: y + rowHeight - max(1, u / 2), xMax: x1, yMax: y + rowHeight), color: style.separator) }
        }
        // An inset section is a visible container of its rows (iOS's grouped table section); its rows are the
        // elements a screen reader visits, not the frame.
        if inset { annotate(section, .container, visited: false) }
        return section.yMax
    }

    // MARK: cards

    /// One card, or two side by side: a raised (Material) or plain container with a picture and text;
    /// the container and its content form one group.
    mutating func cards(top: Float, left: Float, right: Float, limit: Float) -> Float {
        if g.chance(0.3) {
            let gap = 12 * u, w = (right - left - gap) / 2
            let h = w * g.uniform(1.1...1.4)
            guard top + h * 0.6 < limit else { return top }
            compactCard(Box(xMin: left, yMin: top, xMax: left + w, yMax: top + h))
            compactCard(Box(xMin: left + w + gap, yMin: top, xMax: right, yMax: top + h))
            return top + h + 4 * u
        }
        guard top + 110 * u < limit else { return top }
        return card(left: left, right: right, top: top) + 4 * u
    }

    /// The card's surface and elevation; returns its surface colour.
    mutating func cardSurface(_ box: Box) -> RGB {
        let radius = style.cornerRadius * u
        let surface = style.dark || style.appearance == .colourful ? style.surface : RGB(255, 255, 255)
        let bordered = surface == style.background
        if style.idiom == .android || g.chance(0.4) {
            image.paintRounded(box.offset(dy: 2 * u), radius: radius, color: RGB(0, 0, 0), alpha: 0.1)
            image.paintRounded(box.offset(dy: 1 * u), radius: radius, color: RGB(0, 0, 0), alpha: 0.08)
        } else if bordered {
            image.paintRounded(box, radius: radius, color: style.separator)
        }
        image.paintRounded(box.insetBy(bordered ? max(1, u) : 0), radius: radius, color: surface)
        return surface
    }

    /// A small card of a two-column grid: picture, title, a value.
    mutating func compactCard(_ box: Box) {
        let surface = cardSurface(box)
        let ink = style.ink(on: surface)
        beginGroup()
        let ph = box.height * g.uniform(0.5...0.62)
        picture(Box(xMin: box.xMin, yMin: box.yMin, xMax: box.xMax, yMax: box.yMin + ph), radius: style.cornerRadius * u)
        var b = box.yMin + ph + 22 * u
        if b < box.yMax - 6 * u { text(phrase(words: 1...2), x: box.xMin + 12 * u, baseline: b, points: 15, color: ink, face: .title, maxWidth: box.width - 24 * u) }
        b += 18 * u
        if b < box.yMax - 6 * u { text(g.chance(0.5) ? value() : phrase(words: 1...3), x: box.xMin + 12 * u, baseline: b, points: 13, color: ink.mixed(with: surface, 0.4), maxWidth: box.width - 24 * u) }
        annotate(box, .container)
        endGroup()
    }

    /// A card as tall as its content: a picture on top, a thumbnail at the left, or text only; a title,
    /// a paragraph, and sometimes a row of actions. The container and its content form one group.
    mutating func card(left: Float, right: Float, top: Float) -> Float {
        let layout = g.int(0...2)
        let inner = right - left - 24 * u
        let title = phrase(words: 1...4)
        let actions = g.chance(0.45)
        let step = Float(pixelSize(14)) * 1.35
        let thumb = g.uniform(72...110) * u
        let textWidth = layout == 1 ? inner - thumb - 12 * u : inner
        let body = wrap(sentence(words: 6...24), width: textWidth, points: 14, face: .regular)
        let lines = min(body.count, layout == 1 ? 3 : 4)
        let media = layout == 0 ? (right - left) * g.uniform(0.4...0.6) : 0
        let textHeight = 34 * u + Float(lines) * step + 4 * u
        let h = layout == 1 ? max(thumb + 24 * u, textHeight) + (actions ? 44 * u : 0) : media + textHeight + (actions ? 48 * u : 8 * u)
        let box = Box(xMin: left, yMin: top, xMax: right, yMax: top + h)
        let surface = cardSurface(box)
        let ink = style.ink(on: surface)
        let secondary = ink.mixed(with: surface, 0.4)
        beginGroup()
        var x = box.xMin + 12 * u
        var y = box.yMin
        if layout == 0 {
            picture(Box(xMin: box.xMin, yMin: y, xMax: box.xMax, yMax: y + media), radius: style.cornerRadius * u)
            y += media
        } else if layout == 1 {
            picture(Box(xMin: x, yMin: y + 12 * u, xMax: x + thumb, yMax: y + 12 * u + thumb), radius: style.cornerRadius * u * 0.5)
            x += thumb + 12 * u
        }
        text(title, x: x, baseline: y + 26 * u, points: 17, color: ink, face: .title, maxWidth: textWidth)
        var b = y + 26 * u + 8 * u + step
        for k in 0..<lines {
            let line = k == lines - 1 && lines < body.count ? fitted(body[k] + " …", points: 14, face: .regular, maxWidth: textWidth) : body[k]
            text(line, x: x, baseline: b, points: 14, color: secondary, maxWidth: textWidth)
            b += step
        }
        if actions {
            let top = box.yMax - 44 * u
            if g.chance(0.5) {
                var bx = box.xMin + 4 * u
                for _ in 0..<g.int(1...2) { bx = button(g.pick(style.language.actions), x: bx, top: top + 4 * u, height: 36, look: .plain, points: 14).xMax }
            } else {
                var shapes: [IconShape] = [.heart, .share, .bookmark, .chat, .moreHorizontal]
                let n = g.int(1...3)
                for k in 0..<n {
                    let px = box.xMax - 12 * u - 22 * u - Float(n - 1 - k) * 40 * u
                    icon(shapes.remove(at: g.int(0...(shapes.count - 1))), at: Box(xMin: px, yMin: top + 10 * u, xMax: px + 22 * u, yMax: top + 32 * u), color: style.accent, interactive: true)
                }
            }
        }
        annotate(box, .container)
        endGroup()
        return box.yMax
    }

    // MARK: pictures

    /// A row of 1 to 4 pictures, each with an optional caption of one or two lines (picture and caption: one group).
    mutating func pictures(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let n = g.int(1...(width > 500 * u ? 5 : 4))
        let gap = (g.chance(0.3) ? 2 : 10) * u
        let w = (right - left - Float(n - 1) * gap) / Float(n)
        let h = w * (n == 1 ? g.uniform(0.5...0.8) : g.uniform(0.7...1.3))
        guard top + h * 0.5 < limit else { return top }
        let captions = g.nextUnitDouble()
        let radius = g.chance(0.5) ? style.cornerRadius * u : 0
        let kind: PictureKind? = g.chance(0.3) ? g.pick(PictureKind.allCases) : nil
        var bottom = top + h
        for k in 0..<n {
            let x = left + Float(k) * (w + gap)
            beginGroup()
            picture(Box(xMin: x, yMin: top, xMax: x + w, yMax: top + h), radius: radius, kind: kind)
            var b = top + h + 17 * u
            if captions < 0.6 {
                text(phrase(words: 1...3), x: x, baseline: b, points: n > 2 ? 13 : 15, color: style.label, face: g.chance(0.4) ? .bold : .regular, maxWidth: w)
                if captions < 0.3 { b += 17 * u; text(g.chance(0.5) ? value() : phrase(words: 1...2), x: x, baseline: b, points: 12, color: style.secondaryLabel, maxWidth: w) }
                bottom = max(bottom, b + 6 * u)
            }
            endGroup()
        }
        return bottom + 4 * u
    }

    /// A block of text: an optional heading and a wrapped paragraph (its lines grouped).
    mutating func article(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var b = top + 18 * u
        guard b < limit else { return top }
        if g.chance(0.4) {
            text(phrase(words: 2...6), x: left, baseline: b + 4 * u, points: g.pick([20, 22, 26]), color: style.label, face: .title, maxWidth: right - left)
            b += 30 * u
        }
        let centered = g.chance(0.12)
        let points: Float = g.pick([13, 14, 15, 16, 17])
        return paragraph(sentence(words: 8...45), x: left, baseline: b, width: (right - left) * (g.chance(0.2) ? 0.8 : 1), points: points,
                         color: g.chance(0.5) ? style.label : style.secondaryLabel, maxLines: g.int(1...7), limit: limit + 40 * u, centered: centered) - 6 * u
    }

    /// A section heading: small capitals (iOS) or a bold title, with "See All" at the right.
    mutating func header(top: Float, left: Float, right: Float, limit: Float) -> Float {
        guard top + 30 * u < limit else { return top }
        let small = style.idiom == .iOS && g.chance(0.5)
        let words = phrase(words: 1...3)
        let points: Float = small ? 13 : g.pick([17, 20, 22])
        text(small ? words.uppercased() : words, x: left, baseline: top + 18 * u, points: points, color: small ? style.secondaryLabel : style.label,
             face: small ? .regular : .title, maxWidth: right - left - 80 * u)
        if g.chance(0.45) {
            let more = g.pick(["See All", "More", "Show all", "View all", "SEE ALL"])
            text(more, x: right - textWidth(more, points: 15), baseline: top + 18 * u, points: 15, color: style.accent, interactive: true)
        }
        return top + 26 * u
    }

    // MARK: controls

    mutating func sliderRow(top: Float, left: Float, right: Float, limit: Float) -> Float {
        guard top + 50 * u < limit else { return top }
        var y = top
        if g.chance(0.5) {
            text(phrase(words: 1...2), x: left, baseline: y + 14 * u, points: 15, color: style.label)
            y += 20 * u
        }
        var x0 = left, x1 = right
        let cy = y + 16 * u
        if g.chance(0.5) {
            icon(g.pick([.music, .photo, .star]), at: Box(xMin: left, yMin: cy - 9 * u, xMax: left + 18 * u, yMax: cy + 9 * u), color: style.secondaryLabel)
            icon(g.pick([.music, .photo, .star]), at: Box(xMin: right - 22 * u, yMin: cy - 11 * u, xMax: right, yMax: cy + 11 * u), color: style.secondaryLabel)
            x0 += 30 * u; x1 -= 34 * u
        }
        slider(left: x0, right: x1, centerY: cy)
        return cy + 18 * u
    }

    /// Text fields, each often with a label above it (label and field: one group), then sometimes a link.
    mutating func fields(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var y = top
        let labelled = g.chance(0.4)
        for _ in 0..<g.int(1...3) {
            let h = (style.idiom == .iOS ? 40 : 52) * u
            guard y + h + (labelled ? 22 * u : 0) < limit else { break }
            let placeholder = g.pick(style.language.placeholders)
            beginGroup()
            if labelled {
                text(placeholder, x: left, baseline: y + 13 * u, points: 13, color: style.secondaryLabel, face: g.chance(0.5) ? .bold : .regular)
                y += 20 * u
            }
            textField(Box(xMin: left, yMin: y, xMax: right, yMax: y + h), placeholder: placeholder, filled: g.chance(0.35))
            endGroup()
            y += h + 12 * u * style.spacing
        }
        if y > top && g.chance(0.3) {
            let link = g.pick(["Forgot password?", "Need help?", "Show password", "Terms of Service"])
            text(link, x: g.chance(0.5) ? left : right - textWidth(link, points: 14), baseline: y + 10 * u, points: 14, color: style.accent, interactive: true)
            y += 24 * u
        }
        return y
    }

    /// A wide picture with page dots under it or over its bottom edge.
    mutating func carousel(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let full = g.chance(0.4)
        let x0 = full ? 0 : left, x1 = full ? width : right
        let h = min((x1 - x0) * g.uniform(0.45...0.7), limit - top - 24 * u)
        guard h > 50 * u else { return top }
        picture(Box(xMin: x0, yMin: top, xMax: x1, yMax: top + h), radius: full ? 0 : style.cornerRadius * u)
        let n = g.int(2...7)
        if g.chance(0.35) {
            pageControl(centerX: (x0 + x1) / 2, centerY: top + h - 14 * u, count: n, on: RGB(255, 255, 255))
            return top + h + 6 * u
        }
        pageControl(centerX: (x0 + x1) / 2, centerY: top + h + 14 * u, count: n, on: style.idiom == .iOS ? style.label : style.accent)
        return top + h + 26 * u
    }

    /// Rows of a checkbox and its label (one group).
    mutating func checkboxes(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var y = top
        let trailing = style.idiom == .iOS && g.chance(0.4)
        for _ in 0..<g.int(1...5) {
            guard y + 32 * u < limit else { break }
            let cy = y + 16 * u
            beginGroup()
            if trailing {
                text(phrase(words: 2...5), x: left, baseline: baseline(cy, 15), points: 15, color: style.label, maxWidth: right - left - 40 * u)
                checkbox(x: right - 22 * u, centerY: cy, checked: g.chance(0.4))
            } else {
                checkbox(x: left, centerY: cy, checked: g.chance(0.4))
                text(phrase(words: 2...6), x: left + 34 * u, baseline: baseline(cy, 15), points: 15, color: style.label, maxWidth: right - left - 34 * u)
            }
            endGroup()
            y += 36 * u * max(0.9, style.spacing)
        }
        return y
    }

    /// Rows of a label (sometimes with a second line) and a switch (one group).
    mutating func toggleRows(top: Float, left: Float, right: Float, limit: Float) -> Float {
        var y = top
        for _ in 0..<g.int(1...4) {
            let twoLines = g.chance(0.3)
            let h = (twoLines ? 60 : 46) * u
            guard y + h < limit else { break }
            let cy = y + h / 2
            beginGroup()
            if twoLines {
                text(phrase(words: 1...3), x: left, baseline: cy - 3 * u, points: 16, color: style.label, maxWidth: right - left - 70 * u)
                text(sentence(words: 3...7), x: left, baseline: cy + 15 * u, points: 13, color: style.secondaryLabel, maxWidth: right - left - 70 * u)
            } else {
                text(phrase(words: 1...3), x: left, baseline: baseline(cy, 16), points: 16, color: style.label, maxWidth: right - left - 70 * u)
            }
            toggle(x: right - (style.idiom == .iOS ? 51 : 36) * u, centerY: cy, on: g.chance(0.5))
            endGroup()
            y += h
        }
        return y
    }

    /// One button across the width, two side by side, or a social sign-in button with a glyph icon.
    mutating func buttons(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let h: Float = style.idiom == .iOS ? g.pick([44, 50]) : g.pick([36, 40, 48])
        guard top + h * u < limit else { return top }
        let r = g.nextUnitDouble()
        if r < 0.45 {
            let full = g.chance(0.6)
            let look: ButtonLook = g.chance(0.7) ? .filled : g.pick([.tonal, .outlined, .plain])
            let title = g.pick(style.language.actions)
            let w = full ? right - left : nil
            let x = full ? left : (g.chance(0.5) ? left : (right - (textWidth(title, points: 16, face: .bold) + 40 * u)))
            return button(title, x: x, top: top, width: w, height: h, look: look, icon: g.chance(0.15) ? g.pick([.plus, .download, .send, .cart]) : nil).yMax
        } else if r < 0.75 {
            let gap = 12 * u, w = (right - left - gap) / 2
            button(g.pick(style.language.cancel), x: left, top: top, width: w, height: h, look: g.pick([.outlined, .tonal, .plain]))
            return button(g.pick(style.language.actions), x: left + w + gap, top: top, width: w, height: h, look: .filled).yMax
        } else {
            var y = top
            for k in 0..<g.int(1...3) {
                guard y + h * u < limit else { break }
                let brand = g.pick(["Google", "Facebook", "Apple", "Twitter", "Email"])
                let c: RGB? = k % 2 == 0 ? RGB(hue: g.uniform(0...1), saturation: 0.7, value: 0.75) : nil
                y = button("Continue with \(brand)", x: left, top: y, width: right - left, height: h, look: c == nil ? .outlined : .filled, glyph: true, colour: c).yMax + 10 * u
            }
            return y
        }
    }

    /// A row of chips: filter chips with a selection, or suggestion chips; a long row runs off the edge.
    mutating func chips(top: Float, left: Float, right: Float, limit: Float) -> Float {
        guard top + 32 * u < limit else { return top }
        let filter = g.chance(0.6)
        var x = left
        let withIcons = g.chance(0.3)
        for _ in 0..<g.int(2...7) {
            guard x < width else { break }
            let w = chip(g.chance(0.5) ? g.pick(style.language.words) : phrase(words: 1...2), x: x, top: top,
                         selected: filter ? g.chance(0.3) : nil, icon: withIcons ? g.pick(IconShape.rows) : nil)
            x += w + 8 * u
        }
        return top + 32 * u
    }

    /// A horizontal shelf of small picture tiles with captions that runs off the right edge.
    mutating func shelf(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let w = g.uniform(100...160) * u, h = w * g.uniform(0.6...1.4)
        guard top + h * 0.6 < limit else { return top }
        var x = left
        let round = g.chance(0.2)
        if !round && g.chance(0.45) {
            // Cards: a container with a picture, a title and a value each.
            let cardH = h + 52 * u
            while x < width {
                compactCard(Box(xMin: x, yMin: top, xMax: x + w, yMax: top + cardH))
                x += w + 12 * u
            }
            return top + cardH + 4 * u
        }
        var bottom = top + h
        while x < width {
            beginGroup()
            if round { avatar(centerX: x + w / 2, centerY: top + w / 2, radius: w / 2) }
            else { picture(Box(xMin: x, yMin: top, xMax: x + w, yMax: top + h), radius: style.cornerRadius * u) }
            let b = (round ? top + w : top + h) + 17 * u
            text(round ? name() : phrase(words: 1...3), x: x, baseline: b, points: 13, color: style.label, maxWidth: w)
            bottom = max(bottom, b + 6 * u)
            endGroup()
            x += w + 12 * u
        }
        return bottom
    }

    /// A grid of shortcuts: a framed icon with a caption under it (one group each), 3 to 5 columns.
    mutating func shortcuts(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let columns = g.int(3...5)
        let cell = (right - left) / Float(columns)
        let s = min(cell * 0.55, 52 * u)
        var y = top
        for _ in 0..<g.int(1...2) {
            guard y + s + 24 * u < limit else { break }
            for k in 0..<columns {
                let cx = left + cell * (Float(k) + 0.5)
                beginGroup()
                if g.chance(0.15) { glyphIcon(at: Box(xMin: cx - s / 2, yMin: y, xMax: cx + s / 2, yMax: y + s)) }
                else { icon(g.pick(IconShape.rows), at: Box(xMin: cx - s / 2, yMin: y, xMax: cx + s / 2, yMax: y + s), color: style.accent, interactive: true, framed: true) }
                text(g.pick(style.language.words), centerX: cx, centerY: y + s + 12 * u, points: 12, color: style.label, maxWidth: cell - 4 * u)
                endGroup()
            }
            y += s + 30 * u
        }
        return y
    }

    /// Two to four figures with captions ("1,234 / Followers"), each pair one group.
    mutating func stats(top: Float, left: Float, right: Float, limit: Float) -> Float {
        guard top + 50 * u < limit else { return top }
        let n = g.int(2...4)
        let cell = (right - left) / Float(n)
        for k in 0..<n {
            let cx = left + cell * (Float(k) + 0.5)
            beginGroup()
            text(value(), centerX: cx, centerY: top + 14 * u, points: 20, color: style.label, face: g.chance(0.2) ? .mono : .bold, maxWidth: cell - 6 * u)
            text(g.pick(style.language.words), centerX: cx, centerY: top + 38 * u, points: 12, color: style.secondaryLabel, maxWidth: cell - 6 * u)
            endGroup()
        }
        return top + 50 * u
    }

    /// A profile block: a large avatar, a name, a line under it, sometimes a button. Avatar, name and
    /// line are one element, as the avatar, title and subtitle of a list row are ("Sam Novak, @sam").
    mutating func profile(top: Float, left: Float, right: Float, limit: Float) -> Float {
        let r = g.uniform(28...48) * u
        guard top + 2 * r + 50 * u < limit else { return top }
        let centred = g.chance(0.5)
        beginGroup()
        if centred {
            defer { endGroup() }
            avatar(centerX: (left + right) / 2, centerY: top + r, radius: r)
            var y = top + 2 * r + 24 * u
            text(name(), centerX: (left + right) / 2, centerY: y - 6 * u, points: 20, color: style.label, face: .title, maxWidth: right - left)
            y += 20 * u
            text(g.chance(0.5) ? "@" + name().lowercased().replacingOccurrences(of: " ", with: ".") : phrase(words: 2...4), centerX: (left + right) / 2, centerY: y - 4 * u,
                 points: 14, color: style.secondaryLabel, maxWidth: right - left)
            return y + 12 * u
        }
        avatar(centerX: left + r, centerY: top + r, radius: r)
        let x = left + 2 * r + 16 * u
        text(name(), x: x, baseline: top + r - 4 * u, points: 19, color: style.label, face: .title, maxWidth: right - x - 90 * u)
        text(phrase(words: 1...3), x: x, baseline: top + r + 16 * u, points: 14, color: style.secondaryLabel, maxWidth: right - x - 90 * u)
        endGroup()
        if g.chance(0.6) { button(g.pick(style.language.actions), x: right - 84 * u, top: top + r - 16 * u, width: 84 * u, height: 32, look: g.pick([.filled, .outlined]), points: 13) }
        return top + 2 * r + 10 * u
    }

    /// Stars and a rating text ("4.5 (120)"): one group, as a screen reader should read a rating once
    /// ("4.5 (120)") rather than five unlabelled star images and then the figure.
    mutating func rating(top: Float, left: Float, right: Float, limit: Float) -> Float {
        guard top + 24 * u < limit else { return top }
        let s = 16 * u
        var x = left
        let colour = RGB(255, 179, 0)
        beginGroup()
        defer { endGroup() }
        for _ in 0..<5 {
            icon(.star, at: Box(xMin: x, yMin: top + 4 * u, xMax: x + s, yMax: top + 4 * u + s), color: colour)
            x += s + 3 * u
        }
        text(String(format: "%.1f (%d)", g.uniform(1...5), g.int(3...9999)), x: x + 6 * u, baseline: top + 4 * u + s * 0.85, points: 14, color: style.secondaryLabel)
        return top + 26 * u
    }
}
