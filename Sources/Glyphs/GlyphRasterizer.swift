import CFreeType
import Foundation

/// Draws `VectorGlyph`s as anti-aliased coverage masks with FreeType's rasteriser, at any size and
/// stroke weight (FreeType's emboldening grows or thins every stroke). Holds a FreeType library:
/// not thread-safe, give each thread its own.
// Unchecked: each rasteriser is used by one thread at a time (its owner), which FreeType requires anyway.
public final class GlyphRasterizer: @unchecked Sendable {
    private var library: FT_Library?

    public init() throws {
        guard FT_Init_FreeType(&library) == 0 else { throw GlyphError(path: "FreeType", problem: "failed to start") }
    }

    deinit { if let library { FT_Done_FreeType(library) } }

    /// An 8-bit coverage mask, row-major, `size.width` x `size.height`.
    public struct Mask: Sendable {
        public var width, height: Int
        public var coverage: [UInt8]
        public subscript(x x: Int, y y: Int) -> UInt8 { coverage[y * width + x] }
    }

    /// `glyph` fitted (aspect kept) into a `side` x `side` square, its longer extent `fill` of the
    /// side, centred; `weight` in pixels grows (positive) or thins (negative) every stroke;
    /// `aspect` stretches it wider (above 1) or taller, `shear` slants it, and `rotation`
    /// (radians) turns it about its centre, in that order, after `mirrored` flips it left to right:
    /// the distortions by which one icon set's drawing of a shape differs from another's; `warp`
    /// bends the drawing before all of them.
    public func mask(_ glyph: VectorGlyph, side: Int, fill: Double = 1, weight: Double = 0, aspect: Double = 1, shear: Double = 0,
                     rotation: Double = 0, mirrored: Bool = false, warp: GlyphWarp? = nil) -> Mask {
        var mask = Mask(width: side, height: side, coverage: [UInt8](repeating: 0, count: side * side))
        guard side > 0, let b = glyph.bounds else { return mask }
        let extent = max(b.xMax - b.xMin, b.yMax - b.yMin)
        guard extent > 0 else { return mask }
        let scale = Double(side) * fill / extent
        let (cx, cy) = ((b.xMin + b.xMax) / 2, (b.yMin + b.yMax) / 2)
        let (c, s) = (cos(rotation), sin(rotation))
        var points: [FT_Vector] = [], tags: [CChar] = [], ends: [Int16] = []
        for contour in glyph.contours where !contour.isEmpty {
            for p in contour {
                var (px, py) = (p.x, p.y)
                if let warp {
                    let d = warp.offset(u: (px - cx) / extent + 0.5, v: (py - cy) / extent + 0.5)
                    (px, py) = (px + d.x * extent, py + d.y * extent)
                }
                let (sx, sy) = ((px - cx) * scale * aspect * (mirrored ? -1 : 1), (py - cy) * scale / aspect)
                let (dx, dy) = (sx + shear * sy, sy)
                let (rx, ry) = (c * dx - s * dy, s * dx + c * dy)
                // FreeType's y points up, from the mask's bottom edge; 26.6 fixed point.
                points.append(FT_Vector(x: FT_Pos(((Double(side) / 2 + rx) * 64).rounded()), y: FT_Pos(((Double(side) / 2 - ry) * 64).rounded())))
                tags.append(CChar(bitPattern: p.kind.rawValue))
            }
            ends.append(Int16(points.count - 1))
        }
        guard points.count < Int(Int16.max) else { return mask }
        points.withUnsafeMutableBufferPointer { pts in
            tags.withUnsafeMutableBufferPointer { tg in
                ends.withUnsafeMutableBufferPointer { en in
                    var outline = FT_Outline(n_contours: Int16(en.count), n_points: Int16(pts.count), points: pts.baseAddress, tags: tg.baseAddress,
                                             contours: en.baseAddress, flags: glyph.evenOdd ? FT_OUTLINE_EVEN_ODD_FILL : 0)
                    if weight != 0 { FT_Outline_Embolden(&outline, FT_Pos((weight * 64).rounded())) }
                    mask.coverage.withUnsafeMutableBufferPointer { buffer in
                        var bitmap = FT_Bitmap()
                        bitmap.rows = UInt32(side)
                        bitmap.width = UInt32(side)
                        bitmap.pitch = Int32(side)
                        bitmap.buffer = buffer.baseAddress
                        bitmap.num_grays = 256
                        bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                        _ = FT_Outline_Get_Bitmap(library, &outline, &bitmap)
                    }
                }
            }
        }
        // FreeType's bitmap rows run from the top: row 0 is y = side, matching the mask's layout.
        return mask
    }
}
