import Boxes
import Images
import SeededRandom

/// Whole screens: a kind of screen (feed, settings, sign-in form, ...) laid out between its bars, then
/// the bars drawn over what scrolled under them, then whatever covers the screen.
extension Canvas {
    enum Template { case feed, settings, form, article, gallery, onboarding, player, chat, empty }

    mutating func pickTemplate() -> Template {
        let weighted: [(Template, Double)] = [(.feed, 40), (.settings, 12), (.form, 9), (.article, 9), (.gallery, 7), (.onboarding, 5),
                                              (.player, 2.5), (.chat, 5), (.empty, 5)]
        var r = g.nextUnitDouble() * weighted.reduce(0) { $0 + $1.1 }
        for (t, w) in weighted { r -= w; if r < 0 { return t } }
        return .feed
    }

    mutating func compose() {
        let template = pickTemplate()
        var chrome = planChrome(allowHero: template == .article || template == .feed)
        switch template {
        case .form, .onboarding, .empty:
            if g.chance(0.5) { chrome.footer = .none; chrome.footerHeight = 0; chrome.fab = false }
            if template == .onboarding && g.chance(0.6) { chrome.topBar = .none; chrome.topBarHeight = 0; chrome.under = .none; chrome.underHeight = 0 }
        case .player, .chat:
            chrome.fab = false
            if g.chance(0.6) { chrome.footer = .none; chrome.footerHeight = 0 }
            if chrome.under == .tabs || chrome.under == .search { chrome.under = .none; chrome.underHeight = 0 }
        default: break
        }
        if [.form, .onboarding, .empty, .player].contains(template) { backdrop() }
        else if g.chance(0.15) { clutter() }

        let contentBottom = height - chrome.bottomInset
        let margin = (device.tablet ? g.uniform(24...48) : g.uniform(12...20)) * u
        let scrolled = !chrome.hero && chrome.topBar != .none && g.chance(0.25)
        var top = chrome.contentTop - (scrolled ? g.uniform(8...60) * u : 0)
        if chrome.hero {
            let h = width * g.uniform(0.5...0.8)
            picture(Box(xMin: 0, yMin: 0, xMax: width, yMax: h), kind: g.pick([.photo, .photo, .gradient, .illustration, .product]))
            // Legibility: a dark gradient at the top behind the transparent bars.
            for y in 0..<Int(chrome.headerBottom) { image.fill(x0: 0, y0: y, x1: image.width, y1: y + 1, color: RGB(0, 0, 0), alpha: 0.35 * (1 - Float(y) / chrome.headerBottom)) }
            top = h
        }
        top += 8 * u * style.spacing
        let columns = device.tablet && [.feed, .settings, .gallery, .article].contains(template) && g.chance(0.6)
        if columns {
            let split = width * g.uniform(0.3...0.42)
            image.fill(Box(xMin: split, yMin: chrome.headerBottom, xMax: split + max(1, u / 2), yMax: contentBottom), color: style.separator)
            _ = list(top: top, left: margin, right: split - margin, limit: contentBottom, rows: 6...14, settings: template == .settings)
            content(template, top: top, left: split + margin, right: width - margin, bottom: contentBottom)
        } else {
            content(template, top: top, left: margin, right: width - margin, bottom: contentBottom)
        }

        // The bars cover what scrolled under them.
        if !chrome.hero { occlude(Box(xMin: -width, yMin: -height, xMax: 2 * width, yMax: chrome.headerBottom)) }
        if chrome.bottomInset > 0 && chrome.footer != .none { occlude(Box(xMin: -width, yMin: contentBottom, xMax: 2 * width, yMax: 2 * height)) }
        let title = template == .settings ? g.pick(style.language.words.prefix(4) + ["Settings"]) : g.pick(style.language.words)
        statusBar(chrome, over: chrome.hero ? nil : statusBarColour(chrome))
        topBar(chrome, title: title)
        if chrome.fab { floatingButton(bottom: contentBottom) }
        footer(chrome)

        let hasField = annotations.contains { $0.kind == .textField }
        let r = g.nextUnitDouble()
        if hasField && (template == .chat ? g.chance(0.5) : template == .form ? g.chance(0.3) : g.chance(0.1)) {
            keyboard()
        } else if r < 0.08 {
            dialog()
        } else if r < 0.13 {
            sheet(bottom: contentBottom)
        } else if r < (style.idiom == .android ? 0.18 : 0.14) {
            drawer()
        } else if r < 0.21 && style.idiom == .android {
            snackbar(bottom: contentBottom)
        }
    }

