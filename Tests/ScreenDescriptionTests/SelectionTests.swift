import Boxes
import Images
@testable import ScreenDescription
import TestSupport
import XCTest

/// The tint rule and the other cues on tiny hand-drawn images: three items 100 x 40 side by side.
final class SelectionTests: XCTestCase {
    let items = [box(0, 0, 100, 40), box(100, 0, 200, 40), box(200, 0, 300, 40)]
    let size = Size(width: 300, height: 60)

    func cues(_ image: RGBImage, _ change: (inout DescriptionConfig.Selection) -> Void = { _ in }) -> SelectionCues {
        var config = DescriptionConfig.Selection()
        change(&config)
        return SelectionCues(image: image, config: config)
    }

    func testQuantisedColoursAndTheirDifferences() {
        let q = ColorQuantiser(bits: 5, minDifference: 24)
        // 142 >> 3 = 17, whose bin centre is 17 * 8 + 4 = 140.
        XCTAssertEqual(q.colour(q.bin(142, 142, 147)), SIMD3(140, 140, 148))
        XCTAssertEqual(q.colour(q.bin(0, 122, 255)), SIMD3(4, 124, 252))
        // 3 levels apart is 24 (not more than 24); 4 levels is 32.
        XCTAssertFalse(q.differ(q.bin(0, 0, 0), q.bin(24, 0, 0)))
        XCTAssertTrue(q.differ(q.bin(0, 0, 0), q.bin(32, 0, 0)))
        XCTAssertTrue(q.differ(q.bin(0, 0, 0), q.bin(0, 0, 32)))
    }

    func testBackgroundIsTheMostFrequentColourAndTintTheMostFrequentThatDiffers() {
        // 40 x 60 = 2400 pixels: 1350 white, 600 near-white (232, bin centre 236: 16 from white's 252),
        // 400 grey, 50 blue.
        let image = drawn(Size(width: 40, height: 60), [
            (box(0, 0, 40, 10), grey), (box(0, 10, 40, 25), RGB(232, 232, 232)), (box(0, 25, 10, 30), blue),
        ])
        let q = ColorQuantiser(bits: 5, minDifference: 24)
        let c = q.colours(image, PixelRect(box(0, 0, 40, 60), in: image.size))
        XCTAssertEqual(c?.background, q.bin(255, 255, 255))
        XCTAssertEqual(c?.tint, q.bin(142, 142, 147), "near-white is more frequent but within 24 of the background; grey outnumbers blue")
    }

    func testTheItemWhoseTintStandsApartIsSelected() {
        // Item 0's "text" is blue, the others' grey: blue is 136 from the others' median, grey 68 from theirs.
        let image = drawn(size, [(box(20, 10, 80, 20), blue), (box(120, 10, 180, 20), grey), (box(220, 10, 280, 20), grey)])
        XCTAssertEqual(cues(image).decide(frames: items, hasText: [true, true, true]), [true, false, false])
        XCTAssertEqual(cues(image).quantiser.outlier([SIMD3(4, 124, 252), SIMD3(140, 140, 148), SIMD3(140, 140, 148)]), 0)
    }

    func testTwoItemsWithDifferentTintsAndNoOtherCueAreUnknown() {
        let two = Array(items.prefix(2))
        let image = drawn(size, [(box(20, 10, 80, 20), blue), (box(120, 10, 180, 20), grey)])
        XCTAssertEqual(cues(image).decide(frames: two, hasText: [true, true]), [nil, nil])
        XCTAssertEqual(cues(image).decide(frames: two, hasText: [false, true]), [false, true], "the only item with text")
        XCTAssertEqual(cues(image) { $0.textCue = false }.decide(frames: two, hasText: [false, true]), [nil, nil])
    }

    func testAnItemWithNoInkHasItsBackgroundAsTint() {
        // The unselected items' faint grey (240, bin centre 244) is within 24 of white: no tint of their own.
        let image = drawn(size, [(box(20, 10, 80, 20), blue), (box(120, 10, 180, 20), RGB(240, 240, 240)), (box(220, 10, 280, 20), RGB(240, 240, 240))])
        XCTAssertEqual(cues(image).decide(frames: items, hasText: [true, true, true]), [true, false, false])
    }

