import Boxes
import Foundation
import IconVocabulary
import Images
import SeededRandom

/// The six fonts of Debian's fonts-dejavu-core, loaded once per synthesizer.
struct FontSet {
    let sans, sansBold, serif, serifBold, mono, monoBold: Font

    init() throws {
        sans = try Font(path: FontFamily.sans.regularPath)
        sansBold = try Font(path: FontFamily.sans.boldPath)
        serif = try Font(path: FontFamily.serif.regularPath)
        serifBold = try Font(path: FontFamily.serif.boldPath)
        mono = try Font(path: FontFamily.mono.regularPath)
        monoBold = try Font(path: FontFamily.mono.boldPath)
    }

    func font(_ family: FontFamily, bold: Bool) -> Font {
        switch family {
        case .sans: return bold ? sansBold : sans
        case .serif: return bold ? serifBold : serif
        case .mono: return bold ? monoBold : mono
        }
    }
}

/// One labelled box and what a screen reader knows of it (screen-description.md, "Ground truth in shards").
struct Annotation {
    /// In content pixels; clipped to the screen only when the screen is finished.
    var box: Box
    let kind: ScreenSynthesizer.Kind
    /// The top-level element the box belongs to (an index into `Canvas.elements`).
    let element: Int
    let selected: Int8
    let interactive: Int8
    /// The exact string a text box shows; empty for other classes.
    let text: String
    /// An icon's meaning (`icon_types`); empty for other classes.
    let iconType: String
}

/// A top-level element: one box alone, or a group of boxes a screen reader visits as one.
struct Element {
    enum Grouping { case single, group, tabButton }
    var grouping: Grouping
    /// Reading order: status bar, top bars, content, floating buttons, bottom bars, overlays; within a layer, drawing order.
    let layer: Canvas.Layer
    /// False behind a shown dialog, and for frames that only hold elements of their own (a grouped-table section).
    var visited: Bool
}

/// One screen being drawn: the image, its annotations, and the layout state.
///
/// Sections draw in reading order (top to bottom, left to right within a row), so the order
/// elements are created in is the reference navigation order within each `Layer`.
struct Canvas {
    typealias Kind = ScreenSynthesizer.Kind

    enum Layer: Int, Comparable {
        case statusBar, topBar, content, floating, bottomBar, overlay
        static func < (a: Layer, b: Layer) -> Bool { a.rawValue < b.rawValue }
    }

    var image: RGBImage
    var annotations: [Annotation] = []
    var elements: [Element] = []
    var layer: Layer = .content
    /// The open group and how deeply `beginGroup` calls are nested in it (inner calls join the outer group).
    private var openGroup: Int? = nil
    private var groupDepth = 0

    let style: AppStyle
    let device: Device
    let fonts: FontSet
    let glyphs: GlyphPainter
    var g: SeededGenerator
    /// Points (dp) to pixels.
    let u: Float
    let width: Float, height: Float

    init(size: Size, device: Device, style: AppStyle, fonts: FontSet, glyphs: GlyphPainter, generator: SeededGenerator) {
        image = RGBImage(size: size, fill: style.background)
        self.device = device
        self.style = style
        self.fonts = fonts
        self.glyphs = glyphs
        g = generator
        u = Float(size.width) / device.points
        width = Float(size.width)
        height = Float(size.height)
    }

    // MARK: annotations and groups

    /// Starts a group of `grouping`; boxes annotated until `endGroup` form one element. Nested calls join the open group.
    mutating func beginGroup(_ grouping: Element.Grouping = .group) {
        if openGroup != nil { groupDepth += 1; return }
        openGroup = elements.count
        groupDepth = 1
        elements.append(Element(grouping: grouping, layer: layer, visited: true))
    }

    mutating func endGroup() {
        groupDepth -= 1
        if groupDepth == 0 { openGroup = nil }
    }

