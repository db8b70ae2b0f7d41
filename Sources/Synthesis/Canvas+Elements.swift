import Boxes
import IconVocabulary
import Images
import SeededRandom

/// Single elements: icons, controls, pictures, fields, buttons. Each draws itself and labels what the
/// paper's classes define, with its interactivity and selection.
extension Canvas {
    /// The colour under a point, clamped to the screen.
    func colour(at x: Float, _ y: Float) -> RGB {
        image.pixel(x: min(image.width - 1, max(0, Int(x))), y: min(image.height - 1, max(0, Int(y))))
    }

    /// Draws an icon into the square `box`. Where `framed`, the app's frame style applies (coloured
    /// squircle or pale disc behind a glyph), as on settings rows and shortcut grids.
    mutating func icon(_ shape: IconShape, at box: Box, color: RGB, interactive: Bool = false, framed: Bool = false, label: Bool = true) {
        let filled = style.iconStyle == .filled || (style.iconStyle != .outline && g.chance(0.5))
        if framed && (style.iconStyle == .squircle || style.iconStyle == .disc) {
            let squircle = style.iconStyle == .squircle
            let tile = squircle ? RGB(hue: g.uniform(0...1), saturation: g.uniform(0.5...0.85), value: g.uniform(0.6...0.95)) : color.mixed(with: style.background, 0.82)
            if squircle { image.paintRounded(box, radius: box.width * 0.23, color: tile) } else { image.paintCircle(centerX: box.centerX, centerY: box.centerY, radius: box.width / 2, color: tile) }
            let inset = box.width * 0.22
            let glyph = Box(xMin: box.xMin + inset, yMin: box.yMin + inset, xMax: box.xMax - inset, yMax: box.yMax - inset)
            draw(shape, in: glyph, color: squircle ? RGB(255, 255, 255) : color, background: tile, filled: filled)
        } else {
            draw(shape, in: box, color: color, background: colour(at: box.xMin, box.yMin), filled: filled)
        }
        if label { annotate(box, .icon, interactive: interactive, iconType: shape.type) }
    }

    /// The shape as the app draws icons: a glyph of its icon package, or line art of our own.
    private mutating func draw(_ shape: IconShape, in box: Box, color: RGB, background: RGB, filled: Bool) {
        if style.glyphs.family != nil || !shape.procedural, let glyph = glyphs.glyph(for: shape.type, look: style.glyphs, outline: !filled) {
            glyphs.draw(glyph, into: &image, box: box, color: color, weight: style.glyphs.weight)
        } else {
            shape.draw(into: &image, box: box, color: color, background: background, filled: filled)
        }
    }

    /// A brand-like glyph icon: a letter or two in a coloured disc or rounded square ("f", "G", "in").
    mutating func glyphIcon(at box: Box, interactive: Bool = true) {
        let letters = g.pick(["f", "G", "in", "P", "M", "t", "S", "W", "Y", "B"])
        let tile = RGB(hue: g.uniform(0...1), saturation: g.uniform(0.5...0.9), value: g.uniform(0.45...0.9))
        if g.chance(0.5) { image.paintCircle(centerX: box.centerX, centerY: box.centerY, radius: box.width / 2, color: tile) }
        else { image.paintRounded(box, radius: box.width * 0.2, color: tile) }
        let px = max(6, Int(box.height * 0.6))
        let f = fonts.font(.sans, bold: true)
        let w = Float(f.width(of: letters, pixelSize: px))
        image.draw(text: letters, x: Int(box.centerX - w / 2), baseline: Int(box.centerY + Float(px) * 0.36), font: f, pixelSize: px, color: RGB(255, 255, 255))
        annotate(box, .icon, interactive: interactive, iconType: IconVocabulary.other)
    }

