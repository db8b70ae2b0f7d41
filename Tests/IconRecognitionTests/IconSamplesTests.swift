import Foundation
import Glyphs
import IconRecognition
import IconVocabulary
import XCTest

/// The training crops: options checked by key, and every sample a function of (seed, index) alone.
final class IconSamplesTests: XCTestCase {
    func testImpossibleOptionsAreNamedByKey() {
        XCTAssertTrue(IconSamples.Options().problems().isEmpty)
        var o = IconSamples.Options()
        (o.warp, o.frame, o.slash) = (0.5, 2, -1)
        XCTAssertEqual(Set(o.problems().map(\.key)), ["warp", "frame", "slash"])
    }

    func testEverySampleDependsOnlyOnSeedAndIndexWithEveryDecorationOn() throws {
        let catalog = try XCTUnwrap(try? GlyphCatalog(), "the four icon packages are installed by scripts/setup.sh")
        var o = IconSamples.Options()
        (o.frame, o.slash, o.otherShare) = (1, 1, 0.5)
        let samples = IconSamples(catalog: catalog, seed: 7, options: o) { _ in true }
        let (a, b) = (try GlyphRasterizer(), try GlyphRasterizer())
        var others = 0
        for i in [0, 1, 2, 3, 4, 5, 6, 7, 1000] {
            let first = samples.sample(i, rasterizer: a), again = samples.sample(i, rasterizer: b)
            XCTAssertEqual(first.crop.pixels, again.crop.pixels, "sample \(i)")
            XCTAssertEqual(first.type, again.type)
            XCTAssertGreaterThan(first.crop.width, 4)
            if first.type.isOther { others += 1 }
        }
        XCTAssertGreaterThan(others, 0, "slashes are drawn on other glyphs only: the samples checked must hold some")
    }
}
