import Boxes
import Images

/// Ours: the state of a switch or checkbox whose class does not say it (vocabulary kinds `toggle`
/// and `checkbox`), from its pixels; nil when they do not decide (never guessed). A box much wider
/// than tall holds the control's label too (an Android Switch or CheckedTextView): the control is
/// read at the box's right end, where those widgets draw it. A switch is on when a tinted colour
/// (a channel spread of at least `minTintSpread`) covers at least `minShare` of it (the tinted
/// track or knob), off when it shows an untinted track and no tint. A checkbox is checked when its
/// square holds a tint, or ink in its centre (the check mark), and unchecked when its centre is as
/// empty as the background inside an outline.
struct ControlState {
    let image: RGBImage
    let quantiser: ColorQuantiser
    /// A colour is tinted when its channels spread at least this far (0-255).
    var minTintSpread = 60
    /// The share of the control's pixels a cue must cover.
    var minShare = 0.12

    /// The state of a `toggle` at `frame`.
    func toggle(_ frame: Box) -> Bool? {
        let region = end(of: frame, widthInHeights: 2.2)
        guard let shares = self.shares(region), shares.total > 0 else { return nil }
        if shares.tinted >= minShare { return true }
        if shares.neutralInk >= minShare { return false }
        return nil
    }

    /// The state of a `checkbox` at `frame`.
    func checkbox(_ frame: Box) -> Bool? {
        let square = end(of: frame, widthInHeights: 1)
        let inset = 0.15 * square.height
        let inner = Box(xMin: square.xMin + inset, yMin: square.yMin + inset, xMax: square.xMax - inset, yMax: square.yMax - inset)
        let h = inner.height
        let centre = Box(xMin: inner.centerX - h / 4, yMin: inner.centerY - h / 4, xMax: inner.centerX + h / 4, yMax: inner.centerY + h / 4)
        guard let all = shares(inner), let middle = shares(centre), all.total > 0, middle.total > 0 else { return nil }
        if all.tinted >= minShare || middle.tinted + middle.neutralInk >= 2 * minShare { return true }
        if all.tinted + all.neutralInk >= minShare / 2 && middle.tinted + middle.neutralInk < minShare / 4 { return false }
        return nil
    }

    /// `frame` itself when it is no wider than `widthInHeights` of its height, else its right end of that width.
    func end(of frame: Box, widthInHeights: Float) -> Box {
        let w = widthInHeights * frame.height
        return frame.width <= 1.3 * w ? frame : Box(xMin: frame.xMax - w, yMin: frame.yMin, xMax: frame.xMax, yMax: frame.yMax)
    }

    /// The shares of `box`'s pixels that are tinted and that are untinted ink (not the background), and
    /// the pixel count. The background is the most frequent colour of the box with a margin of half its
    /// height around it: a track may fill the box itself.
    func shares(_ box: Box) -> (tinted: Double, neutralInk: Double, total: Int)? {
        let rect = PixelRect(box, in: image.size)
        let m = box.height / 2
        let around = PixelRect(Box(xMin: box.xMin - m, yMin: box.yMin - m, xMax: box.xMax + m, yMax: box.yMax + m), in: image.size)
        guard !rect.isEmpty, let colours = quantiser.colours(image, around) else { return nil }
        var tinted = 0, ink = 0
        for y in rect.y0..<rect.y1 {
            for x in rect.x0..<rect.x1 {
                let p = image.pixel(x: x, y: y)
                guard quantiser.differ(quantiser.bin(p.r, p.g, p.b), colours.background) else { continue }
                let spread = Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b))
                if spread >= minTintSpread { tinted += 1 } else { ink += 1 }
            }
        }
        let n = rect.width * rect.height
        return (Double(tinted) / Double(n), Double(ink) / Double(n), n)
    }
}
