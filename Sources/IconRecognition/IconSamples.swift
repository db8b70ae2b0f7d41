import Boxes
import Foundation
import Glyphs
import IconVocabulary
import Images
import SeededRandom

/// Icon crops drawn from glyphs as apps show them, for training and validating the classifier
/// (icon-recognition.md, "Training icons"): every glyph a type's, or `other`'s; styled with any
/// tint on light, dark, tinted, gradient and photo-like backgrounds, thin to bold, 12 to 64
/// pixels, alone or in a circle or rounded square; then cut as a detector's box would cut it
/// (off-centre, loose or tight, with a margin of up to half its side and pieces of neighbours at
/// the edge) and degraded (low resolution, blur, JPEG). Sample `i` depends only on (seed, i).
public struct IconSamples: Sendable {
    /// How strongly samples vary; the defaults are what the shipped classifier trains with.
    public struct Options: Codable, Equatable, Sendable {
        /// Icon sides in screen pixels, drawn log-uniformly.
        public var minSide: Float = 12
        public var maxSide: Float = 64
        /// The share of samples whose type is `other` (the rest spread evenly over the 52 types).
        public var otherShare: Double = 0.2
        /// Chances of a circle or rounded square behind the glyph, of a neighbour at the crop's edge,
        /// of a photo-like background, of low resolution, blur and JPEG.
        public var container = 0.3
        public var neighbour = 0.3
        public var photo = 0.15
        public var lowResolution = 0.25
        public var blur = 0.2
        public var jpeg = 0.3
        /// Chance that a filled glyph is drawn as its outline (line-art icon sets draw the shapes
        /// others fill), and the largest distortion of a glyph: stretch, slant and turn.
        public var outline = 0.3
        public var distortion: Float = 0.12
        /// The largest bend of a glyph's drawing (`GlyphWarp`), as a share of its extent.
        public var warp: Float = 0.08
        /// Chance of a ring or rounded-square outline around the glyph (where no container is drawn):
        /// the circled and squared variants, which count as the glyph's type.
        public var frame = 0.15
        /// Chance that an `other` glyph is crossed out by a slash: still none of ours (a crossed-out
        /// type means something else, and its glyphs are left out of training).
        public var slash = 0.25
        /// The largest margin around the box, as a share of its longer side.
        public var maxMargin: Float = 0.5
        /// How far the box may be off the icon: centre shift and size change, as shares of its side.
        public var boxShift: Float = 0.12
        public var boxScale: ClosedRange<Float> = 0.85...1.25

        public init() {}

        enum CodingKeys: String, CodingKey {
            case minSide = "min_side", maxSide = "max_side", otherShare = "other_share", container, neighbour, photo
            case lowResolution = "low_resolution", blur, jpeg, outline, distortion, warp, frame, slash, maxMargin = "max_margin", boxShift = "box_shift", boxScale = "box_scale"
        }

        /// Impossible values, by key.
        public func problems() -> [(key: String, problem: String)] {
            var out: [(String, String)] = []
            if !(minSide >= 4 && maxSide >= minSide) { out.append(("min_side", "must be at least 4 and at most max_side")) }
            for (key, p) in [("other_share", otherShare), ("container", container), ("neighbour", neighbour), ("photo", photo),
                             ("low_resolution", lowResolution), ("blur", blur), ("jpeg", jpeg), ("outline", outline), ("frame", frame), ("slash", slash)] where !(0...1).contains(p) {
                out.append((key, "must lie in [0, 1], got \(p)"))
            }
            if !(0...1).contains(maxMargin) { out.append(("max_margin", "must lie in [0, 1]")) }
            if !(0...0.5).contains(distortion) { out.append(("distortion", "must lie in [0, 0.5]")) }
            if !(0...0.3).contains(warp) { out.append(("warp", "must lie in [0, 0.3]")) }
            if !(0...0.5).contains(boxShift) { out.append(("box_shift", "must lie in [0, 0.5]")) }
            if !(boxScale.lowerBound > 0.3 && boxScale.upperBound < 3) { out.append(("box_scale", "must lie within (0.3, 3)")) }
            return out
        }
    }

