import Foundation
import Glyphs
import IconVocabulary
import XCTest

final class GlyphTests: XCTestCase {
    /// Read once: every test looks at the same installed packages.
    static let catalog = try? GlyphCatalog()

    func catalog() throws -> GlyphCatalog { try XCTUnwrap(Self.catalog, "the four icon packages are installed by scripts/setup.sh") }

    func testEveryListedNameIsAGlyphOfItsPackage() throws {
        let catalog = try catalog()
        for family in GlyphFamily.allCases {
            let names = Set(catalog.glyphs.filter { $0.family == family }.flatMap(\.names))
            // Material's `goat` is named by its style sheet but drawn by no glyph of the font.
            let missing = GlyphTypes.shipped.listedNames(in: family).filter { !names.contains($0) && $0 != "goat" }
            XCTAssertEqual(missing, [], "\(family.rawValue): listed names without a glyph")
        }
    }

    func testEveryTypeHasGlyphsAndAliasesShareTheirGlyphsType() throws {
        let catalog = try catalog()
        for type in IconVocabulary.types {
            XCTAssertGreaterThanOrEqual(catalog.glyphs(of: type).count, 3, "\(type.name)")
        }
        // Font Awesome's `times`, `close` and `remove` are one glyph: the mapping names one, the others follow it.
        let times = try XCTUnwrap(catalog.glyphs.first { $0.family == .fontAwesome && $0.names.contains("times") })
        XCTAssertTrue(times.names.contains("close") && times.names.contains("remove"), "\(times.names)")
        XCTAssertEqual(times.assignment, .type(IconVocabulary.type(named: "close")!))
        XCTAssertGreaterThan(catalog.glyphs(of: IconVocabulary.other).count, 1000)
    }

