import Foundation

/// Plain shapes as glyphs, drawn by the same rasteriser as the icon packages' glyphs: the frames
/// and strokes icon sets add around and across a glyph (a ring, a rounded-square outline, a slash).
extension VectorGlyph {
    /// A ring filling the square -1...1: a circle of radius 1 less one of radius `1 - thickness`.
    public static func ring(thickness: Double) -> VectorGlyph {
        VectorGlyph(contours: [roundedRect(half: 1, corner: 1), roundedRect(half: 1 - thickness, corner: 1)], evenOdd: true)
    }

    /// The outline of a square with rounded corners filling -1...1, `thickness` wide; `corner` is
    /// the outer corners' radius as a share of the half side.
    public static func squareFrame(thickness: Double, corner: Double) -> VectorGlyph {
        // The inner corners' radius is the outer's less the thickness, as the stroke of a pen would leave it.
        let inner = 1 - thickness
        return VectorGlyph(contours: [roundedRect(half: 1, corner: corner),
                                      roundedRect(half: inner, corner: max(0, corner - thickness) / inner)], evenOdd: true)
    }

    /// A bar `width` wide from `a` to `b` (square ends), in the square -1...1 with y down.
    public static func bar(from a: (x: Double, y: Double), to b: (x: Double, y: Double), width: Double) -> VectorGlyph {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length = max(1e-9, (dx * dx + dy * dy).squareRoot())
        let (nx, ny) = (-dy / length * width / 2, dx / length * width / 2)
        let corners = [(a.x + nx, a.y + ny), (b.x + nx, b.y + ny), (b.x - nx, b.y - ny), (a.x - nx, a.y - ny)]
        // The square's corners as invisible points keep every bar's extent the square's, so that the
        // rasteriser's fitting puts it where it was drawn rather than filling the mask with it.
        return VectorGlyph(contours: [corners.map { Point(x: $0.0, y: $0.1, kind: .on) }, pin(-1, -1), pin(1, 1)], evenOdd: false)
    }

    /// A degenerate contour at (x, y): no area, only extent.
    private static func pin(_ x: Double, _ y: Double) -> [Point] { [Point(x: x, y: y, kind: .on), Point(x: x, y: y, kind: .on)] }

    /// A square of half side `half` about the origin with corners of radius `corner * half` (a circle
    /// when `corner` is 1), drawn as an SVG `rect` is.
    static func roundedRect(half h: Double, corner: Double) -> [Point] {
        SVGGlyph.rectangle(x: -h, y: -h, width: 2 * h, height: 2 * h, rx: min(1, max(0, corner)) * h)
    }
}