    public let catalog: GlyphCatalog
    /// The glyphs samples may show, by type (indices into `catalog.glyphs`).
    public let pools: [[Int]]
    /// Glyphs for neighbours: any of the catalog's.
    let all: [Int]
    public let seed: UInt64
    public let options: Options

    /// Samples of the glyphs `included` says yes to.
    public init(catalog: GlyphCatalog, seed: UInt64, options: Options = Options(), including included: (Glyph) -> Bool) {
        self.catalog = catalog
        self.seed = seed
        self.options = options
        let pools = catalog.byType.map { $0.filter { included(catalog.glyphs[$0]) } }
        self.pools = pools
        namedTypes = IconVocabulary.types.filter { !$0.isOther && !pools[$0.index].isEmpty }
        all = Array(catalog.glyphs.indices)
    }

    /// Types with at least one glyph to draw.
    public var typesWithGlyphs: [IconType] { IconVocabulary.types.filter { !pools[$0.index].isEmpty } }
    /// The types other than `other` with glyphs to draw: what a sample that is not `other` picks from.
    public let namedTypes: [IconType]

    /// One sample: the crop, its type and the glyph drawn.
    public struct Sample {
        public var crop: RGBImage
        public var type: IconType
        public var glyph: Int
    }

    public func sample(_ index: Int, rasterizer: GlyphRasterizer) -> Sample {
        var g = SeededGenerator(seed: seed, index: UInt64(index))
        let o = options
        let other = IconVocabulary.other
        let type = !pools[other.index].isEmpty && g.chance(o.otherShare) ? other : g.pick(namedTypes)
        let glyphIndex = g.pick(pools[type.index])
        let glyph = catalog.glyphs[glyphIndex]

        // The icon's box, in screen pixels, and a canvas with room for any margin and shift around it.
        let side = expf(g.uniform(logf(o.minSide)...logf(o.maxSide)))
        let room = side * (1 + 2 * o.maxMargin + 2 * o.boxShift) + 4
        let size = Int(room.rounded(.up)) + 2
        let centre = Float(size) / 2
        let iconBox = Box(xMin: centre - side / 2, yMin: centre - side / 2, xMax: centre + side / 2, yMax: centre + side / 2)
        let (backdrop, light) = background(&g)
        var canvas = RGBImage(size: Size(width: size, height: size), fill: backdrop)
        if g.chance(o.photo) { paintPhoto(&canvas, &g) } else if g.chance(0.25) { paintGradient(&canvas, from: backdrop, &g) }
        let surface = canvas.pixel(x: size / 2, y: size / 2)
        var ink = inkColour(on: surface, light: light, &g)
        var glyphBox = iconBox
        var behind = surface
        if g.chance(o.container) {
            // A circle or rounded square behind the glyph, as FABs, avatars of actions and iOS settings rows draw them.
            let fill = g.chance(0.5) ? RGB(hue: g.uniform(0...1), saturation: g.uniform(0.3...0.9), value: g.uniform(0.3...0.95)) : ink
            if g.chance(0.5) { canvas.fillCircle(centerX: centre, centerY: centre, radius: side / 2, color: fill) }
            else { canvas.fillRounded(iconBox, radius: side * g.uniform(0.12...0.3), color: fill) }
            ink = inkColour(on: fill, light: fill.luminance > 0.55, &g)
            behind = fill
            let inner = side * g.uniform(0.45...0.65)
            glyphBox = Box(xMin: centre - inner / 2, yMin: centre - inner / 2, xMax: centre + inner / 2, yMax: centre + inner / 2)
        } else if g.chance(o.frame) {
            let thickness = Double(g.uniform(0.06...0.12))
            let frame = g.chance(0.5) ? VectorGlyph.ring(thickness: thickness) : .squareFrame(thickness: thickness, corner: Double(g.uniform(0.2...0.5)))
            draw(frame, in: iconBox, colour: ink, shape: Shape(fill: 1), on: &canvas, rasterizer)
            let inner = side * g.uniform(0.45...0.6)
            glyphBox = Box(xMin: centre - inner / 2, yMin: centre - inner / 2, xMax: centre + inner / 2, yMax: centre + inner / 2)
        }
        let weight = Double(g.uniform(-0.35...1.0)) * Double(glyphBox.width) / 24
        let d = o.distortion
        // Shapes whose meaning does not hang on which way they face are drawn turned and mirrored as
        // icon sets draw them (a paper clip at any slant, a magnifier's handle left or right).
        let turn = Self.turnable.contains(type.name) ? Float.pi / 5 : d * 0.6
        let shape = Shape(fill: Double(g.uniform(0.75...1)), weight: weight, aspect: Double(expf(g.uniform(-d...d))), shear: Double(g.uniform(-d...d)),
                          rotation: Double(g.uniform(-turn...turn)), mirrored: !Self.facing.contains(type.name) && g.chance(0.5), outline: g.chance(o.outline),
                          warp: o.warp > 0 ? GlyphWarp(dx: (0..<9).map { _ in Double(g.uniform(-o.warp...o.warp)) },
                                                       dy: (0..<9).map { _ in Double(g.uniform(-o.warp...o.warp)) }) : nil)
        draw(glyph.outline, in: glyphBox, colour: ink, shape: shape, on: &canvas, rasterizer)
        if type.isOther && g.chance(o.slash) {
            // As icon sets cross a glyph out: a gap in the background's colour either side of the stroke.
            let x: Double = g.chance(0.5) ? 0.85 : -0.85
            let width = Double(g.uniform(0.08...0.14))
            for (colour, w) in [(behind, width * 2.5), (ink, width)] {
                draw(.bar(from: (x: -x, y: -0.85), to: (x: x, y: 0.85), width: w), in: glyphBox, colour: colour, shape: Shape(fill: 1), on: &canvas, rasterizer)
            }
        }
        if g.chance(o.neighbour) { drawNeighbour(&canvas, around: iconBox, colour: inkColour(on: surface, light: light, &g), &g, rasterizer) }

        // The box a detector would give: off-centre, looser or tighter, then the crop with its margin.
        let s = side * g.uniform(o.boxScale)
        let (dx, dy) = (g.uniform(-o.boxShift...o.boxShift) * side, g.uniform(-o.boxShift...o.boxShift) * side)
        let aspect = g.uniform(0.9...1.1)
        let box = Box(xMin: centre + dx - s * aspect / 2, yMin: centre + dy - s / aspect / 2, xMax: centre + dx + s * aspect / 2, yMax: centre + dy + s / aspect / 2)
        var crop = IconInput.crop(canvas, box: box, margin: g.uniform(0...o.maxMargin))
        crop = degrade(crop, &g)
        return Sample(crop: crop, type: type, glyph: glyphIndex)
    }

