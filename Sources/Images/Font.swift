import Boxes
import CFreeType
import Foundation

/// A TrueType font rendered with FreeType, with a cache of rendered glyphs.
///
/// Not thread-safe (FreeType faces are not); give each thread its own.
public final class Font {
    /// One rendered glyph: an 8-bit coverage bitmap and its placement.
    struct Glyph {
        let width, rows, left, top, advance: Int
        let coverage: [UInt8]
    }

    private var library: FT_Library?
    private var face: FT_Face?
    private var cache: [Int: Glyph] = [:]
    public let path: String

    /// The fonts the project draws with (Debian's fonts-dejavu-core).
    public static let regularPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    public static let boldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// Loads the font at `path`.
    public init(path: String = Font.regularPath) throws {
        self.path = path
        guard FT_Init_FreeType(&library) == 0 else { throw FontError.cannotLoad(path: path, reason: "FreeType failed to start") }
        guard FileManager.default.fileExists(atPath: path) else {
            throw FontError.cannotLoad(path: path, reason: "no such file; scripts/setup.sh installs Debian's fonts-dejavu-core")
        }
        guard FT_New_Face(library, path, 0, &face) == 0 else { throw FontError.cannotLoad(path: path, reason: "not a font FreeType can read") }
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    func glyph(_ scalar: Unicode.Scalar, pixelSize: Int) -> Glyph {
        let key = Int(scalar.value) << 8 | min(pixelSize, 255)
        if let g = cache[key] { return g }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        var g = Glyph(width: 0, rows: 0, left: 0, top: 0, advance: pixelSize / 3, coverage: [])
        if FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER)) == 0, let slot = face?.pointee.glyph {
            let bitmap = slot.pointee.bitmap
            let (w, rows, pitch) = (Int(bitmap.width), Int(bitmap.rows), Int(bitmap.pitch))
            var coverage = [UInt8](repeating: 0, count: w * rows)
            if let buffer = bitmap.buffer {
                for y in 0..<rows { for x in 0..<w { coverage[y * w + x] = buffer[y * pitch + x] } }
            }
            g = Glyph(width: w, rows: rows, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                      advance: Int(slot.pointee.advance.x + 32) >> 6, coverage: coverage)
        }
        cache[key] = g
        return g
    }

    /// Advance width of `text` at `pixelSize`, in pixels.
    public func width(of text: String, pixelSize: Int) -> Int {
        text.unicodeScalars.reduce(0) { $0 + glyph($1, pixelSize: pixelSize).advance }
    }
}

/// Why a font could not be used.
public enum FontError: Error, CustomStringConvertible {
    case cannotLoad(path: String, reason: String)
    public var description: String {
        switch self { case .cannotLoad(let path, let reason): return "font \(path): \(reason)" }
    }
}

extension RGBImage {
    /// Draws `text` with its baseline at `baseline` starting at `x`; returns the box
    /// around the ink actually drawn (nil if nothing was drawn, e.g. only spaces).
    @discardableResult
    public mutating func draw(text: String, x: Int, baseline: Int, font: Font, pixelSize: Int, color: RGB) -> Box? {
        var penX = x
        var ink: (Int, Int, Int, Int)? = nil
        for scalar in text.unicodeScalars {
            let g = font.glyph(scalar, pixelSize: pixelSize)
            let gx = penX + g.left, gy = baseline - g.top
            for row in 0..<g.rows {
                let y = gy + row
                guard y >= 0, y < height else { continue }
                for col in 0..<g.width {
                    let a = g.coverage[row * g.width + col]
                    let px = gx + col
                    guard a > 0, px >= 0, px < width else { continue }
                    blend(x: px, y: y, color: color, alpha: Float(a) / 255)
                    ink = ink.map { (min($0.0, px), min($0.1, y), max($0.2, px + 1), max($0.3, y + 1)) } ?? (px, y, px + 1, y + 1)
                }
            }
            penX += g.advance
        }
        return ink.map { Box(xMin: Float($0.0), yMin: Float($0.1), xMax: Float($0.2), yMax: Float($0.3)) }
    }
}
