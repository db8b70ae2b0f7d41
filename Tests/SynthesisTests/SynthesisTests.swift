import Boxes
import Images
import Shards
import Synthesis
import XCTest

final class SynthesisTests: XCTestCase {
    func testSameSeedSameScreenAnyOrder() throws {
        let a = try ScreenSynthesizer(seed: 3, appCount: 5)
        let b = try ScreenSynthesizer(seed: 3, appCount: 5)
        let forward = (0..<4).map { a.screen(index: $0) }
        let backward = (0..<4).reversed().map { b.screen(index: $0) }.reversed()
        XCTAssertEqual(forward, Array(backward))
        XCTAssertNotEqual(try ScreenSynthesizer(seed: 4, appCount: 5).screen(index: 0).image, forward[0].image)
    }

    func testBoxesAreValidInsideTheImageAndCoverEveryClass() throws {
        let size = Size(width: 200, height: 440)  // not the default: layout must scale
        let synth = try ScreenSynthesizer(size: size, seed: 11, appCount: 20)
        var counts = [Int](repeating: 0, count: defaultClassNames.count)
        var groups = Set<String>()
        for i in 0..<400 {
            let s = synth.screen(index: i)
            XCTAssertEqual(s.image?.size, size)
            groups.insert(s.groupID)
            for (b, l) in zip(s.boxes, s.labels) {
                XCTAssertTrue(b.isValid, "\(b)")
                XCTAssertTrue(b.xMin >= 0 && b.yMin >= 0 && b.xMax <= Float(size.width) && b.yMax <= Float(size.height), "\(b) outside \(size)")
                counts[Int(l)] += 1
            }
        }
        for (k, n) in counts.enumerated() { XCTAssertGreaterThan(n, 0, "no \(defaultClassNames[k]) in 400 screens") }
        // Imbalanced as in the paper: text most, slider least.
        XCTAssertEqual(counts.firstIndex(of: counts.max()!), defaultClassNames.firstIndex(of: "text"))
        XCTAssertEqual(counts.firstIndex(of: counts.min()!), defaultClassNames.firstIndex(of: "slider"))
        XCTAssertGreaterThan(groups.count, 10)
    }

    func testTextBoxesHoldInkAndToggleBoxesHoldTheSwitch() throws {
        let synth = try ScreenSynthesizer(seed: 2, appCount: 3)
        var checked = 0
        for i in 0..<40 {
            let s = synth.screen(index: i)
            let image = try XCTUnwrap(s.image)
            for (b, l) in zip(s.boxes, s.labels) where defaultClassNames[Int(l)] == "text" || defaultClassNames[Int(l)].hasPrefix("toggle") {
                // The content differs from a flat fill: something is drawn inside the box.
                let crop = image.cropped(x0: Int(b.xMin), y0: Int(b.yMin), x1: Int(b.xMax.rounded(.up)), y1: Int(b.yMax.rounded(.up)))
                var colours = Set<Int>()
                for p in stride(from: 0, to: crop.pixels.count, by: 3) { colours.insert(Int(crop.pixels[p]) << 16 | Int(crop.pixels[p + 1]) << 8 | Int(crop.pixels[p + 2])) }
                XCTAssertGreaterThan(colours.count, 2, "box \(b) of \(defaultClassNames[Int(l)]) on screen \(i) is blank")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 200)
    }
}
