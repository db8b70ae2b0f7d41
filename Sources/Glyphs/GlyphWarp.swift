/// A smooth bend of a glyph's drawing: offsets at the nodes of a 3 x 3 grid laid over the glyph's
/// square extent, bilinear between them, applied to every outline point before the rasteriser's
/// affine distortions. Why: icon families draw one idea with different proportions (a rounder
/// bubble, a wider shackle, a longer handle); a classifier that saw only four families' proportions
/// must see them bent to learn the idea rather than the drawing.
public struct GlyphWarp: Sendable, Equatable {
    /// The nodes' offsets, row-major from the top-left, as shares of the glyph's extent.
    public var dx: [Double], dy: [Double]

    public init(dx: [Double], dy: [Double]) {
        precondition(dx.count == 9 && dy.count == 9, "a warp has 3 x 3 nodes")
        (self.dx, self.dy) = (dx, dy)
    }

    /// The offset at (u, v), each 0...1 across the extent (v down), as shares of the extent.
    public func offset(u: Double, v: Double) -> (x: Double, y: Double) {
        let (gu, gv) = (min(max(u, 0), 1) * 2, min(max(v, 0), 1) * 2)
        let (i, j) = (min(Int(gu), 1), min(Int(gv), 1))
        let (fu, fv) = (gu - Double(i), gv - Double(j))
        func at(_ values: [Double]) -> Double {
            let top = values[j * 3 + i] * (1 - fu) + values[j * 3 + i + 1] * fu
            let bottom = values[(j + 1) * 3 + i] * (1 - fu) + values[(j + 1) * 3 + i + 1] * fu
            return top * (1 - fv) + bottom * fv
        }
        return (at(dx), at(dy))
    }
}