    /// A switch centred vertically on `centerY`, starting at `x`; returns its box. iOS's pill or Material's track and thumb.
    @discardableResult
    mutating func toggle(x: Float, centerY: Float, on: Bool) -> Box {
        let box: Box
        if style.idiom == .iOS || g.chance(0.2) {
            let w = 51 * u, h = 31 * u
            box = Box(xMin: x, yMin: centerY - h / 2, xMax: x + w, yMax: centerY + h / 2)
            image.paintRounded(box, radius: h / 2, color: on ? (style.idiom == .iOS && g.chance(0.7) ? RGB(52, 199, 89) : style.accent) : style.fill)
            let knobX = on ? box.xMax - h / 2 : box.xMin + h / 2
            image.paintCircle(centerX: knobX, centerY: centerY + u, radius: h / 2 - 1.5 * u, color: RGB(0, 0, 0), alpha: 0.12)
            image.paintCircle(centerX: knobX, centerY: centerY, radius: h / 2 - 2 * u, color: RGB(255, 255, 255))
        } else {
            // Material: a 36x14 track under a 20 dp thumb that overhangs it.
            let w = 36 * u, r = 10 * u
            box = Box(xMin: x, yMin: centerY - r, xMax: x + w, yMax: centerY + r)
            let track = on ? style.accent.mixed(with: style.background, 0.5) : (style.dark ? RGB(90, 90, 94) : RGB(185, 185, 190))
            image.paintRounded(Box(xMin: x + 2 * u, yMin: centerY - 7 * u, xMax: x + w - 2 * u, yMax: centerY + 7 * u), radius: 7 * u, color: track)
            let cx = on ? box.xMax - r : box.xMin + r
            image.paintCircle(centerX: cx, centerY: centerY + u, radius: r, color: RGB(0, 0, 0), alpha: 0.18)
            image.paintCircle(centerX: cx, centerY: centerY, radius: r, color: on ? style.accent : RGB(245, 245, 245))
        }
        annotate(box, on ? .toggleSelected : .toggleUnselected)
        return box
    }

    /// A checkbox at `x`, centred on `centerY`: square (Material, some iOS apps) or round with a tick.
    @discardableResult
    mutating func checkbox(x: Float, centerY: Float, checked: Bool) -> Box {
        let s = (style.idiom == .android ? 18 : 22) * u
        let box = Box(xMin: x, yMin: centerY - s / 2, xMax: x + s, yMax: centerY + s / 2)
        let r = style.squareCheckboxes ? 2.5 * u : s / 2
        let behind = colour(at: x - 2, centerY)
        if checked {
            image.paintRounded(box, radius: r, color: style.accent)
            let tick = style.accent.luminance > 0.7 ? RGB(0, 0, 0) : RGB(255, 255, 255)
            image.drawLine(x0: x + 0.22 * s, y0: centerY, x1: x + 0.42 * s, y1: centerY + 0.2 * s, thickness: max(1, 2 * u), color: tick)
            image.drawLine(x0: x + 0.42 * s, y0: centerY + 0.2 * s, x1: x + 0.8 * s, y1: centerY - 0.22 * s, thickness: max(1, 2 * u), color: tick)
        } else {
            image.paintRounded(box, radius: r, color: style.secondaryLabel)
            let t = max(1, 2 * u)
            image.paintRounded(Box(xMin: box.xMin + t, yMin: box.yMin + t, xMax: box.xMax - t, yMax: box.yMax - t), radius: max(0, r - t), color: behind)
        }
        annotate(box, checked ? .checkboxSelected : .checkboxUnselected)
        return box
    }

    /// A picture in `box` (clipped to rounded corners, or a circle when `round`).
    mutating func picture(_ box: Box, radius: Float = 0, kind: PictureKind? = nil, round: Bool = false, interactive: Bool = false, label: Bool = true) {
        let x0 = Int(box.xMin.rounded()), y0 = Int(box.yMin.rounded()), x1 = Int(box.xMax.rounded()), y1 = Int(box.yMax.rounded())
        guard x1 > x0 + 2, y1 > y0 + 2 else { return }
        var renderer = PictureRenderer(g: SeededGenerator(seed: g.next()))
        let k = kind ?? (g.chance(0.5) ? .photo : g.pick(PictureKind.allCases))
        let tile = renderer.render(k, size: Size(width: x1 - x0, height: y1 - y0))
        image.composite(tile, x: x0, y: y0, radius: round ? Float(min(x1 - x0, y1 - y0)) / 2 : radius)
        if label { annotate(Box(xMin: Float(x0), yMin: Float(y0), xMax: Float(x1), yMax: Float(y1)), .picture, interactive: interactive) }
    }

    enum ButtonLook { case filled, tonal, outlined, plain }

