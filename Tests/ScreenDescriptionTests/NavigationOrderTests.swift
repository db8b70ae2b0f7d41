import Boxes
import Images
@testable import ScreenDescription
import TestSupport
import XCTest

final class NavigationOrderTests: XCTestCase {
    func testColumnsThatNoHorizontalCutSeparatesAreReadColumnByColumn() {
        // The left column's items and the right column's overlap in y in a chain (20-35, 25-45,
        // 40-55, 50-60), so the middle is one band; x cuts it into two columns.
        let frames = [
            box(0, 60, 100, 70),   // 0 footer
            box(60, 50, 100, 60),  // 1 D, right
            box(0, 40, 40, 55),    // 2 B, left
            box(0, 0, 100, 10),    // 3 title
            box(60, 25, 100, 45),  // 4 C, right
            box(0, 20, 40, 35),    // 5 A, left
        ]
        XCTAssertEqual(NavigationOrder.order(frames), [3, 5, 2, 4, 1, 0])
    }

    func testRowsSeparatedByHorizontalCutsAreReadRowByRow() {
        // Aligned rows: the bands come first, so a grid reads left to right, row after row.
        let frames = [box(60, 20, 100, 30), box(0, 20, 40, 30), box(60, 0, 100, 10), box(0, 0, 40, 10)]
        XCTAssertEqual(NavigationOrder.order(frames), [3, 2, 1, 0])
    }

    func testARegionThatNoLongerSplitsIsTopToBottomThenLeftToRight() {
        // E0 and E1 overlap in both x and y, so no cut exists; E2 ties E0 at the top and is right of it.
        let frames = [box(0, 0, 50, 20), box(40, 10, 100, 30), box(60, 0, 90, 8)]
        XCTAssertEqual(NavigationOrder.xyCut([0, 1, 2], frames), [0, 2, 1])
        XCTAssertEqual(NavigationOrder.order(frames), [0, 2, 1])
    }

    func testTouchingBoxesAreCutApart() {
        // y = 10 is crossed by no element (the first ends, the second starts there).
        XCTAssertEqual(NavigationOrder.split([0, 1]) { [(Float(0), Float(10)), (10, 20)][$0] }, [[0], [1]])
        XCTAssertEqual(NavigationOrder.split([0, 1]) { [(Float(0), Float(11)), (10, 20)][$0] }, [[0, 1]])
    }

    func testAnEnclosingElementIsFollowedByWhatItEncloses() {
        let frames = [
            box(10, 10, 90, 90),   // 0 dialog
            box(50, 70, 80, 80),   // 1 its OK button
            box(20, 20, 80, 30),   // 2 its title
            box(0, 95, 10, 100),   // 3 outside, below
        ]
        XCTAssertEqual(NavigationOrder.order(frames), [0, 2, 1, 3])
    }

    func testEqualBoxesDoNotEncloseEachOtherInACycle() {
        let frames = [box(0, 0, 10, 10), box(0, 0, 10, 10), box(0, 20, 10, 30)]
        XCTAssertEqual(NavigationOrder.order(frames), [0, 1, 2])
    }
}

final class NavigationOrderInsideGroupsTests: XCTestCase {
    /// The members of a group are put in XY-cut order like the top level, at every depth, whatever
    /// order they arrived in; groups are ordered among the top-level elements by their frames.
    func testTheSameOrderIsAppliedInsideEveryGroup() {
        var s = state([
            detection("text", box(200, 300, 380, 320)),   // 0 row 2, right
            detection("icon", box(20, 300, 60, 340)),     // 1 row 2, left
            detection("text", box(20, 100, 380, 120)),    // 2 row 1, second line
            detection("text", box(20, 60, 380, 80)),      // 3 row 1, first line
            detection("text", box(20, 20, 380, 40)),      // 4 a title above both
        ])
        // Members handed over out of order: the row's text before its icon, the second line before the first.
        let inner = s.group(.group, [s.elements[2], s.elements[3]])
        let innerID = inner.id
        let outer = s.group(.group, [s.elements[0], s.elements[1]])
        let lines = DescribedElement(id: s.takeID(), kind: .container, frame: box(10, 50, 390, 130), score: nil, source: .group, children: [inner])
        XCTAssertEqual(outer.children.map(\.id), [0, 1])
        XCTAssertEqual(inner.children.map(\.id), [2, 3])
        s.elements = [outer, lines, s.elements[4]]
        NavigationOrder.apply(&s, insideFraction: DescriptionConfig().insideFraction)
        XCTAssertEqual(s.elements.map { $0.children.isEmpty ? [$0.id] : $0.leaves.map(\.id) }, [[4], [3, 2], [1, 0]],
                       "the title, then the lines' container, then the row: top to bottom")
        XCTAssertEqual(s.elements[2].children.map(\.id), [1, 0], "the row's icon before its text: left to right")
        XCTAssertEqual(s.elements[1].children.map(\.id), [innerID])
        XCTAssertEqual(s.elements[1].children[0].children.map(\.id), [3, 2], "two levels down, the first line before the second")
    }
}

final class DialogFocusTests: XCTestCase {
    func testOnlyTheDialogAndWhatLiesInsideItAreDescribed() {
        let detections = [
            detection("text", box(20, 100, 200, 120)),            // 0 behind the dialog
            detection("dialog", box(50, 200, 350, 500), score: 0.8), // 1
            detection("text", box(70, 220, 330, 250)),            // 2 inside
            detection("icon", box(60, 480, 100, 520)),            // 3 half outside: not inside
        ]
        let screen = ScreenDescriber().describe(ScreenInput(imageID: "d", image: blank(400, 800), detections: detections, textLines: nil))
        XCTAssertEqual(screen.elements.map(\.id), [1, 2], "the dialog first, then what it encloses")

        var config = DescriptionConfig()
        config.dialogFocus.enabled = false
        let all = ScreenDescriber(config: config).describe(ScreenInput(imageID: "d", image: blank(400, 800), detections: detections, textLines: nil))
        XCTAssertEqual(all.elements.map(\.id), [0, 1, 2, 3])
    }
}