    func statusBarColour(_ c: Chrome) -> RGB {
        if style.idiom == .iOS { return c.topBar == .none ? colour(at: width / 2, c.statusBar + 2) : style.barColour }
        if style.colouredBar { return style.accent.mixed(with: RGB(0, 0, 0), 0.2) }
        return style.appearance == .light && device.points < 400 && (style.accent.r & 3) == 0 ? RGB(0, 0, 0) : style.barColour
    }

    /// A photo or gradient behind a whole screen (sign-in, onboarding, players), washed out or darkened so
    /// that the app's text stays legible. Not an element.
    mutating func backdrop() {
        guard style.backdrop != .none else { return }
        var renderer = PictureRenderer(g: SeededGenerator(seed: g.next()))
        let size = image.size
        let tile = style.backdrop == .photo ? renderer.render(g.chance(0.6) ? .photo : .illustration, size: size)
            : renderer.gradient(size, colours: [style.accent, style.background, style.secondaryAccent].prefix(g.int(2...3)).map { $0 })
        image.composite(tile, x: 0, y: 0, radius: 0)
        let wash: RGB = style.label.luminance > 0.5 ? RGB(0, 0, 0) : RGB(255, 255, 255)
        image.fill(Box(xMin: 0, yMin: 0, xMax: width, yMax: height), color: wash, alpha: style.backdrop == .photo ? 0.55 : 0.35)
    }

    /// Things that are not elements: faint shapes and gradients behind the content.
    mutating func clutter() {
        if g.chance(0.5) {
            for y in stride(from: 0, to: image.height, by: 2) {
                image.fill(x0: 0, y0: y, x1: image.width, y1: y + 2, color: style.accent, alpha: 0.08 * (1 - Float(y) / height))
            }
        }
        for _ in 0..<g.int(0...3) {
            image.paintCircle(centerX: g.uniform(0...width), centerY: g.uniform(0...height), radius: g.uniform(10...80) * u, color: style.accent, alpha: g.uniform(0.03...0.08))
        }
    }

    /// The template's content from `top` down to `bottom` between `left` and `right`.
    mutating func content(_ template: Template, top: Float, left: Float, right: Float, bottom: Float) {
        var y = top
        let gap = { (c: inout Canvas) -> Float in c.g.uniform(6...20) * c.u * c.style.spacing }
        /// Sections in order while they fit; the last one may run under the bottom bar.
        func fill(_ c: inout Canvas, _ pick: (inout Canvas) -> Section) {
            var tries = 0
            while y < bottom - 30 * c.u && tries < 40 {
                tries += 1
                let next = c.draw(pick(&c), top: y + gap(&c), left: left, right: right, limit: bottom)
                if next > y + 1 { y = next }
            }
        }
        switch template {
        case .feed:
            fill(&self) { c in c.pickSection() }
        case .settings:
            fill(&self) { c in
                let r = c.g.nextUnitDouble()
                return r < 0.45 ? .list : r < 0.7 ? .header : r < 0.8 ? .toggles : r < 0.86 ? .segmented : r < 0.9 ? .checkboxes : r < 0.93 ? .slider : r < 0.96 ? .profile : .paragraph
            }
        case .gallery:
            y = header(top: y + 6 * u, left: left, right: right, limit: bottom)
            if g.chance(0.4) { y = chips(top: y + 8 * u, left: left, right: right, limit: bottom) }
            fill(&self) { c in c.g.chance(0.85) ? .pictures : .header }
        case .article:
            if g.chance(0.5) { y = pictures(top: y, left: left, right: right, limit: bottom) }
            text(phrase(words: 3...8), x: left, baseline: y + 30 * u, points: g.pick([22, 24, 28]), color: style.label, face: .title, maxWidth: right - left)
            y += 44 * u
            beginGroup()
            avatar(centerX: left + 16 * u, centerY: y + 14 * u, radius: 16 * u)
            text(name(), x: left + 42 * u, baseline: y + 12 * u, points: 14, color: style.label, face: .bold, maxWidth: right - left - 42 * u)
            text(value(), x: left + 42 * u, baseline: y + 28 * u, points: 12, color: style.secondaryLabel, maxWidth: right - left - 42 * u)
            endGroup()
            y += 40 * u
            fill(&self) { c in
                let r = c.g.nextUnitDouble()
                return r < 0.55 ? .paragraph : r < 0.7 ? .pictures : r < 0.8 ? .chips : r < 0.88 ? .buttons : r < 0.94 ? .rating : .header
            }
        case .form: form(top: y, left: left, right: right, bottom: bottom)
        case .onboarding, .empty: message(template, top: y, left: left, right: right, bottom: bottom)
        case .player: player(top: y, left: left, right: right, bottom: bottom)
        case .chat: chat(top: y, left: left, right: right, bottom: bottom)
        }
    }