    // MARK: drawing

    /// Types whose meaning turns on the way they face: never mirrored (back is not forward, and a
    /// mirrored question mark or refresh arrow means something else).
    static let facing: Set<String> = ["back", "forward", "next", "previous", "play", "send", "help", "refresh", "done", "info", "share"]
    /// Types drawn at any slant by one icon set or another.
    static let turnable: Set<String> = ["attach", "edit", "search", "settings", "phone", "microphone", "bookmark", "lock", "notifications", "location"]

    /// How a glyph is drawn: its size in its box, stroke weight, distortion, and whether as its outline.
    struct Shape {
        var fill = 0.92, weight = 0.0, aspect = 1.0, shear = 0.0, rotation = 0.0
        var mirrored = false
        var outline = false
        var warp: GlyphWarp? = nil
    }

    func draw(_ outline: VectorGlyph, in box: Box, colour: RGB, shape: Shape = Shape(), on canvas: inout RGBImage, _ rasterizer: GlyphRasterizer) {
        let side = max(2, Int(box.width.rounded()))
        var mask = rasterizer.mask(outline, side: side, fill: shape.fill, weight: shape.weight, aspect: shape.aspect, shear: shape.shear,
                                   rotation: shape.rotation, mirrored: shape.mirrored, warp: shape.warp)
        if shape.outline { mask = mask.outlined(depth: max(1, side / 14)) }
        let (x0, y0) = (Int(box.xMin.rounded()), Int(box.yMin.rounded()))
        for y in 0..<side where y0 + y >= 0 && y0 + y < canvas.height {
            for x in 0..<side where x0 + x >= 0 && x0 + x < canvas.width {
                let a = mask[x: x, y: y]
                if a > 0 { canvas.blend(x: x0 + x, y: y0 + y, color: colour, alpha: Float(a) / 255) }
            }
        }
    }