    /// A button: its background (not a class of its own), its text labelled as interactive text, and an
    /// icon before the text where given; icon and text form one group. Returns the button's frame.
    @discardableResult
    mutating func button(_ title: String, x: Float, top: Float, width: Float? = nil, height: Float = 44, look: ButtonLook, icon shape: IconShape? = nil,
                         glyph: Bool = false, colour fillColour: RGB? = nil, points: Float = 16) -> Box {
        let label = style.uppercaseButtons ? title.uppercased() : title
        let h = height * u
        let iconSize = shape != nil || glyph ? 20 * u : 0
        let textW = textWidth(label, points: points, face: .bold)
        let w = width ?? (textW + iconSize + (iconSize > 0 ? 8 * u : 0) + 40 * u)
        let frame = Box(xMin: x, yMin: top, xMax: x + w, yMax: top + h)
        let tint = fillColour ?? style.accent
        let radius = style.idiom == .android ? min(h / 2, max(2 * u, style.cornerRadius * u)) : (g.chance(0.3) ? h / 2 : style.cornerRadius * u)
        let ink: RGB
        switch look {
        case .filled:
            if style.idiom == .android { image.paintRounded(frame.offset(dy: 1.5 * u), radius: radius, color: RGB(0, 0, 0), alpha: 0.15) }
            image.paintRounded(frame, radius: radius, color: tint)
            ink = tint.luminance > 0.62 ? RGB(20, 20, 20) : RGB(255, 255, 255)
        case .tonal:
            image.paintRounded(frame, radius: radius, color: tint.mixed(with: style.background, 0.8))
            ink = tint
        case .outlined:
            image.paintRounded(frame, radius: radius, color: tint.mixed(with: style.background, 0.4))
            image.paintRounded(frame.insetBy(max(1, u)), radius: max(0, radius - u), color: colour(at: frame.centerX, frame.yMin - 2))
            ink = tint
        case .plain:
            ink = tint
        }
        let contentW = textW + (iconSize > 0 ? iconSize + 8 * u : 0)
        var cx = frame.centerX - min(contentW, w - 16 * u) / 2
        beginGroup()
        if iconSize > 0 {
            let b = Box(xMin: cx, yMin: frame.centerY - iconSize / 2, xMax: cx + iconSize, yMax: frame.centerY + iconSize / 2)
            if glyph { glyphIcon(at: b) } else if let shape { icon(shape, at: b, color: ink, interactive: true) }
            cx += iconSize + 8 * u
        }
        text(label, x: cx, baseline: frame.centerY + Float(pixelSize(points)) * 0.36, points: points, color: ink, face: .bold,
             maxWidth: frame.xMax - cx - 8 * u, interactive: true)
        endGroup()
        return frame
    }

    /// A segmented control across `left...right` at `top`: one `segmented_control` box per segment, as in
    /// the paper's data, exactly one selected. iOS: a grey track with a raised white segment; Material:
    /// outlined buttons, the selected one tinted.
    @discardableResult
    mutating func segmentedControl(left: Float, right: Float, top: Float, labels: [String]) -> Float {
        let n = labels.count
        let h = (style.idiom == .iOS ? 32 : 40) * u
        let track = Box(xMin: left, yMin: top, xMax: right, yMax: top + h)
        let seg = track.width / Float(n)
        let selected = g.int(0...(n - 1))
        let ios = style.idiom == .iOS
        if ios { image.paintRounded(track, radius: 8 * u, color: style.fill) }
        else {
            let r = g.chance(0.5) ? h / 2 : 4 * u
            image.paintRounded(track, radius: r, color: style.secondaryLabel)
            image.paintRounded(track.insetBy(max(1, u)), radius: max(0, r - u), color: style.background)
        }
        for k in 0..<n {
            let b = Box(xMin: track.xMin + Float(k) * seg, yMin: track.yMin, xMax: track.xMin + Float(k + 1) * seg, yMax: track.yMax)
            if k == selected {
                if ios { image.paintRounded(b.insetBy(2 * u), radius: 7 * u, color: style.dark ? RGB(99, 99, 102) : RGB(255, 255, 255)) }
                else { image.fill(b.insetBy(max(1, u)), color: style.accent.mixed(with: style.background, 0.75)) }
            } else if !ios && k > 0 {
                image.fill(Box(xMin: b.xMin, yMin: b.yMin, xMax: b.xMin + max(1, u), yMax: b.yMax), color: style.secondaryLabel)
            }
            let ink = ios ? style.label : (k == selected ? style.accent : style.label)
            text(labels[k], centerX: b.centerX, centerY: b.centerY, points: 13, color: ink, face: k == selected ? .bold : .regular, maxWidth: seg - 8 * u, label: false)
            annotate(b, .segmentedControl, interactive: true, selected: k == selected)
        }
        return track.yMax
    }