    func testPathDataDrawsTheAreasItDescribes() throws {
        let raster = try GlyphRasterizer()
        // A 12 x 12 square filling a 48-pixel mask: all ink, and a ring (even-odd) leaves its hole.
        let square = try XCTUnwrap(try? SVGTest.glyph(#"<path d="M2 2h12v12H2z"/>"#))
        let full = raster.mask(square, side: 48)
        XCTAssertEqual(full.coverage.reduce(0) { $0 + Int($1) }, 48 * 48 * 255, accuracy: 48 * 255)
        // A circle drawn with two arcs covers pi r^2.
        let circle = try SVGTest.glyph(#"<path d="M8 0a8 8 0 1 1 0 16A8 8 0 0 1 8 0z"/>"#)
        let disc = raster.mask(circle, side: 64)
        let area = Double(disc.coverage.reduce(0) { $0 + Int($1) }) / 255
        XCTAssertEqual(area, Double.pi * 32 * 32, accuracy: 0.01 * Double.pi * 32 * 32)
        let ring = try SVGTest.glyph(#"<path fill-rule="evenodd" d="M0 0h16v16H0zm4 4v8h8V4z"/>"#)
        let r = raster.mask(ring, side: 32)
        XCTAssertEqual(r[x: 16, y: 16], 0, "the hole")
        XCTAssertEqual(r[x: 2, y: 16], 255, "the frame")
        // Bolder strokes put down more ink, thinner less.
        let bold = raster.mask(ring, side: 32, fill: 0.8, weight: 1.5), thin = raster.mask(ring, side: 32, fill: 0.8, weight: -1)
        let plain = raster.mask(ring, side: 32, fill: 0.8)
        func ink(_ m: GlyphRasterizer.Mask) -> Int { m.coverage.reduce(0) { $0 + Int($1) } }
        XCTAssertGreaterThan(ink(bold), ink(plain))
        XCTAssertLessThan(ink(thin), ink(plain))
    }

    func testAWarpBendsTheDrawingAndNoWarpLeavesIt() throws {
        let raster = try GlyphRasterizer()
        let square = try SVGTest.glyph(#"<path d="M4 4h8v8H4z"/>"#)
        let plain = raster.mask(square, side: 32, fill: 0.5)
        let still = GlyphWarp(dx: Array(repeating: 0, count: 9), dy: Array(repeating: 0, count: 9))
        XCTAssertEqual(raster.mask(square, side: 32, fill: 0.5, warp: still).coverage, plain.coverage)
        // Every node 0.25 of the extent to the right: the square (8 of 16 wide at fill 0.5) moves 4 pixels right.
        let right = raster.mask(square, side: 32, fill: 0.5, warp: GlyphWarp(dx: Array(repeating: 0.25, count: 9), dy: Array(repeating: 0, count: 9)))
        XCTAssertEqual(plain[x: 8, y: 16], 255)
        XCTAssertEqual(right[x: 8, y: 16], 0)
        XCTAssertEqual(right[x: 25, y: 16], 255)
        XCTAssertEqual(plain[x: 25, y: 16], 0)
        // Between nodes the offset is bilinear: the top-right node alone moves the points halfway to it
        // along the top and the right edges by half of its offset.
        let corner = GlyphWarp(dx: [0, 0, 0.2, 0, 0, 0, 0, 0, 0], dy: Array(repeating: 0, count: 9))
        XCTAssertEqual(corner.offset(u: 0.75, v: 0).x, 0.1, accuracy: 1e-12)
        XCTAssertEqual(corner.offset(u: 1, v: 0.25).x, 0.1, accuracy: 1e-12)
        XCTAssertEqual(corner.offset(u: 0.5, v: 0.5).x, 0, accuracy: 1e-12)
    }

    func testFramesAndSlashesAreDrawnWhereTheyAreMeant() throws {
        let raster = try GlyphRasterizer()
        func ink(_ m: GlyphRasterizer.Mask) -> Double { Double(m.coverage.reduce(0) { $0 + Int($1) }) / 255 }
        // A ring a quarter of the radius thick, filling 64 pixels: pi (32^2 - 24^2) of ink, none in the middle.
        let ring = raster.mask(.ring(thickness: 0.25), side: 64)
        XCTAssertEqual(ink(ring), Double.pi * (32 * 32 - 24 * 24), accuracy: 0.02 * Double.pi * 448)
        XCTAssertEqual(ring[x: 32, y: 32], 0)
        XCTAssertEqual(ring[x: 2, y: 32], 255)
        // A square frame with sharp corners: the square less the inner square.
        let frame = raster.mask(.squareFrame(thickness: 0.25, corner: 0), side: 64)
        XCTAssertEqual(ink(frame), Double(64 * 64 - 48 * 48), accuracy: 0.01 * Double(64 * 64 - 48 * 48))
        XCTAssertEqual(frame[x: 1, y: 1], 255, "a sharp corner")
        XCTAssertEqual(frame[x: 32, y: 32], 0)
        // Rounded corners take ink off the corners only.
        let rounded = raster.mask(.squareFrame(thickness: 0.25, corner: 0.5), side: 64)
        XCTAssertEqual(rounded[x: 0, y: 0], 0)
        XCTAssertEqual(rounded[x: 32, y: 1], 255)
        // A slash from the top left to the bottom right stays where it was drawn (y down), not stretched to fill.
        let slash = raster.mask(.bar(from: (-0.85, -0.85), to: (0.85, 0.85), width: 0.2), side: 64)
        XCTAssertEqual(slash[x: 32, y: 32], 255)
        XCTAssertEqual(slash[x: 9, y: 9], 255)
        XCTAssertEqual(slash[x: 56, y: 8], 0)
        XCTAssertEqual(slash[x: 1, y: 1], 0, "beyond the bar's end")
        XCTAssertEqual(ink(slash), 1.7 * 2.squareRoot() * 0.2 * 32 * 32, accuracy: 20)
    }

    func testRelativeCommandsSmoothCurvesAndNumbersWithoutSeparators() throws {
        // "1.5.5" is 1.5 and .5; "-1-2" is -1 and -2; implicit linetos after a moveto; S reflects C's control.
        let a = try SVGTest.glyph(#"<path d="M1.5.5l3 0 0 3-3 0z"/>"#)
        XCTAssertEqual(a.contours.count, 1)
        XCTAssertEqual(a.contours[0].map(\.x), [1.5, 4.5, 4.5, 1.5])
        XCTAssertEqual(a.contours[0].map(\.y), [0.5, 0.5, 3.5, 3.5])
        let b = try SVGTest.glyph(#"<path d="M0 0C1 -2 3 -2 4 0S7 2 8 0z"/>"#)
        XCTAssertEqual(b.contours[0][4].x, 5, "the reflected control point")
        XCTAssertEqual(b.contours[0][4].y, 2)
        XCTAssertThrowsError(try SVGTest.glyph(#"<path d="M0 0 Q1"/>"#))
    }

    func testIconsDrawWithInk() throws {
        let catalog = try catalog(), raster = try GlyphRasterizer()
        for family in GlyphFamily.allCases {
            let home = try XCTUnwrap(catalog.glyphs(of: IconVocabulary.type(named: "home")!, family: family).first, family.rawValue)
            let m = raster.mask(home.outline, side: 24, fill: 0.9)
            let covered = m.coverage.filter { $0 > 128 }.count
            XCTAssertTrue((24 * 24 / 10)...(24 * 24 * 9 / 10) ~= covered, "\(home.id): \(covered) of 576 pixels inked")
        }
    }
}

/// SVG text parsed as an icon file would be.
enum SVGTest {
    static func glyph(_ body: String) throws -> VectorGlyph {
        try VectorGlyph(svg: #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">"# + body + "</svg>", path: "test.svg")
    }
}