    /// A plain background: light or dark, now and then tinted. Returns it and whether it is light.
    func background(_ g: inout SeededGenerator) -> (RGB, Bool) {
        let r = g.nextUnitDouble()
        if r < 0.45 { let v = UInt8(g.int(225...255)); return (RGB(v, v, UInt8(max(200, Int(v) - g.int(0...8)))), true) }
        if r < 0.75 { let v = UInt8(g.int(0...45)); return (RGB(v, v, UInt8(min(255, Int(v) + g.int(0...10)))), false) }
        let c = RGB(hue: g.uniform(0...1), saturation: g.uniform(0.2...0.9), value: g.uniform(0.25...1))
        return (c, c.luminance > 0.55)
    }

    /// A glyph colour that reads on `surface`: dark or a deep tint on light, light or a pale tint on dark.
    func inkColour(on surface: RGB, light: Bool, _ g: inout SeededGenerator) -> RGB {
        for _ in 0..<8 {
            let c: RGB
            if g.chance(0.55) {
                let v = UInt8(light ? g.int(0...90) : g.int(190...255))
                c = RGB(v, v, v)
            } else {
                c = RGB(hue: g.uniform(0...1), saturation: g.uniform(0.4...1), value: light ? g.uniform(0.35...0.8) : g.uniform(0.75...1))
            }
            let contrast = max(abs(Int(c.r) - Int(surface.r)), abs(Int(c.g) - Int(surface.g)), abs(Int(c.b) - Int(surface.b)))
            if contrast >= 70 { return c }
        }
        return surface.luminance > 0.5 ? RGB(20, 20, 20) : RGB(245, 245, 245)
    }

