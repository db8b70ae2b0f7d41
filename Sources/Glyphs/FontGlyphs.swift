import CFreeType
import Foundation

/// The glyphs of an icon font by codepoint, as outlines in font units (y pointing down), read
/// once with FreeType without hinting or scaling.
enum FontGlyphs {
    static func read(font path: String, codepoints: [UInt32]) throws -> [UInt32: VectorGlyph] {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0 else { throw GlyphError(path: path, problem: "FreeType failed to start") }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Face(library, path, 0, &face) == 0, let face else { throw GlyphError(path: path, problem: "not a font FreeType can read") }
        defer { FT_Done_Face(face) }
        var out: [UInt32: VectorGlyph] = [:]
        for code in codepoints {
            let index = FT_Get_Char_Index(face, FT_ULong(code))
            // A name the style sheet lists but the font lacks (Material's `goat`) is left out.
            guard index != 0, FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_BITMAP)) == 0 else { continue }
            let outline = face.pointee.glyph.pointee.outline
            guard outline.n_points > 0 else { continue }
            var contours: [[VectorGlyph.Point]] = []
            var first = 0
            for c in 0..<Int(outline.n_contours) {
                let last = Int(outline.contours[c])
                contours.append((first...last).map { k in
                    let tag = UInt8(bitPattern: outline.tags[k]) & 3
                    return VectorGlyph.Point(x: Double(outline.points[k].x), y: -Double(outline.points[k].y),
                                             kind: VectorGlyph.Point.Kind(rawValue: tag) ?? .on)
                })
                first = last + 1
            }
            out[code] = VectorGlyph(contours: contours, evenOdd: (outline.flags & FT_OUTLINE_EVEN_ODD_FILL) != 0)
        }
        return out
    }
}
