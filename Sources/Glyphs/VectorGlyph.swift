/// A glyph as outlines: closed contours of on-curve points and conic or cubic control points
/// (FreeType's outline model), in the glyph's own units with y pointing down, and the fill rule.
/// Fonts and SVG files both come to this, so that one rasteriser draws them at any size and weight.
public struct VectorGlyph: Sendable {
    /// A point of a contour; `kind` says whether it lies on the curve or controls one.
    public struct Point: Sendable {
        public var x, y: Double
        public var kind: Kind
        public enum Kind: UInt8, Sendable {
            /// FreeType's tag values.
            case conic = 0, on = 1, cubic = 2
        }
    }

    public var contours: [[Point]]
    /// SVG's `fill-rule="evenodd"`; otherwise non-zero winding, as fonts fill.
    public var evenOdd: Bool

    /// The extent of the points (control points included: a box that holds the drawing).
    public var bounds: (xMin: Double, yMin: Double, xMax: Double, yMax: Double)? {
        var b: (Double, Double, Double, Double)?
        for c in contours {
            for p in c {
                b = b.map { (min($0.0, p.x), min($0.1, p.y), max($0.2, p.x), max($0.3, p.y)) } ?? (p.x, p.y, p.x, p.y)
            }
        }
        return b
    }

    public var isEmpty: Bool { contours.allSatisfy(\.isEmpty) }
}

extension VectorGlyph {
    /// The drawing of an SVG icon file's text; `path` names it in errors.
    public init(svg text: String, path: String) throws { self = try SVGGlyph.parse(text, path: path) }
}
