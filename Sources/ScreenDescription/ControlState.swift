import Boxes
import Images

/// Ours: the state of a switch or checkbox whose class does not say it (vocabulary kinds `toggle`
/// and `checkbox`), from its pixels; nil when they do not decide (never guessed). A box much wider
/// than tall holds the control's label too (an Android Switch or CheckedTextView): the control is
/// read at the box's right end, where those widgets draw it. A switch is on when a tinted colour
/// (a channel spread of at least `minTintSpread`) covers at least `minShare` of it (the tinted
/// track or knob), off when it shows an untinted track and no tint. A checkbox: see `checkbox(_:)`.
struct ControlState {
    let image: RGBImage
    let quantiser: ColorQuantiser
    /// A colour is tinted when its channels spread at least this far (0-255).
    var minTintSpread = 60
    /// The share of the control's pixels a cue must cover.
    var minShare = 0.12
    /// The share of a checkbox mark's outer quarter its outline or fill covers.
    var minOutline = 0.35

    /// The state of a `toggle` at `frame`.
    func toggle(_ frame: Box) -> Bool? {
        let region = end(of: frame, widthInHeights: 2.2)
        guard let shares = self.shares(region), shares.total > 0 else { return nil }
        if shares.tinted >= minShare { return true }
        if shares.neutralInk >= minShare { return false }
        return nil
    }

    /// The state of a `checkbox` at `frame`: a box as wide as tall is the mark itself; a wider one (a
    /// row with its text) is read at whichever end holds a square mark. A mark is the ink of that end
    /// (what differs from the background around it), square within 25%, at least a third of the box's
    /// height, its outer quarter at least `minOutline` covered (an outline or a fill: letters are
    /// thinner); checked when its centre half holds ink (a check mark, a filled box), unchecked when
    /// its centre is empty. Both ends deciding differently, or none deciding, leave it unknown.
    func checkbox(_ frame: Box) -> Bool? {
        let h = frame.height
        let ends = frame.width <= 1.3 * h ? [frame]
            : [Box(xMin: frame.xMin, yMin: frame.yMin, xMax: frame.xMin + h, yMax: frame.yMax), Box(xMin: frame.xMax - h, yMin: frame.yMin, xMax: frame.xMax, yMax: frame.yMax)]
        // Inset a tenth: a row's dividers at its edges are not its mark.
        let states = Set(ends.map { Box(xMin: $0.xMin + 0.1 * h, yMin: $0.yMin + 0.1 * h, xMax: $0.xMax - 0.1 * h, yMax: $0.yMax - 0.1 * h) }
            .compactMap { mark($0).flatMap(checked) })
        return states.count == 1 ? states.first : nil
    }

    /// The square mark's box inside `region`, if its ink is one.
    func mark(_ region: Box) -> Box? {
        guard let ink = inkBounds(region) else { return nil }
        let (w, h) = (ink.width, ink.height)
        guard w >= region.height / 3, h >= region.height / 3, w <= 1.25 * h, h <= 1.25 * w else { return nil }
        return ink
    }

    /// Checked, unchecked, or nil, from a mark's outline and centre.
    func checked(_ mark: Box) -> Bool? {
        let qx = mark.width / 4, qy = mark.height / 4
        let inner = Box(xMin: mark.xMin + qx, yMin: mark.yMin + qy, xMax: mark.xMax - qx, yMax: mark.yMax - qy)
        guard let all = shares(mark, around: mark), let centre = shares(inner, around: mark), all.total > 0, centre.total > 0 else { return nil }
        let allInk = all.tinted + all.neutralInk, centreInk = centre.tinted + centre.neutralInk
        // The outer quarter's coverage, from the whole and the centre (the centre is a quarter of the area).
        let outline = (allInk * Double(all.total) - centreInk * Double(centre.total)) / Double(all.total - centre.total)
        guard outline >= minOutline else { return nil }
        if centreInk >= 0.2 { return true }
        if centreInk <= 0.05 { return false }
        return nil
    }

    /// The smallest box holding the pixels of `region` that differ from the background around it.
    func inkBounds(_ region: Box) -> Box? {
        let rect = PixelRect(region, in: image.size)
        guard !rect.isEmpty, let background = background(around: region) else { return nil }
        var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
        for y in rect.y0..<rect.y1 {
            for x in rect.x0..<rect.x1 {
                let p = image.pixel(x: x, y: y)
                guard quantiser.differ(quantiser.bin(p.r, p.g, p.b), background) else { continue }
                (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
            }
        }
        guard x0 <= x1 else { return nil }
        return Box(xMin: Float(x0), yMin: Float(y0), xMax: Float(x1 + 1), yMax: Float(y1 + 1))
    }

    /// `frame` itself when it is no wider than `widthInHeights` of its height, else its right end of that width.
    func end(of frame: Box, widthInHeights: Float) -> Box {
        let w = widthInHeights * frame.height
        return frame.width <= 1.3 * w ? frame : Box(xMin: frame.xMax - w, yMin: frame.yMin, xMax: frame.xMax, yMax: frame.yMax)
    }

    /// The shares of `box`'s pixels that are tinted and that are untinted ink (not the background), and
    /// the pixel count. The background is the most frequent colour of the box with a margin of half its
    /// height around it: a track may fill the box itself.
    func shares(_ box: Box, around: Box? = nil) -> (tinted: Double, neutralInk: Double, total: Int)? {
        let rect = PixelRect(box, in: image.size)
        guard !rect.isEmpty, let background = background(around: around ?? box) else { return nil }
        var tinted = 0, ink = 0
        for y in rect.y0..<rect.y1 {
            for x in rect.x0..<rect.x1 {
                let p = image.pixel(x: x, y: y)
                guard quantiser.differ(quantiser.bin(p.r, p.g, p.b), background) else { continue }
                let spread = Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b))
                if spread >= minTintSpread { tinted += 1 } else { ink += 1 }
            }
        }
        let n = rect.width * rect.height
        return (Double(tinted) / Double(n), Double(ink) / Double(n), n)
    }

    /// The most frequent colour of `box` with a margin of half its height around it (a track may fill the box itself).
    func background(around box: Box) -> Int? {
        let m = box.height / 2
        return quantiser.colours(image, PixelRect(Box(xMin: box.xMin - m, yMin: box.yMin - m, xMax: box.xMax + m, yMax: box.yMax + m), in: image.size))?.background
    }
}