    func testThreeDifferentTintsAreUnknown() {
        // Red is farthest from the median of blue and grey, but blue and grey differ from each other's median too.
        let image = drawn(size, [(box(20, 10, 80, 20), blue), (box(120, 10, 180, 20), grey), (box(220, 10, 280, 20), RGB(255, 0, 0))])
        XCTAssertEqual(cues(image).decide(frames: items, hasText: [true, true, true]), [nil, nil, nil])
    }

    func testAnUnderlineUnderOneItemSelectsIt() {
        // All tints black; item 1 has a 2-pixel black bar at its bottom (rows 37 and 38 of 40).
        let image = drawn(size, [(box(20, 10, 80, 20), black), (box(120, 10, 180, 20), black), (box(220, 10, 280, 20), black), (box(100, 37, 200, 39), black)])
        XCTAssertEqual(cues(image).decide(frames: items, hasText: [true, true, true]), [false, true, false])
        XCTAssertEqual(cues(image) { $0.underlineCue = false; $0.backgroundCue = false }.decide(frames: items, hasText: [true, true, true]), [nil, nil, nil])
    }

    func testTheOneBackgroundThatStandsApartSelectsWhenTintDoesNot() {
        // An iOS 13 segmented control: the selected segment is white on a grey track, all text black.
        // 220 >> 3 = 27 (centre 220) against white's 252: 32 apart.
        let track = RGB(220, 220, 225)
        let image = drawn(size, [(box(0, 0, 100, 40), track), (box(200, 0, 300, 40), track),
                                 (box(20, 10, 80, 20), black), (box(120, 10, 180, 20), black), (box(220, 10, 280, 20), black)])
        XCTAssertEqual(cues(image).decide(frames: items, hasText: [true, true, true]), [false, true, false])
        XCTAssertEqual(cues(image) { $0.backgroundCue = false }.decide(frames: items, hasText: [true, true, true]), [nil, nil, nil], "the paper's cues do not decide")
    }

    func testAPageControlsCurrentPageIsTheDotThatStandsApart() {
        // Four 8 x 8 dots on white, the second dark.
        var fills: [(Box, RGB)] = []
        for k in 0..<4 { fills.append((box(Float(10 + 20 * k), 6, Float(18 + 20 * k), 14), k == 1 ? RGB(60, 60, 60) : RGB(200, 200, 200))) }
        let image = drawn(Size(width: 100, height: 20), fills)
        let q = ColorQuantiser(bits: 5, minDifference: 24)
        XCTAssertTrue(q.pageIndicator(image, frame: box(0, 0, 100, 20))! == (page: 2, count: 4))
        XCTAssertNil(q.pageIndicator(drawn(Size(width: 100, height: 20), [(box(10, 6, 18, 14), grey)]), frame: box(0, 0, 100, 20)), "one dot")
    }

    func testTheStepSetsTogglesFromClassTabsAndSegmentsFromColour() {
        // Segments of one control at y 0-40 (the first blue); a toggle; a page control with dots.
        var fills: [(Box, RGB)] = [(box(20, 10, 80, 20), blue), (box(120, 10, 180, 20), grey), (box(220, 10, 280, 20), grey)]
        for k in 0..<3 { fills.append((box(Float(110 + 20 * k), 106, Float(118 + 20 * k), 114), k == 2 ? RGB(60, 60, 60) : RGB(200, 200, 200))) }
        let image = drawn(Size(width: 300, height: 200), fills)
        var s = state([
            detection("segmented_control", items[0]), detection("segmented_control", items[1]), detection("segmented_control", items[2]),
            detection("toggle_selected", box(10, 60, 60, 90)), detection("checkbox_unselected", box(70, 60, 90, 80)),
            detection("page_control", box(100, 100, 200, 120)),
        ], size: image.size)
        SelectionState(config: .init()).apply(&s, image: image)
        Roles().apply(&s)
        XCTAssertEqual(s.elements.map(\.selected), [true, false, false, true, false, nil])
        XCTAssertEqual(s.elements.map(\.value), [nil, nil, nil, "on", "off", "page 3 of 3"])
        XCTAssertEqual(s.elements[0].traits, [.button, .selected])
        XCTAssertEqual(s.elements[1].traits, [.button])
    }
}