    func paintGradient(_ canvas: inout RGBImage, from a: RGB, _ g: inout SeededGenerator) {
        let b = a.mixed(with: g.chance(0.5) ? RGB(0, 0, 0) : RGB(255, 255, 255), g.uniform(0.1...0.4))
        let vertical = g.chance(0.5)
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let t = Float(vertical ? y : x) / Float(max(1, (vertical ? canvas.height : canvas.width) - 1))
                canvas.blend(x: x, y: y, color: b, alpha: t)
            }
        }
    }

    /// Soft blobs of colour: a photograph's busy background at icon scale.
    func paintPhoto(_ canvas: inout RGBImage, _ g: inout SeededGenerator) {
        let base = RGB(hue: g.uniform(0...1), saturation: g.uniform(0.1...0.7), value: g.uniform(0.2...0.9))
        canvas = RGBImage(size: canvas.size, fill: base)
        for _ in 0..<g.int(4...10) {
            let r = Float(canvas.width) * g.uniform(0.1...0.5)
            let c = RGB(hue: g.uniform(0...1), saturation: g.uniform(0.1...0.8), value: g.uniform(0.15...1))
            canvas.fillCircle(centerX: g.uniform(0...Float(canvas.width)), centerY: g.uniform(0...Float(canvas.height)), radius: r, color: c, alpha: g.uniform(0.3...0.8))
        }
    }

    /// Another icon or a line of "text" just outside the box, so that part of it shows at the crop's edge.
    func drawNeighbour(_ canvas: inout RGBImage, around box: Box, colour: RGB, _ g: inout SeededGenerator, _ rasterizer: GlyphRasterizer) {
        let s = box.width
        let gap = s * g.uniform(0.25...0.8)
        let side = g.int(0...3)
        let (dx, dy): (Float, Float) = side == 0 ? (s + gap, 0) : side == 1 ? (-(s + gap), 0) : side == 2 ? (0, s + gap) : (0, -(s + gap))
        let other = box.offset(dx: dx, dy: dy)
        if g.chance(0.5) {
            draw(catalog.glyphs[g.pick(all)].outline, in: other, colour: colour, on: &canvas, rasterizer)
        } else {
            // Text as bars of word-like length at x-height.
            let h = s * g.uniform(0.25...0.45)
            var x = side == 0 ? other.xMin : side == 1 ? other.xMax - s * 3 : box.xMin - s
            let y = other.centerY - h / 2
            for _ in 0..<g.int(2...5) {
                let w = s * g.uniform(0.3...1.2)
                canvas.fillRounded(Box(xMin: x, yMin: y, xMax: x + w, yMax: y + h), radius: h * 0.3, color: colour)
                x += w + s * 0.25
            }
        }
    }

    /// Screenshots as they reach us: some at low resolution, some soft, some JPEG-compressed.
    func degrade(_ crop: RGBImage, _ g: inout SeededGenerator) -> RGBImage {
        var out = crop
        guard out.width >= 4, out.height >= 4 else { return out }
        if g.chance(options.lowResolution) {
            let f = g.uniform(0.4...0.75)
            let small = Size(width: max(2, Int(Float(out.width) * f)), height: max(2, Int(Float(out.height) * f)))
            out = out.resized(to: small).resized(to: out.size)
        }
        if g.chance(options.blur) { out = out.boxBlurred() }
        if g.chance(options.jpeg), let data = try? ImageCodec.encodeJPEG(out, quality: g.int(30...90)),
           let decoded = try? ImageCodec.decode(data, path: "<memory>") {
            out = decoded
        }
        return out
    }
}

extension RGBImage {
    /// Each pixel the mean of its 3 x 3 neighbourhood (edges clamped): a slight softening.
    func boxBlurred() -> RGBImage {
        var out = self
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let yy = Swift.min(height - 1, Swift.max(0, y + dy)), xx = Swift.min(width - 1, Swift.max(0, x + dx))
                            sum += Int(pixels[(yy * width + xx) * 3 + c])
                        }
                    }
                    out.pixels[(y * width + x) * 3 + c] = UInt8((sum + 4) / 9)
                }
            }
        }
        return out
    }
}

extension GlyphRasterizer.Mask {
    /// The mask's edge `depth` pixels deep: the mask less its erosion (a 3 x 3 minimum, `depth`
    /// times), so that a filled shape becomes the line drawing of its outline.
    func outlined(depth: Int) -> GlyphRasterizer.Mask {
        var eroded = coverage
        var next = coverage
        for _ in 0..<depth {
            for y in 0..<height {
                for x in 0..<self.width {
                    var m: UInt8 = 255
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let (xx, yy) = (x + dx, y + dy)
                            m = Swift.min(m, xx < 0 || yy < 0 || xx >= self.width || yy >= height ? 0 : eroded[yy * self.width + xx])
                        }
                    }
                    next[y * self.width + x] = m
                }
            }
            swap(&eroded, &next)
        }
        var out = self
        for i in coverage.indices { out.coverage[i] = coverage[i] > eroded[i] ? coverage[i] - eroded[i] : 0 }
        return out
    }
}