    /// Labels `box` as `kind`. `interactive` and `selected` default to what the class says
    /// (controls act, toggles and checkboxes carry their state); `text` is the string a text box shows.
    mutating func annotate(_ box: Box, _ kind: Kind, interactive: Bool? = nil, selected: Bool? = nil, text: String = "", visited: Bool = true,
                           iconType: IconType? = nil) {
        guard box.width >= 1, box.height >= 1, box.xMax > 0, box.yMax > 0, box.xMin < width, box.yMin < height else { return }
        let element: Int
        if let openGroup {
            element = openGroup
        } else {
            element = elements.count
            elements.append(Element(grouping: .single, layer: layer, visited: visited))
        }
        let acts: Bool
        switch kind {
        case .text, .icon, .picture, .container, .dialog: acts = interactive ?? false
        default: acts = interactive ?? true
        }
        let state: Bool?
        switch kind {
        case .toggleSelected, .checkboxSelected: state = true
        case .toggleUnselected, .checkboxUnselected: state = false
        default: state = selected
        }
        annotations.append(Annotation(box: box, kind: kind, element: element, selected: state.map { $0 ? 1 : 0 } ?? -1,
                                      interactive: acts ? 1 : 0, text: kind == .text ? text : "", iconType: kind == .icon ? iconType?.name ?? "" : ""))
    }

    /// What a labeller does when `region` covers part of the screen: boxes mostly hidden are dropped,
    /// boxes cut along one side keep their visible part, text keeps its box only while its string is
    /// still readable. A modal cover (dialog, modal sheet, drawer) also takes everything drawn so far
    /// out of the navigation order. The caller paints the cover.
    mutating func occlude(_ region: Box, modal: Bool = false) {
        if modal { for e in elements.indices { elements[e].visited = false } }
        annotations = annotations.compactMap { a in
            let b = a.box
            let hidden = Float(b.intersectionArea(region) / max(1e-6, b.area))
            guard hidden > 0 else { return a }
            let spansX = region.xMin <= b.xMin + 0.5 && region.xMax >= b.xMax - 0.5
            let spansY = region.yMin <= b.yMin + 0.5 && region.yMax >= b.yMax - 0.5
            var visible: Box? = nil
            if spansX && region.yMin <= b.yMin { visible = Box(xMin: b.xMin, yMin: region.yMax, xMax: b.xMax, yMax: b.yMax) }
            else if spansX && region.yMax >= b.yMax { visible = Box(xMin: b.xMin, yMin: b.yMin, xMax: b.xMax, yMax: region.yMin) }
            else if spansY && region.xMin <= b.xMin { visible = Box(xMin: region.xMax, yMin: b.yMin, xMax: b.xMax, yMax: b.yMax) }
            else if spansY && region.xMax >= b.xMax { visible = Box(xMin: b.xMin, yMin: b.yMin, xMax: region.xMin, yMax: b.yMax) }
            let small: Bool
            switch a.kind {
            case .icon, .toggleSelected, .toggleUnselected, .checkboxSelected, .checkboxUnselected, .pageControl, .segmentedControl: small = true
            default: small = false
            }
            if let visible, visible.width >= 2, visible.height >= 2 {
                // Text cut from the side loses characters: its string no longer matches. Cut from above or below it stays readable a while.
                let limit: Float = a.kind == .text ? (spansX ? 0.3 : 0.02) : small ? 0.35 : 0.75
                guard hidden <= limit else { return nil }
                var kept = a
                kept.box = visible
                return kept
            }
            // Covered in the middle: kept whole while mostly visible.
            return hidden <= (a.kind == .text ? 0.02 : 0.3) ? a : nil
        }
    }

    // MARK: text

    enum Face { case regular, bold, title, mono }

    func font(_ face: Face) -> Font {
        switch face {
        case .regular: return fonts.font(style.bodyFamily, bold: false)
        case .bold: return fonts.font(style.bodyFamily, bold: true)
        case .title: return fonts.font(style.titleFamily, bold: true)
        case .mono: return fonts.font(.mono, bold: false)
        }
    }

    /// Pixel size of text of `points` size in this app.
    func pixelSize(_ points: Float) -> Int { max(6, Int((points * u * style.textScale).rounded())) }

    func textWidth(_ s: String, points: Float, face: Face = .regular) -> Float {
        Float(font(face).width(of: s, pixelSize: pixelSize(points)))
    }

