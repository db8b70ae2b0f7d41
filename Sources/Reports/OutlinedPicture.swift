import Boxes
import Foundation
import Images
import Shards

/// A small JPEG of (part of) a stored screen with boxes outlined over it by the page, as the error
/// galleries of `evaluate` and `evaluate-description` show them. The JPEG sits in the page, marked
/// `loading="lazy" decoding="async"`, so that the browser decodes only what is scrolled near and a
/// page of a few thousand opens at once (no script: a page that relied on one showed nothing to a
/// headless browser, whose observers did not fire).
public struct OutlinedPicture {
    /// A box to outline, as fractions of the picture (0...1 across and down).
    public struct Outline {
        public var box: Box
        public var color: String
        /// Dashed: a box the picture's subject relates to, not the subject.
        public var dashed: Bool
        /// Shown on hover.
        public var title: String?
        /// Written at the box's top-left corner (a number in an order).
        public var label: String?

        /// An outline of `box` in `color`.
        public init(_ box: Box, color: String, dashed: Bool = false, title: String? = nil, label: String? = nil) {
            (self.box, self.color, self.dashed, self.title, self.label) = (box, color, dashed, title, label)
        }
    }

    public var jpeg: Data
    /// The JPEG's pixels.
    public var size: Size
    /// Its size on the page, in CSS pixels: `size`, or larger for a small crop (the browser enlarges it).
    public var shown: Size

    /// JPEG quality of every picture: small files, boxes and text still readable.
    static let jpegQuality = 72

    /// `pixels` as a JPEG.
    public init(_ pixels: RGBImage) throws {
        jpeg = try ImageCodec.encodeJPEG(pixels, quality: Self.jpegQuality)
        size = pixels.size
        shown = size
    }

    /// The part of stored screen `i` of `set` that holds the screenshot: all of it, or for a screenshot
    /// letterboxed into the shard (padded right and bottom), the scaled screenshot without the padding.
    public static func content(of set: ShardSet, screen i: Int, stored: Size) -> Size {
        let (k, local) = set.locate(i)
        guard let original = set.readers[k].originalSizes?[local], original.width > 0, original.height > 0 else { return stored }
        return Letterbox(original: original, target: stored).content
    }

    /// The content of `image` (its top-left `content`) shown at most `width` pixels wide, and the function
    /// that turns a box in stored pixels into fractions of the picture. Content up to twice as wide keeps
    /// its pixels and the browser shrinks it: resampling it here would cost more than the larger JPEG.
    public static func screen(_ image: RGBImage, content: Size, width: Int) throws -> (picture: OutlinedPicture, toFractions: (Box) -> Box) {
        let visible = image.cropped(x0: 0, y0: 0, x1: content.width, y1: content.height)
        let w = min(width, visible.width)
        let shown = Size(width: w, height: max(1, Int((Float(visible.height) * Float(w) / Float(visible.width)).rounded())))
        var picture = try OutlinedPicture(visible.width <= 2 * w ? visible : visible.resized(to: shown))
        picture.shown = shown
        let (cw, ch) = (Float(content.width), Float(content.height))
        return (picture, { b in Box(xMin: b.xMin / cw, yMin: b.yMin / ch, xMax: b.xMax / cw, yMax: b.yMax / ch) })
    }

    /// The picture with `outlines` over it, its JPEG loaded and decoded when near the screen.
    func html(_ outlines: [Outline]) -> String {
        var h = "<div class=\"pic\" style=\"width:\(shown.width)px;height:\(shown.height)px\">"
        h += "<img alt=\"\" width=\"\(shown.width)\" height=\"\(shown.height)\" loading=\"lazy\" decoding=\"async\" src=\"data:image/jpeg;base64,\(jpeg.base64EncodedString())\">"
        for o in outlines { h += Self.outline(o) }
        return h + "</div>"
    }

    private static func outline(_ o: Outline) -> String {
        func p(_ v: Float) -> String { String(format: "%.2f%%", 100 * min(1, max(0, v))) }
        let b = o.box
        let w = min(1, max(0, b.xMax)) - min(1, max(0, b.xMin)), h = min(1, max(0, b.yMax)) - min(1, max(0, b.yMin))
        return "<i class=\"box\(o.dashed ? " rel" : "")\" style=\"left:\(p(b.xMin));top:\(p(b.yMin));width:\(p(w));height:\(p(h));border-color:\(o.color)\""
            + (o.title.map { " title=\"\(HTML.escape($0))\"" } ?? "") + ">"
            + (o.label.map { "<b style=\"background:\(o.color)\">\(HTML.escape($0))</b>" } ?? "") + "</i>"
    }

    /// Styles of pictures and their outlines (solid: the subject; dashed: what it relates to).
    static let style = """
        .pic{position:relative;background:#eee;border:1px solid #ccc}.pic img{display:block}
        .pic .box{position:absolute;box-sizing:border-box;border:2px solid;box-shadow:0 0 0 1px #0008}
        .pic .box.rel{border:1.5px dashed;box-shadow:none;outline:1px dashed #0009}
        .pic .box b{position:absolute;left:-2px;top:-2px;font:bold 10px sans-serif;color:#fff;padding:0 2px}
        """
}
