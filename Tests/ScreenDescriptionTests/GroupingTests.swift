import Boxes
@testable import ScreenDescription
import TestSupport
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

    func testAHeadingJoinsNoLineWhenHeadingsStandApart() {
        // H = 800: "Create account" (h 30) over a two-line paragraph (h 19): gap 8 < 19 would join all three.
        let detections = [
            detection("text", box(100, 100, 300, 130)), // 0 heading: 30 >= 1.4 x median 19
            detection("text", box(60, 138, 340, 157)),  // 1
            detection("text", box(60, 162, 300, 181)),  // 2 gap 5 < 19: joins 1
        ]
        var s = state(detections)
        s.headers = [0]
        TextLineRule().apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0], [1, 2]])
        var paper = state(detections)
        paper.headers = [0]
        TextLineRule(config: .init(enabled: true, headingsApart: false)).apply(&paper)
        XCTAssertEqual(leafIDs(paper.elements), [[0, 1, 2]])
    }

    func testTabButtonsMustBeEvenlySpacedAndARowAboveTheBarIsLeftOut() {
        // H = 800: bottom 20% from y 640; the bottom-most detection ends at 770, reach 0.08 H = 64 (tops > 706).
        let bar = [
            detection("icon", box(54, 730, 78, 754)),   // 0 centre 66
            detection("icon", box(188, 730, 212, 754)), // 1 centre 200: gap 134
            detection("icon", box(322, 730, 346, 754)), // 2 centre 334: gap 134
            detection("text", box(40, 756, 92, 770)),   // 3 under 0
        ]
        var s = state(bar + [detection("text", box(20, 710, 160, 724)), detection("icon", box(370, 710, 384, 724))]) // 4, 5: a row above the bar
        TabButtonRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements.filter { $0.kind == .tabButton }), [[0, 3], [1], [2]], "4 and 5 break the spacing; without them the bar is even")
        XCTAssertEqual(leafIDs(s.elements.filter { $0.kind != .tabButton }), [[4], [5]])

        // A list row at the bottom of a screen without a bar: centres 30, 150, 380; gaps with the doubled
        // margins 60, 120, 230, 40 (mean 112.5): 230 is 117.5 > 0.25 x 112.5 away. Without the icon: 300, 230, 40.
        let row = [detection("icon", box(16, 740, 44, 768)), detection("text", box(60, 745, 240, 765)), detection("icon", box(372, 748, 388, 764))]
        var r = state(row)
        TabButtonRule(config: .init()).apply(&r)
        XCTAssertFalse(r.elements.contains { $0.kind == .tabButton })
        var paperLike = DescriptionConfig.TabButtons()
        paperLike.spacingTolerance = .greatestFiniteMagnitude
        TabButtonRule(config: paperLike).apply(&r)
        XCTAssertEqual(r.elements.filter { $0.kind == .tabButton }.count, 3)
        XCTAssertTrue(TabButtonRule.evenlySpaced([100, 300], width: 400, tolerance: 0), "200, 200, 200")
        XCTAssertTrue(TabButtonRule.evenlySpaced([66, 200, 334], width: 400, tolerance: 0.25), "132, 134, 134, 132")
        XCTAssertFalse(TabButtonRule.evenlySpaced([50, 150, 275], width: 400, tolerance: 0.25), "100, 100, 125, 250: mean 143.75, 250 is 106.25 away")
        XCTAssertFalse(TabButtonRule.evenlySpaced([100, 200], width: 400, tolerance: 0.25), "200, 100, 400: mean 233.3, 400 is 166.7 away")
    }

    func testAContainerHoldingRowsIsASectionAndGroupsNothing() {
        var s = state([
            detection("container", box(16, 100, 384, 300)), // 0 a grouped-table section of two rows
            detection("icon", box(30, 115, 58, 143)),        // 1 row 1: icon, text, chevron
            detection("text", box(70, 120, 200, 138)),       // 2
            detection("icon", box(350, 122, 364, 136)),      // 3
            detection("icon", box(30, 165, 58, 193)),        // 4 row 2: icon, text
            detection("text", box(70, 170, 200, 188)),       // 5
            detection("container", box(16, 400, 384, 600)), // 6 a card: picture band, title band, text band
            detection("picture", box(16, 400, 384, 500)),    // 7
            detection("text", box(30, 510, 200, 530)),       // 8
            detection("text", box(30, 560, 300, 576)),       // 9
        ])
        ContainerRule(insideFraction: 0.9).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0], [1], [2], [3], [4], [5], [6, 7, 8, 9]])
        XCTAssertEqual(ContainerRule.rowCount(s.elements.filter { [1, 2, 3, 4, 5].contains($0.id) }), 2)
        var paper = state([detection("container", box(16, 100, 384, 300)), detection("icon", box(30, 115, 58, 143)), detection("text", box(70, 120, 200, 138)),
                           detection("icon", box(30, 165, 58, 193)), detection("text", box(70, 170, 200, 188))])
        ContainerRule(config: .init(enabled: true, sections: false, minSectionRows: 2), insideFraction: 0.9).apply(&paper)
        XCTAssertEqual(leafIDs(paper.elements), [[0, 1, 2, 3, 4]])
    }

    func testAnIconWithItsCaptionCentredUnderItIsATileNoRowTakes() {
        // H = 800: max gap min(0.5 x icon height, 0.02 H = 16).
        var s = state([
            detection("icon", box(40, 300, 80, 340)),    // 0 tile: caption centre 60, gap 6 < min(20, 16)
            detection("text", box(35, 346, 85, 358)),    // 1
            detection("icon", box(170, 300, 210, 340)),  // 2 tile
            detection("text", box(160, 346, 220, 358)),  // 3
            detection("icon", box(300, 300, 340, 340)),  // 4 caption off-centre (centre 370 > 340): no tile
            detection("text", box(330, 346, 410, 358)),  // 5
            detection("icon", box(150, 100, 250, 200)),  // 6 an illustration: gap 20 >= 16 to the heading under it
            detection("text", box(120, 220, 280, 250)),  // 7
        ])
        IconCaptionRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2, 3], [4], [5], [6], [7]])
        XCTAssertEqual(s.tiles.count, 2)
        ListRowRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2, 3], [4], [5], [6], [7]], "the tiles stay whole, the row rule takes neither")
    }

    func testARowHasOneLeadingIconSoAChipRowIsNoRow() {
        var s = state([
            detection("icon", box(20, 300, 40, 320)), detection("text", box(46, 302, 120, 318)),   // 0, 1 "☆ Favourites"
            detection("icon", box(140, 300, 160, 320)), detection("text", box(166, 302, 240, 318)), // 2, 3 "♪ Music"
        ])
        IconTextRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2, 3]])
        ListRowRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2, 3]])
        var one = DescriptionConfig.ListRows()
        one.maxLeadingIconGroups = 2
        ListRowRule(config: one).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1, 2, 3]])
    }

    func testTheStatusBarIsLeftToItself() {
        // H = 800: the status bar is the top 0.06 H = 48.
        let detections = [detection("icon", box(10, 14, 26, 30)), detection("text", box(30, 12, 70, 32)), // 0, 1 signal glyph and time
                          detection("icon", box(10, 62, 26, 78)), detection("text", box(30, 60, 90, 80))]  // 2, 3 "< Back"
        var s = state(detections)
        IconTextRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0], [1], [2, 3]])
        var all = state(detections)
        var config = DescriptionConfig.IconText()
        config.statusBarFraction = 0
        IconTextRule(config: config).apply(&all)
        XCTAssertEqual(leafIDs(all.elements), [[0, 1], [2, 3]])
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

    func testAHeadingLabelsNoFieldWhenHeadingsStandApart() {
        let detections = [
            detection("text", box(20, 100, 160, 130)),       // 0 "Sign in", a heading
            detection("text_field", box(20, 140, 380, 178)), // 1 gap 10 <= 0.5 x 38
        ]
        var s = state(detections)
        s.headers = [0]
        LabelFieldRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0], [1]])
        var paper = state(detections)
        paper.headers = [0]
        var config = DescriptionConfig.LabelField()
        config.headingsApart = false
        LabelFieldRule(config: config).apply(&paper)
        XCTAssertEqual(leafIDs(paper.elements), [[0, 1]])
    }

    func testARowCentresItsPictureOnItsTextSoAChatAvatarIsNoPartOfTheMessage() {
        let detections = [
            detection("picture", box(10, 302, 50, 342)),  // 0 thumbnail, centre 322 = the texts' centre
            detection("text", box(60, 300, 300, 320)),     // 1 title
            detection("text", box(60, 324, 280, 344)),     // 2 subtitle (texts 300-344, centre 322, height 44)
            detection("picture", box(10, 424, 46, 460)),   // 3 avatar at the bubble's foot: centre 442 in the band, 20 > 0.3 x 44 off
            detection("text", box(60, 400, 300, 420)),     // 4 message, two lines
            detection("text", box(60, 424, 280, 444)),     // 5
        ]
        func rows(centred: Bool) -> [[Int]] {
            var s = state(detections)
            TextLineRule().apply(&s)
            var config = DescriptionConfig.ListRows()
            config.centredPictures = centred
            ListRowRule(config: config).apply(&s)
            return leafIDs(s.elements)
        }
        XCTAssertEqual(rows(centred: true), [[0, 1, 2], [3], [4, 5]])
        XCTAssertEqual(rows(centred: false), [[0, 1, 2], [3, 4, 5]])
    }

    func testATrailingValueJoinsTheTitleAtWhoseTopItSits() {
        // W = 400: a value ends within 0.1 W = 40 of the right edge (x >= 360).
        var s = state([
            detection("text", box(16, 300, 150, 320)),  // 0 title h 20, centre 310
            detection("text", box(330, 298, 390, 312)), // 1 value, centre 305: raised 5 >= 0.2 x 20
            detection("text", box(16, 400, 150, 420)),  // 2 section title, centre 410
            detection("text", box(330, 404, 390, 418)), // 3 "See all", centre 411: not raised
            detection("text", box(16, 500, 200, 520)),  // 4 title and
            detection("text", box(16, 524, 180, 540)),  // 5 subtitle (500-540)
            detection("text", box(320, 502, 390, 516)), // 6 value, centre 509 in 500-540
            detection("text", box(16, 600, 150, 620)),  // 7
            detection("text", box(200, 598, 260, 612)), // 8 raised, but far from the right edge
            detection("text", box(16, 700, 150, 720)),  // 9 a heading
            detection("text", box(330, 698, 390, 712)), // 10
            detection("text", box(16, 60, 150, 80)),    // 11 in the top bar (y <= 0.12 H = 96)
            detection("text", box(330, 58, 390, 72)),   // 12
        ])
        s.headers = [9]
        TextLineRule().apply(&s)
        TrailingValueRule(config: .init(), topBarFraction: 0.12).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2], [3], [4, 5, 6], [7], [8], [9], [10], [11], [12]])
    }

    func testFiguresWithCaptionsCentredUnderThemPairUpWhenSideBySide() {
        let detections = [
            detection("text", box(40, 300, 100, 330)),   // 0 figure, h 30, centre x 70
            detection("text", box(45, 345, 95, 357)),    // 1 caption, gap 15 (the text-line rule needs < 12)
            detection("text", box(170, 300, 230, 330)),  // 2
            detection("text", box(172, 345, 228, 357)),  // 3
            detection("text", box(300, 300, 360, 330)),  // 4
            detection("text", box(305, 345, 355, 357)),  // 5
            detection("text", box(40, 500, 100, 530)),   // 6 a lone pair: no row of figures
            detection("text", box(45, 545, 95, 557)),    // 7
            detection("text", box(40, 600, 100, 630)),   // 8 figures side by side, but the
            detection("text", box(110, 645, 200, 657)),  // 9 text under 8 is off its centre (85 > 0.25 x 90)
            detection("text", box(300, 600, 360, 630)),  // 10
            detection("text", box(305, 645, 355, 657)),  // 11
        ]
        var s = state(detections)
        FigureCaptionRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1], [2, 3], [4, 5], [6], [7], [8], [9], [10], [11]])
        var single = state(detections)
        var config = DescriptionConfig.FigureCaptions()
        config.minColumns = 1
        FigureCaptionRule(config: config).apply(&single)
        XCTAssertEqual(leafIDs(single.elements), [[0, 1], [2, 3], [4, 5], [6, 7], [8], [9], [10, 11]])
    }

    func testATitleSetApartFromItsParagraphJoinsNoLine() {
        let detections = [
            detection("text", box(20, 100, 200, 120)), // 0 title h 20
            detection("text", box(20, 135, 300, 151)), // 1 gap 15 < 16 (the paper joins), but 15 > 1.5 x 3 + 1.6
            detection("text", box(20, 154, 300, 170)), // 2 gap 3: the paragraph's own spacing
        ]
        var s = state(detections)
        TextLineRule().apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0], [1, 2]])
        var paper = state(detections)
        TextLineRule(config: .init(enabled: true, headingsApart: false, maxGapGrowth: .greatestFiniteMagnitude)).apply(&paper)
        XCTAssertEqual(leafIDs(paper.elements), [[0, 1, 2]])
    }

    func testItemsInsideCardsAreNoTabItems() {
        // A shelf of three cards (each 120 wide, under 0.5 W = 200) at the bottom, evenly spaced like a bar.
        var detections: [ElementDetection] = []
        for x in [Float(10), 140, 270] {
            detections += [detection("container", box(x, 700, x + 120, 790)), detection("icon", box(x + 45, 710, x + 75, 740)),
                           detection("text", box(x + 20, 750, x + 100, 765))]
        }
        var s = state(detections)
        TabButtonRule(config: .init()).apply(&s)
        XCTAssertFalse(s.elements.contains { $0.kind == .tabButton })
        var config = DescriptionConfig.TabButtons()
        config.maxCardWidth = 0
        var paper = state(detections)
        TabButtonRule(config: config).apply(&paper)
        XCTAssertEqual(leafIDs(paper.elements.filter { $0.kind == .tabButton }), [[1, 2], [4, 5], [7, 8]])
    }

    func testABandWithMoreThanTwoTextsIsARowOfChipsNotAListRow() {
        let detections = [
            detection("text", box(20, 300, 80, 320)),   // 0 chip
            detection("text", box(100, 300, 160, 320)),  // 1 chip
            detection("icon", box(180, 302, 196, 318)),  // 2 a chip's icon
            detection("text", box(200, 300, 260, 320)),  // 3 its text: three members hold text
            detection("icon", box(20, 400, 50, 430)),    // 4 a row: icon, title, value
            detection("text", box(60, 405, 200, 425)),   // 5
            detection("text", box(320, 405, 380, 425)),  // 6
        ]
        func rows(maxTexts: Int) -> [[Int]] {
            var s = state(detections)
            var config = DescriptionConfig.ListRows()
            config.maxTextMembers = maxTexts
            ListRowRule(config: config).apply(&s)
            return leafIDs(s.elements)
        }
        XCTAssertEqual(rows(maxTexts: 2), [[0], [1], [2], [3], [4, 5, 6]])
        XCTAssertEqual(rows(maxTexts: 3), [[0, 1, 2, 3], [4, 5, 6]])
    }

    func testARunOfLikeIconsAndTheFigureAfterItAreARating() {
        var detections: [ElementDetection] = []
        for k in 0..<5 { detections.append(detection("icon", box(20 + Float(k) * 19, 300, 36 + Float(k) * 19, 316))) } // 0-4: 16 wide, gaps 3
        detections.append(detection("text", box(122, 301, 180, 315)))  // 5: "4.5 (120)", 6 after the last star
        detections += [detection("icon", box(20, 400, 44, 424)), detection("icon", box(60, 400, 84, 424)),  // 6, 7: gap 16 > 12
                       detection("icon", box(100, 400, 124, 424)), detection("text", box(130, 404, 200, 420))] // 8, 9
        detections += [detection("icon", box(20, 500, 36, 516)), detection("icon", box(39, 500, 55, 516)),  // 10, 11: two only
                       detection("text", box(60, 501, 120, 515))]                                           // 12
        var s = state(detections)
        RatingRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1, 2, 3, 4, 5], [6], [7], [8], [9], [10], [11], [12]])
        var two = state(detections)
        RatingRule(config: .init(enabled: true, minIcons: 2)).apply(&two)
        XCTAssertEqual(leafIDs(two.elements), [[0, 1, 2, 3, 4, 5], [6], [7], [8], [9], [10, 11, 12]])
    }

    func testALeadingIconIsTheRowsPictureNotOneOfItsControls() {
        var s = state([
            detection("icon", box(16, 300, 45, 329)),               // 0 leading glyph, taken for a button
            detection("text", box(60, 304, 200, 326)),              // 1
            detection("toggle_selected", box(330, 299, 381, 330)),  // 2 the row's one control
            detection("text", box(60, 404, 200, 426)),              // 3 a text between two controls:
            detection("toggle_selected", box(330, 399, 381, 430)),  // 4 no row
            detection("icon", box(220, 404, 240, 424)),             // 5 an interactive icon that does not lead
        ])
        InteractivityAssignment(model: nil).apply(&s)
        s.updateLeaves { if $0.kind == .icon { $0.interactive = true } }
        var strict = s
        ListRowRule(config: .init()).apply(&s)
        XCTAssertEqual(leafIDs(s.elements), [[0, 1, 2], [3], [4], [5]])
        var config = DescriptionConfig.ListRows()
        config.leadingIconIsPicture = false
        ListRowRule(config: config).apply(&strict)
        XCTAssertEqual(leafIDs(strict.elements), [[0], [1], [2], [3], [4], [5]])
    }
}