    /// `s` shortened to fit `maxWidth`: with an ellipsis where the app uses one, else cut.
    func fitted(_ s: String, points: Float, face: Face, maxWidth: Float) -> String {
        let f = font(face), px = pixelSize(points)
        guard Float(f.width(of: s, pixelSize: px)) > maxWidth else { return s }
        var chars = Array(s)
        let tail = style.ellipsis ? "…" : ""
        while chars.count > 1 {
            chars.removeLast()
            while chars.last == " " { chars.removeLast() }
            let candidate = String(chars) + tail
            if Float(f.width(of: candidate, pixelSize: px)) <= maxWidth { return candidate }
        }
        return String(chars)
    }

    /// Draws a line of text with its baseline at `baseline`; labels it `text` (with its string) unless
    /// `label` is false. Returns the box around the ink.
    @discardableResult
    mutating func text(_ s: String, x: Float, baseline: Float, points: Float, color: RGB, face: Face = .regular,
                       maxWidth: Float? = nil, interactive: Bool = false, selected: Bool? = nil, label: Bool = true) -> Box? {
        var string = s.trimmingCharacters(in: .whitespaces)
        if let maxWidth { string = fitted(string, points: points, face: face, maxWidth: max(1, maxWidth)) }
        let ink = image.draw(text: string, x: Int(x.rounded()), baseline: Int(baseline.rounded()), font: font(face), pixelSize: pixelSize(points), color: color)
        if label, let ink { annotate(ink, .text, interactive: interactive, selected: selected, text: string) }
        return ink
    }

    /// Text centred on `centerX` and vertically on `centerY`.
    @discardableResult
    mutating func text(_ s: String, centerX: Float, centerY: Float, points: Float, color: RGB, face: Face = .regular,
                       maxWidth: Float? = nil, interactive: Bool = false, selected: Bool? = nil, label: Bool = true) -> Box? {
        var string = s
        if let maxWidth { string = fitted(s, points: points, face: face, maxWidth: max(1, maxWidth)) }
        let w = textWidth(string, points: points, face: face)
        return text(string, x: centerX - w / 2, baseline: centerY + Float(pixelSize(points)) * 0.36, points: points, color: color,
                    face: face, interactive: interactive, selected: selected, label: label)
    }

    /// `s` broken into lines at spaces, each at most `width` wide (a single long word stays whole).
    func wrap(_ s: String, width: Float, points: Float, face: Face) -> [String] {
        let f = font(face), px = pixelSize(points)
        var lines: [String] = []
        var current = ""
        for word in s.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if current.isEmpty || Float(f.width(of: candidate, pixelSize: px)) <= width { current = candidate; continue }
            lines.append(current)
            current = String(word)
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Wraps `s` into lines of at most `width` and draws one text box per line (a group when there are
    /// several, as a screen reader reads a paragraph). Returns the baseline below the last line.
    @discardableResult
    mutating func paragraph(_ s: String, x: Float, baseline: Float, width: Float, points: Float, color: RGB, face: Face = .regular,
                            maxLines: Int = 6, lineHeight: Float? = nil, limit: Float = .infinity, centered: Bool = false) -> Float {
        let px = pixelSize(points)
        let step = lineHeight ?? Float(px) * 1.35
        var lines = wrap(s, width: width, points: points, face: face)
        var y = baseline
        let room = limit.isFinite ? Int(max(0, min(1000, (limit - baseline) / step))) + 1 : maxLines
        let fit = max(1, min(maxLines, lines.count, room))
        if fit < lines.count {
            lines = Array(lines.prefix(fit))
            lines[fit - 1] = fitted(lines[fit - 1] + " …", points: points, face: face, maxWidth: width)
        }
        beginGroup()
        for line in lines {
            if centered { text(line, centerX: x + width / 2, centerY: y - Float(px) * 0.36, points: points, color: color, face: face, maxWidth: width) }
            else { text(line, x: x, baseline: y, points: points, color: color, face: face, maxWidth: width) }
            y += step
        }
        endGroup()
        return y
    }
}