    enum FieldLook { case roundedFill, bordered, materialFilled, materialOutlined, underline }

    /// A text field with a placeholder or a value (not labelled separately: the field is the element).
    @discardableResult
    mutating func textField(_ box: Box, placeholder: String, filled: Bool, search: Bool = false) -> Box {
        let looks: [FieldLook] = style.idiom == .iOS ? [.roundedFill, .bordered] : [.materialFilled, .materialOutlined, .underline, .bordered]
        let look = search ? (style.idiom == .iOS ? .roundedFill : g.pick([.roundedFill, .materialOutlined])) : g.pick(looks)
        let r = search ? box.height / 2 * (style.idiom == .iOS ? 0.3 : 1) : style.cornerRadius * u
        switch look {
        case .roundedFill: image.paintRounded(box, radius: r, color: style.fill)
        case .bordered:
            image.paintRounded(box, radius: min(r, 8 * u), color: style.separator.mixed(with: style.secondaryLabel, 0.3))
            image.paintRounded(box.insetBy(max(1, u)), radius: max(0, min(r, 8 * u) - u), color: style.background)
        case .materialFilled:
            image.paintRounded(box, radius: 4 * u, color: style.fill)
            image.fill(Box(xMin: box.xMin, yMin: box.yMax - 4 * u, xMax: box.xMax, yMax: box.yMax), color: style.fill)
            image.fill(Box(xMin: box.xMin, yMin: box.yMax - max(1, u), xMax: box.xMax, yMax: box.yMax), color: style.secondaryLabel)
        case .materialOutlined:
            image.paintRounded(box, radius: min(r, 4 * u), color: style.secondaryLabel)
            image.paintRounded(box.insetBy(max(1, u)), radius: max(0, min(r, 4 * u) - u), color: colour(at: box.xMin - 2, box.centerY))
        case .underline:
            image.fill(Box(xMin: box.xMin, yMin: box.yMax - max(1, 1.5 * u), xMax: box.xMax, yMax: box.yMax), color: filled ? style.accent : style.secondaryLabel)
        }
        var x = box.xMin + (look == .underline ? 2 : 12) * u
        if search || g.chance(0.15) {
            let s = 16 * u
            (search ? IconShape.search : g.pick([.mail, .lock, .person, .phone])).draw(into: &image, box: Box(xMin: x, yMin: box.centerY - s / 2, xMax: x + s, yMax: box.centerY + s / 2),
                                                                                       color: style.secondaryLabel, background: colour(at: x - 2, box.centerY), filled: false)
            x += s + 8 * u
        }
        let words = filled ? (g.chance(0.5) ? name() : phrase(words: 1...3)) : placeholder
        text(words, x: x, baseline: box.centerY + Float(pixelSize(16)) * 0.36, points: 16, color: filled ? style.label : style.secondaryLabel,
             maxWidth: box.xMax - x - 8 * u, label: false)
        annotate(box, .textField)
        return box
    }

    /// A slider across `left...right` centred on `centerY`, with its thumb at a random value.
    mutating func slider(left: Float, right: Float, centerY cy: Float) {
        let value = g.uniform(0.05...0.95)
        let knob = left + (right - left) * value
        let ios = style.idiom == .iOS
        let track: Float = ios ? 2 : 2
        image.paintRounded(Box(xMin: left, yMin: cy - track * u, xMax: right, yMax: cy + track * u), radius: track * u, color: ios ? style.fill : style.accent.mixed(with: style.background, 0.7))
        image.paintRounded(Box(xMin: left, yMin: cy - track * u, xMax: knob, yMax: cy + track * u), radius: track * u, color: style.accent)
        let r: Float = ios ? 13 : 8
        if ios { image.paintCircle(centerX: knob, centerY: cy + u, radius: (r + 1) * u, color: RGB(0, 0, 0), alpha: 0.15) }
        image.paintCircle(centerX: knob, centerY: cy, radius: r * u, color: ios ? RGB(255, 255, 255) : style.accent)
        annotate(Box(xMin: left - 2 * u, yMin: cy - (r + 1) * u, xMax: right + 2 * u, yMax: cy + (r + 1) * u), .slider)
    }