    /// A content section for feeds, weighted so that class counts fall roughly in the paper's order:
    /// text most, then icon, container, picture; sliders least.
    mutating func pickSection() -> Section {
        let weighted: [(Section, Double)] = [
            (.list, 22), (.card, 21), (.pictures, 8), (.paragraph, 10), (.header, 9), (.segmented, 3), (.slider, 0.25),
            (.fields, 2.5), (.carousel, 2.2), (.checkboxes, 1.5), (.toggles, 1), (.buttons, 5), (.chips, 2.5), (.shelf, 3),
            (.shortcuts, 2.5), (.stats, 1.5), (.profile, 1.5), (.rating, 1),
        ]
        var r = g.nextUnitDouble() * weighted.reduce(0) { $0 + $1.1 }
        for (s, w) in weighted { r -= w; if r < 0 { return s } }
        return .list
    }

    /// Sign-in and sign-up: a logo, a title, fields, a "remember me" checkbox, buttons, links.
    mutating func form(top: Float, left: Float, right: Float, bottom: Float) {
        var y = top + g.uniform(8...60) * u
        let cx = (left + right) / 2
        if g.chance(0.6) {
            let s = g.uniform(56...110) * u
            if g.chance(0.3) { glyphIcon(at: Box(xMin: cx - s / 2, yMin: y, xMax: cx + s / 2, yMax: y + s), interactive: false) }
            else { picture(Box(xMin: cx - s / 2, yMin: y, xMax: cx + s / 2, yMax: y + s), radius: g.chance(0.5) ? s * 0.22 : 0, kind: g.pick([.illustration, .gradient, .product]), round: g.chance(0.3)) }
            y += s + 20 * u
        }
        let centred = g.chance(0.6)
        let heading = g.pick(["Welcome back", "Sign in", "Create account", "Log in", "Hello!"] + style.language.actions.prefix(2))
        if centred { text(heading, centerX: cx, centerY: y + 20 * u, points: g.pick([24, 28, 32]), color: style.label, face: .title, maxWidth: right - left) }
        else { text(heading, x: left, baseline: y + 22 * u, points: g.pick([24, 28, 32]), color: style.label, face: .title, maxWidth: right - left) }
        y += 40 * u
        if g.chance(0.5) { y = paragraph(sentence(words: 5...16), x: left, baseline: y + 6 * u, width: right - left, points: 14, color: style.secondaryLabel, maxLines: 3, centered: centred) }
        y = fields(top: y + 8 * u, left: left, right: right, limit: bottom)
        if g.chance(0.4) && y + 30 * u < bottom {
            beginGroup()
            checkbox(x: left, centerY: y + 14 * u, checked: g.chance(0.5))
            text(g.pick(["Remember me", "Keep me logged in", "I agree to the Terms"]), x: left + 32 * u, baseline: baseline(y + 14 * u, 14), points: 14, color: style.label, maxWidth: right - left - 32 * u)
            endGroup()
            y += 34 * u
        }
        y = buttons(top: y + 10 * u, left: left, right: right, limit: bottom)
        if g.chance(0.5) && y + 40 * u < bottom {
            text(g.pick(["or", "OR", "— or —", "or continue with"]), centerX: cx, centerY: y + 18 * u, points: 13, color: style.secondaryLabel)
            y += 34 * u
            y = buttons(top: y, left: left, right: right, limit: bottom)
        }
        if g.chance(0.6) && y + 30 * u < bottom {
            let link = g.pick(["Don't have an account? Sign up", "Forgot password?", "Create Account", "Terms of Service and Privacy Policy"])
            text(link, centerX: cx, centerY: max(y + 24 * u, bottom - g.uniform(20...60) * u), points: 13, color: style.accent, maxWidth: right - left, interactive: true)
        }
    }

