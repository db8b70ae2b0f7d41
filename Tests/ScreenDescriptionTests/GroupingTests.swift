import Boxes
@testable import ScreenDescription
import XCTest

/// Each rule on a hand-made 400 x 800 screen (H = 800), with the boxes chosen on either side of its numbers.
final class GroupingTests: XCTestCase {
    func testTextLinesJoinBelowWhenTheGapIsLessThanTheSmallerHeight() {
        var s = state([
            detection("text", box(20, 100, 200, 120)),  // 0 h 20
            detection("text", box(20, 125, 180, 143)),  // 1 h 18, gap 5 < 18: joins 0
            detection("text", box(20, 170, 200, 190)),  // 2 gap 27 >= 18: alone
            detection("text", box(250, 100, 380, 120)), // 3 beside 0, no x overlap: alone
            detection("text", box(20, 210, 200, 230)),  // 4 gap to 2 is 20, not < 20: alone
            detection("text", box(20, 300, 200, 320)),  // 5-7 a chain of three lines
            detection("text", box(20, 322, 200, 342)),
            detection("text", box(20, 344, 200, 364)),
        ])
        TextLineRule().apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2], [3], [4], [5, 6, 7]])
        XCTAssertEqual(s.elements.first { $0.children.count == 2 }?.frame, box(20, 100, 200, 143))
        XCTAssertEqual(s.elements.filter { $0.kind == .group }.map(\.source), [.group, .group])
    }

    func testTabBarItemsOverlappingInXFormTabButtons() {
        var s = state([
            detection("icon", box(40, 730, 64, 754)),    // 0 tab 1
            detection("text", box(30, 756, 75, 770)),    // 1
            detection("icon", box(188, 730, 212, 754)),  // 2 tab 2
            detection("text", box(175, 756, 225, 770)),  // 3
            detection("icon", box(336, 730, 360, 754)),  // 4 tab 3, icon only
            detection("icon", box(188, 600, 212, 624)),  // 5 above the bottom 20% (y >= 640)
            detection("text", box(20, 650, 100, 665)),   // 6 in the bottom 20% but 770 - 650 = 120 >= 0.08 H = 64
            detection("container", box(0, 720, 400, 800)), // 7 the bar's background: not the bottom-most detection
        ])
        TabButtonRule(config: .init()).apply(&s)
        let tabs = s.elements.filter { $0.kind == .tabButton }
        XCTAssertEqual(leafIDs(tabs), [[0, 1], [2, 3], [4]])
        XCTAssertTrue(tabs.allSatisfy(\.interactive))
        XCTAssertEqual(leafIDs(s.elements.filter { $0.kind != .tabButton }), [[5], [6], [7]])
    }

    func testALoneButtonAtTheBottomIsNotATabBar() {
        var s = state([detection("icon", box(180, 730, 220, 770)), detection("text", box(20, 100, 200, 120))])
        TabButtonRule(config: .init()).apply(&s)
        XCTAssertFalse(s.elements.contains { $0.kind == .tabButton })
        var paperLike = DescriptionConfig.TabButtons()
        paperLike.minButtons = 1
        TabButtonRule(config: paperLike).apply(&s)
        XCTAssertEqual(s.elements.filter { $0.kind == .tabButton }.count, 1)
    }

    func testAContainerGroupsEverythingInsideItSmallestFirst() {
        var s = state([
            detection("container", box(0, 100, 400, 200)), // 0
            detection("icon", box(10, 120, 40, 150)),       // 1 inside 0
            detection("text", box(50, 120, 300, 140)),      // 2 inside 0
            detection("text", box(50, 190, 300, 215)),      // 3 40% inside 0: not taken
            detection("container", box(0, 300, 400, 600)),  // 4 holds 5, 6, 7
            detection("container", box(10, 310, 390, 400)), // 5 holds 6
            detection("text", box(20, 320, 200, 340)),      // 6
            detection("text", box(20, 450, 200, 470)),      // 7
        ])
        ContainerRule(insideFraction: 0.9).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1, 2], [3], [4, 5, 6, 7]])
        let first = s.elements.first { $0.children.first?.id == 0 }
        XCTAssertEqual(first?.frame, box(0, 100, 400, 200), "the container's frame")
        XCTAssertEqual(first?.kind, .group)
    }

    func testPictureSubtitlesJoinWhenCloserToThePictureThanToWhatFollows() {
        var s = state([
            detection("picture", box(20, 100, 180, 220)),  // 0
            detection("text", box(20, 226, 150, 240)),     // 1 gap 6 < 0.03 H = 24; next below is 10 away
            detection("text", box(20, 250, 120, 262)),     // 2 second line: gap 10 to 1; next below is 38 away
            detection("text", box(20, 300, 200, 320)),     // 3 too far
            detection("picture", box(220, 100, 380, 220)), // 4
            detection("text", box(220, 240, 380, 256)),    // 5 gap 20 to 4, but 6 away from 6
            detection("text", box(220, 262, 380, 280)),    // 6
        ])
        PictureSubtitleRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1, 2], [3], [4], [5], [6]])

        var one = state([
            detection("picture", box(20, 100, 180, 220)), detection("text", box(20, 226, 150, 240)), detection("text", box(20, 250, 120, 262)),
        ])
        var config = DescriptionConfig.PictureSubtitles()
        config.secondLine = false
        PictureSubtitleRule(config: config).apply(&one)
        XCTAssertEqual(leafIDs(one.elements), [[0, 1], [2]])
    }

    func testAnIconOnATextsLineJoinsTheNearestText() {
        var s = state([
            detection("text", box(40, 60, 90, 80)),     // 0 "Back", h 20
            detection("icon", box(20, 62, 34, 78)),     // 1 chevron: gap 6 <= 20, height 16 <= 40
            detection("icon", box(300, 62, 316, 78)),   // 2 gap 210 > 20
            detection("icon", box(20, 200, 80, 260)),   // 3 height 60 > 2 x 20
            detection("text", box(90, 220, 200, 240)),  // 4
        ])
        IconTextRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2], [3], [4]])
    }

    func testALabelRightAboveATextFieldJoinsIt() {
        var s = state([
            detection("text", box(20, 100, 80, 116)),        // 0 "Email"
            detection("text_field", box(20, 122, 380, 160)), // 1 gap 6 <= 0.5 x 38
            detection("text", box(20, 200, 100, 216)),       // 2 "Password"
            detection("text_field", box(20, 250, 380, 288)), // 3 gap 34 > 19
        ])
        LabelFieldRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2], [3]])
    }

    func testListRowsNeedTextAnAnchorAtMostOneControlAndABandOfTheirOwn() {
        var s = state([
            detection("icon", box(16, 300, 45, 329)),          // 0 row: icon, two texts, chevron
            detection("text", box(60, 304, 150, 326)),         // 1
            detection("text", box(280, 304, 340, 326)),        // 2
            detection("icon", box(350, 308, 362, 322)),        // 3
            detection("text", box(60, 355, 200, 377)),         // 4 row: text and toggle
            detection("toggle_selected", box(330, 350, 381, 381)), // 5
            detection("text", box(60, 410, 150, 432)),         // 6 two controls: no row
            detection("toggle_unselected", box(330, 405, 381, 436)), // 7
            detection("checkbox_selected", box(280, 405, 310, 435)), // 8
            detection("text", box(20, 500, 100, 520)),         // 9 a text field in the band: no row
            detection("icon", box(320, 500, 340, 520)),        // 10
            detection("text_field", box(110, 495, 300, 525)),  // 11
            detection("icon", box(10, 50, 30, 70)),            // 12 the navigation bar (y <= 0.12 H = 96): no row
            detection("text", box(40, 50, 150, 70)),           // 13
            detection("text", box(20, 600, 100, 620)),         // 14 only texts: no row
            detection("text", box(300, 600, 380, 620)),        // 15
        ])
        InteractivityAssignment(model: nil).apply(&s)
        ListRowRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1, 2, 3], [4, 5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15]])
    }

    func testRulesRunInOrderAndEachCanBeSwitchedOff() {
        let detections = [
            detection("icon", box(16, 300, 45, 329)), detection("text", box(60, 304, 150, 326)),
            detection("text", box(280, 304, 340, 326)), detection("icon", box(350, 308, 362, 322)),
        ]
        func groups(_ change: (inout DescriptionConfig.Grouping) -> Void) -> [[Int]] {
            var config = DescriptionConfig.Grouping()
            change(&config)
            var s = state(detections)
            Grouping(config: config, insideFraction: 0.9).apply(&s)
            return leafIDs(s.elements)
        }
        XCTAssertEqual(groups { _ in }, [[0, 1, 2, 3]])
        XCTAssertEqual(groups { $0.listRows.enabled = false }, [[0, 1], [2, 3]], "icon-text pairs remain")
        XCTAssertEqual(groups { $0.listRows.enabled = false; $0.iconText.enabled = false }, [[0], [1], [2], [3]])
        XCTAssertEqual(groups { $0.iconText.enabled = false }, [[0, 1, 2, 3]], "the row rule alone finds the row")
    }
}