    /// Page dots centred on `centerX`, `centerY`; the current page is darker (or an elongated pill).
    mutating func pageControl(centerX cx: Float, centerY cy: Float, count n: Int, on: RGB) {
        let r = 3.5 * u, gap = (g.chance(0.5) ? 16 : 12) * u
        let x0 = cx - Float(n - 1) * gap / 2
        let current = g.int(0...(n - 1))
        let pill = g.chance(0.25)
        for k in 0..<n {
            let x = x0 + Float(k) * gap
            if pill && k == current { image.paintRounded(Box(xMin: x - 2 * r, yMin: cy - r, xMax: x + 2 * r, yMax: cy + r), radius: r, color: on) }
            else { image.paintCircle(centerX: x, centerY: cy, radius: r, color: on, alpha: k == current ? 1 : 0.35) }
        }
        let extra: Float = pill ? r : 0
        annotate(Box(xMin: x0 - r - extra - 2 * u, yMin: cy - r - 2 * u, xMax: x0 + Float(n - 1) * gap + r + extra + 2 * u, yMax: cy + r + 2 * u), .pageControl)
    }

    /// A chip: a pill with text and an optional leading icon or tick; filter chips carry their selection.
    /// Returns its width.
    @discardableResult
    mutating func chip(_ title: String, x: Float, top: Float, selected: Bool?, icon shape: IconShape?) -> Float {
        let h = 32 * u
        let tw = textWidth(title, points: 14)
        let lead: Float = shape != nil || selected == true ? 26 * u : 0
        let box = Box(xMin: x, yMin: top, xMax: x + tw + lead + 24 * u, yMax: top + h)
        let on = selected == true
        let radius = style.idiom == .android && g.chance(0.5) ? 8 * u : h / 2
        if on { image.paintRounded(box, radius: radius, color: style.accent.mixed(with: style.background, 0.75)) }
        else if g.chance(0.5) { image.paintRounded(box, radius: radius, color: style.fill) }
        else {
            image.paintRounded(box, radius: radius, color: style.separator.mixed(with: style.secondaryLabel, 0.4))
            image.paintRounded(box.insetBy(max(1, u)), radius: max(0, radius - u), color: colour(at: box.xMin - 2, box.centerY))
        }
        beginGroup()
        var tx = box.xMin + 12 * u
        if lead > 0 {
            let s = 18 * u
            icon(on && shape == nil ? .check : shape!, at: Box(xMin: tx - 2 * u, yMin: box.centerY - s / 2, xMax: tx - 2 * u + s, yMax: box.centerY + s / 2),
                 color: on ? style.accent : style.label, interactive: true, selected: selected)
            tx += lead - 4 * u
        }
        text(title, x: tx, baseline: box.centerY + Float(pixelSize(14)) * 0.36, points: 14, color: on ? style.accent : style.label, interactive: true, selected: selected)
        endGroup()
        return box.width
    }

    /// A badge-free avatar: a round portrait picture.
    mutating func avatar(centerX: Float, centerY: Float, radius: Float, interactive: Bool = false) {
        picture(Box(xMin: centerX - radius, yMin: centerY - radius, xMax: centerX + radius, yMax: centerY + radius), kind: g.chance(0.75) ? .portrait : .photo, round: true, interactive: interactive)
    }
}

extension Canvas {
    /// `icon` with a selection state (chips, tab buttons): labels like `icon`, carrying `selected`.
    mutating func icon(_ shape: IconShape, at box: Box, color: RGB, interactive: Bool, selected: Bool?) {
        icon(shape, at: box, color: color, interactive: interactive, label: false)
        annotate(box, .icon, interactive: interactive, selected: selected, iconType: shape.type)
    }
}

extension Box {
    func insetBy(_ d: Float) -> Box { Box(xMin: xMin + d, yMin: yMin + d, xMax: xMax - d, yMax: yMax - d) }
}
