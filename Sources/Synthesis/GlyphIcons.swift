import Boxes
import Foundation
import Glyphs
import IconVocabulary
import Images
import SeededRandom

/// How an app's icons look when they are glyphs of an icon package: its family (each app keeps
/// one, as real apps do), stroke weight, and the seed that picks, once per type, the glyph it uses.
struct GlyphLook {
    /// nil: the app draws its icons by hand (`IconShape.draw`), line art of our own.
    let family: GlyphFamily?
    /// Pixels added to (or taken from) every stroke per 24 pixels of icon: thin and bold icon sets.
    let weight: Double
    let seed: UInt64

    init(app: Int, seed: UInt64) {
        // A generator of its own: the app's other looks stay as they were before glyphs came.
        var g = SeededGenerator(seed: seed ^ 0x61F, index: UInt64(app))
        let r = g.nextUnitDouble()
        family = r < 0.12 ? nil : r < 0.42 ? .material : r < 0.55 ? .fontAwesome : r < 0.68 ? .forkAwesome : .bootstrap
        weight = g.chance(0.6) ? 0 : Double(g.uniform(-0.5...0.9)).rounded(toPlaces: 2)
        self.seed = g.next()
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let f = pow(10, Double(places))
        return (self * f).rounded() / f
    }
}

/// The synthesizer's glyphs: the catalog, read once per process and shared, and a rasteriser of
/// its own (FreeType is not thread-safe; each synthesizer runs on one thread).
final class GlyphPainter {
    static let shared: Result<GlyphCatalog, Error> = Result { try GlyphCatalog() }

    let catalog: GlyphCatalog
    let rasterizer: GlyphRasterizer

    init() throws {
        catalog = try Self.shared.get()
        rasterizer = try GlyphRasterizer()
    }

    /// Whether a glyph is the outlined variant of its shape, by its names' conventions.
    static func isOutline(_ glyph: Glyph) -> Bool {
        let name = glyph.names[0]
        switch glyph.family {
        case .material: return name.contains("outline") || name.contains("border")
        case .fontAwesome, .forkAwesome: return name.hasSuffix("-o") || name.contains("-o-")
        case .bootstrap: return !name.contains("fill")
        }
    }

    /// The glyph an app of `look` draws for `type`, outlined or filled as asked where its family has
    /// both: the same on every screen of the app. Another family's when the app's has none.
    func glyph(for type: IconType, look: GlyphLook, outline: Bool) -> Glyph? {
        var candidates = catalog.glyphs(of: type, family: look.family)
        if candidates.isEmpty { candidates = catalog.glyphs(of: type) }
        let styled = candidates.filter { Self.isOutline($0) == outline }
        if !styled.isEmpty { candidates = styled }
        guard !candidates.isEmpty else { return nil }
        var g = SeededGenerator(seed: look.seed, index: UInt64(type.index * 2 + (outline ? 1 : 0)))
        return candidates[Int(g.next() % UInt64(candidates.count))]
    }

    /// Draws `glyph` into the square `box` in `color`, its strokes `weight` pixels per 24 heavier.
    func draw(_ glyph: Glyph, into image: inout RGBImage, box: Box, color: RGB, weight: Double) {
        let side = max(1, Int(box.width.rounded()))
        let mask = rasterizer.mask(glyph.outline, side: side, fill: 0.92, weight: weight * Double(side) / 24)
        let x0 = Int(box.xMin.rounded()), y0 = Int(box.yMin.rounded())
        for y in 0..<side where y0 + y >= 0 && y0 + y < image.height {
            for x in 0..<side where x0 + x >= 0 && x0 + x < image.width {
                let a = mask[x: x, y: y]
                if a > 0 { image.blend(x: x0 + x, y: y0 + y, color: color, alpha: Float(a) / 255) }
            }
        }
    }
}