    /// Onboarding pages and empty states: a big picture or icon, a title, a message, page dots, buttons.
    mutating func message(_ template: Template, top: Float, left: Float, right: Float, bottom: Float) {
        let cx = (left + right) / 2
        var y = top + (bottom - top) * g.uniform(0.05...0.2)
        if template == .empty && g.chance(0.4) {
            let s = g.uniform(48...96) * u
            icon(g.pick(IconShape.rows), at: Box(xMin: cx - s / 2, yMin: y, xMax: cx + s / 2, yMax: y + s), color: style.secondaryLabel)
            y += s + 24 * u
        } else {
            let s = min(right - left, (bottom - top) * 0.42) * (template == .empty ? 0.6 : 1)
            picture(Box(xMin: cx - s / 2, yMin: y, xMax: cx + s / 2, yMax: y + s * g.uniform(0.75...1)), radius: g.chance(0.5) ? style.cornerRadius * u : 0,
                    kind: g.pick([.illustration, .illustration, .photo, .gradient, .product]), round: g.chance(0.15))
            y += s + 24 * u
        }
        text(phrase(words: 2...5), centerX: cx, centerY: y, points: g.pick([20, 22, 26]), color: style.label, face: .title, maxWidth: right - left)
        y += 28 * u
        y = paragraph(sentence(words: 6...26), x: left + 8 * u, baseline: y, width: right - left - 16 * u, points: 15, color: style.secondaryLabel, maxLines: 4, limit: bottom - 90 * u, centered: true)
        if template == .onboarding {
            pageControl(centerX: cx, centerY: max(y + 10 * u, bottom - 90 * u), count: g.int(3...5), on: style.accent)
            let by = bottom - 64 * u
            if g.chance(0.5) {
                button(g.pick(style.language.actions), x: left, top: by, width: right - left, height: 48, look: .filled)
            } else {
                let skip = style.uppercaseButtons ? "SKIP" : "Skip", next = style.uppercaseButtons ? "NEXT" : "Next"
                text(skip, x: left, baseline: baseline(by + 24 * u, 16), points: 16, color: style.secondaryLabel, face: .bold, interactive: true)
                text(next, x: right - textWidth(next, points: 16, face: .bold), baseline: baseline(by + 24 * u, 16), points: 16, color: style.accent, face: .bold, interactive: true)
            }
        } else if g.chance(0.7) {
            let title = g.pick(style.language.actions)
            button(title, x: cx - (textWidth(title, points: 16, face: .bold) + 48 * u) / 2, top: y + 12 * u, height: 44, look: g.pick([.filled, .outlined, .tonal]))
        }
    }

    /// A media player: artwork, title and artist, a progress slider with times, transport controls.
    mutating func player(top: Float, left: Float, right: Float, bottom: Float) {
        let cx = (left + right) / 2
        let s = min(right - left, (bottom - top) * 0.48)
        var y = top + 12 * u
        picture(Box(xMin: cx - s / 2, yMin: y, xMax: cx + s / 2, yMax: y + s), radius: style.cornerRadius * u)
        y += s + 30 * u
        text(phrase(words: 1...4), centerX: cx, centerY: y, points: 20, color: style.label, face: .title, maxWidth: right - left)
        text(name(), centerX: cx, centerY: y + 24 * u, points: 15, color: style.secondaryLabel, maxWidth: right - left)
        y += 52 * u
        slider(left: left, right: right, centerY: y)
        text(String(format: "%d:%02d", g.int(0...3), g.int(0...59)), x: left, baseline: y + 26 * u, points: 12, color: style.secondaryLabel, face: g.chance(0.3) ? .mono : .regular)
        let end = String(format: "-%d:%02d", g.int(0...5), g.int(0...59))
        text(end, x: right - textWidth(end, points: 12), baseline: y + 26 * u, points: 12, color: style.secondaryLabel)
        y += 64 * u
        let shapes: [IconShape] = [.skipPrevious, g.chance(0.5) ? .play : .pause, .skipNext]
        for (k, shape) in shapes.enumerated() {
            let x = cx + Float(k - 1) * 84 * u, r = (k == 1 ? 30 : 18) * u
            if k == 1 && g.chance(0.5) {
                image.paintCircle(centerX: x, centerY: y, radius: r, color: style.accent)
                icon(shape, at: Box(xMin: x - r * 0.55, yMin: y - r * 0.55, xMax: x + r * 0.55, yMax: y + r * 0.55), color: style.onAccent, interactive: true)
            } else {
                icon(shape, at: Box(xMin: x - r, yMin: y - r, xMax: x + r, yMax: y + r), color: style.label, interactive: true)
            }
        }
        if y + 60 * u < bottom {
            let sy = y + 56 * u
            icon(.heart, at: Box(xMin: left, yMin: sy - 11 * u, xMax: left + 22 * u, yMax: sy + 11 * u), color: style.secondaryLabel, interactive: true)
            icon(.share, at: Box(xMin: right - 22 * u, yMin: sy - 11 * u, xMax: right, yMax: sy + 11 * u), color: style.secondaryLabel, interactive: true)
        }
    }

    /// A conversation: bubbles left and right (their lines grouped), small times, an input bar at the bottom.
    mutating func chat(top: Float, left: Float, right: Float, bottom: Float) {
        let barH = 52 * u
        var y = top + 8 * u
        let inputTop = bottom - barH
        let incoming = RGB(229, 229, 234).mixed(with: style.background, style.dark ? 0.75 : 0)
        while y < inputTop - 40 * u {
            let mine = g.chance(0.45)
            let maxW = (right - left) * 0.72
            let sentence = self.sentence(words: 1...16)
            let px = pixelSize(15)
            let w = min(maxW, textWidth(sentence, points: 15) + 24 * u)
            let lines = Int((textWidth(sentence, points: 15) / max(1, maxW - 24 * u)).rounded(.up))
            let h = Float(max(1, lines)) * Float(px) * 1.35 + 16 * u
            var x = mine ? right - w : left
            if !mine && g.chance(0.4) {
                avatar(centerX: left + 14 * u, centerY: y + h - 14 * u, radius: 14 * u)
                x += 36 * u
            }
            let bubble = Box(xMin: x, yMin: y, xMax: min(right, x + w), yMax: y + h)
            let fill = mine ? style.accent : incoming
            image.paintRounded(bubble, radius: 16 * u, color: fill)
            paragraph(sentence, x: bubble.xMin + 12 * u, baseline: bubble.yMin + 8 * u + Float(px) * 0.95, width: bubble.width - 24 * u, points: 15,
                      color: mine ? style.onAccent : RGB(20, 20, 20), maxLines: 8)
            y = bubble.yMax + 4 * u
            if g.chance(0.3) {
                let time = value()
                text(time, x: mine ? right - textWidth(time, points: 11) : x, baseline: y + 11 * u, points: 11, color: style.secondaryLabel)
                y += 16 * u
            }
            y += 6 * u
        }
        occlude(Box(xMin: -width, yMin: inputTop, xMax: 2 * width, yMax: 2 * height))
        image.fill(Box(xMin: 0, yMin: inputTop, xMax: width, yMax: bottom), color: style.dark ? style.surface : RGB(248, 248, 248))
        let cy = inputTop + barH / 2
        var x = left
        if g.chance(0.6) {
            icon(g.pick([.plus, .camera, .photo]), at: Box(xMin: x, yMin: cy - 12 * u, xMax: x + 24 * u, yMax: cy + 12 * u), color: style.accent, interactive: true)
            x += 34 * u
        }
        textField(Box(xMin: x, yMin: cy - 17 * u, xMax: right - 38 * u, yMax: cy + 17 * u), placeholder: g.pick(style.language.placeholders.suffix(2)), filled: g.chance(0.2), search: false)
        icon(g.chance(0.6) ? .send : .mic, at: Box(xMin: right - 26 * u, yMin: cy - 13 * u, xMax: right, yMax: cy + 13 * u), color: style.accent, interactive: true)
    }
}
