import Boxes
import Foundation
@testable import ScreenDescription
import TestSupport
import XCTest

/// A screen stored at half its size (200 x 400 of 400 x 800), and a description of it with one
/// of each kind of error, every figure computed by hand.
enum MetricsFixture {
    static func truth() throws -> ScreenTruth {
        try ScreenTruth(
            imageID: "s", storedSize: Size(width: 200, height: 400), originalSize: Size(width: 400, height: 800),
            boxes: [
                box(10, 50, 100, 70),    // 0 text "Settings"
                box(8, 100, 22, 114),    // 1 icon     group 0
                box(30, 102, 75, 113),   // 2 text     group 0
                box(165, 125, 190, 140), // 3 toggle   group 1
                box(30, 127, 110, 138),  // 4 text     group 1
                box(20, 365, 32, 377),   // 5 icon     tab 2, not selected
                box(15, 378, 38, 385),   // 6 text     tab 2
                box(94, 365, 106, 377),  // 7 icon     tab 3, selected
                box(88, 378, 112, 385),  // 8 text     tab 3
                box(10, 200, 60, 215),   // 9 segment, selected
                box(60, 200, 110, 215),  // 10 segment, not selected
                box(10, 300, 100, 310),  // 11 text behind a dialog
            ],
            classNames: ["text", "icon", "text", "toggle_selected", "text", "icon", "text", "icon", "text", "segmented_control", "segmented_control", "text"],
            groupIndex: [-1, 0, 0, 1, 1, 2, 2, 3, 3, -1, -1, -1],
            navOrder: [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, -1],
            selected: [-1, -1, -1, 1, -1, 0, 0, 1, 1, 1, 0, -1],
            interactive: [0, 0, -1, 1, -1, 1, -1, 1, -1, 1, 1, 0],
            texts: ["Settings\n", "", "Wi-Fi", "", "Airplane", "", "Alarm", "", "Timer", "", "", "Behind"],
            groupKinds: ["", "group", "group", "group", "group", "tab_button", "tab_button", "tab_button", "tab_button", "", "", ""])
    }

    static func leaf(_ id: Int, _ kind: ElementKind, _ b: Box, _ label: String = "", score: Float? = 0.9, interactive: Bool = false, selected: Bool? = nil) -> DescribedElement {
        DescribedElement(id: id, kind: kind, frame: b, label: label, selected: selected, interactive: interactive, score: score, source: .detector)
    }

    static func group(_ id: Int, _ kind: ElementKind, selected: Bool? = nil, _ children: [DescribedElement]) -> DescribedElement {
        DescribedElement(id: id, kind: kind, frame: children.dropFirst().reduce(children[0].frame) { $0.union($1.frame) }, selected: selected,
                         score: nil, source: .group, children: children)
    }

    /// In original pixels (twice the stored ones).
    static let description = DescribedScreen(imageID: "s", width: 400, height: 800, elements: [
        leaf(0, .text, box(20, 100, 200, 140), "Settings"),
        // Wrongly takes Airplane (true group 1) into the Wi-Fi row (true group 0); its icon is called a button.
        group(20, .group, [leaf(1, .icon, box(16, 200, 44, 228), interactive: true), leaf(2, .text, box(60, 204, 150, 226), "Wi-Fi"),
                           leaf(4, .text, box(60, 254, 220, 276), "Airplane  ")]),
        leaf(3, .toggleSelected, box(330, 250, 380, 280), selected: true),
        group(21, .tabButton, selected: false, [leaf(5, .icon, box(40, 730, 64, 754), interactive: true), leaf(6, .text, box(30, 756, 76, 770), "Alram")]),
        group(22, .tabButton, selected: nil, [leaf(7, .icon, box(188, 730, 212, 754)), leaf(8, .text, box(176, 756, 224, 770), "Timer")]),
        // The segments in the wrong order: one order error.
        leaf(10, .segmentedControl, box(120, 400, 220, 430), selected: false),
        leaf(9, .segmentedControl, box(20, 400, 120, 430), selected: true),
        leaf(11, .text, box(20, 600, 200, 620), "Behind"),
    ])
}

final class MetricsTests: XCTestCase {
    func testLongestNonDecreasingSubsequenceCountsTies() {
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingSubsequence([]), 0)
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingSubsequence([1, 2, 2, 3]), 4)
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingSubsequence([2, 2, 2]), 3)
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingSubsequence([3, 1, 2, 2, 1]), 3)
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingSubsequence([5, 4, 3]), 1)
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingSubsequence([0, 1, 2, 3, 4, 6, 5]), 6)
    }

    func testTheLongestRunIsOneOfTheLongestAndTheRestAreOutOfOrder() {
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingRun([3, 1, 2, 2, 1]), [1, 2, 3])
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingRun([0, 1, 2, 3, 4, 6, 5]), [0, 1, 2, 3, 4, 6])
        XCTAssertEqual(DescriptionMetrics.longestNonDecreasingRun([]), [])
    }

    func testEachGroupingAndOrderErrorOutlinedInStoredPixels() throws {
        let truth = try MetricsFixture.truth()
        let m = try DescriptionMetrics.evaluate(MetricsFixture.description, against: truth)
        let e = try DescriptionMetrics.errors(MetricsFixture.description, against: truth)
        XCTAssertEqual(e.mixedGroups.count, m.incorrectlyGrouped)
        XCTAssertEqual(e.splitGroups.count, m.shouldHaveGrouped)
        XCTAssertEqual(e.outOfOrder.count, m.orderErrors)
        XCTAssertEqual(e.count, 3)
        // The Wi-Fi group (original 16,200-220,276, stored at half) mixes true group 0 (boxes 1, 2) and group 1's text (box 4).
        XCTAssertEqual(e.mixedGroups, [.init(frame: box(8, 100, 110, 138), parts: [box(8, 100, 75, 114), box(30, 127, 110, 138)])])
        // True group 1 (the toggle and its text) lies in the Wi-Fi group and the toggle.
        XCTAssertEqual(e.splitGroups, [.init(frame: box(30, 125, 190, 140), parts: [box(8, 100, 110, 138), box(165, 125, 190, 140)])])
        // Ranks 0, 1, 2, 3, 4, 6, 5: the segment of rank 6, sixth in the description, is the one out of order.
        XCTAssertEqual(e.outOfOrder, [.init(frame: box(60, 200, 110, 215), position: 6, rank: 6)])
        var wrongSize = MetricsFixture.description
        wrongSize.width = 300
        XCTAssertThrowsError(try DescriptionMetrics.errors(wrongSize, against: truth))
    }

    func testEditDistance() {
        XCTAssertEqual(DescriptionMetrics.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(DescriptionMetrics.editDistance("", "abc"), 3)
        XCTAssertEqual(DescriptionMetrics.editDistance("Alram", "Alarm"), 2)
        XCTAssertEqual(DescriptionMetrics.editDistance("Wi-Fi", "WiFi"), 1)
        XCTAssertEqual(DescriptionMetrics.editDistance("café", "cafe"), 1, "by characters")
    }

    func testEveryFigureOfOneScreenByHand() throws {
        let m = try DescriptionMetrics.evaluate(MetricsFixture.description, against: MetricsFixture.truth())
        XCTAssertEqual(m.boxes, 12)
        XCTAssertEqual(m.topLevelElements, 8)
        XCTAssertEqual(m.matchedBoxes, 12)
        XCTAssertEqual(m.predictedGroups, 3)
        XCTAssertEqual(m.incorrectlyGrouped, 1, "the Wi-Fi group holds true groups 0 and 1")
        XCTAssertEqual(m.shouldHaveGrouped, 1, "true group 1 lies in the Wi-Fi group and the toggle")
        XCTAssertEqual(m.groupingErrors, 2)
        // Ranks in predicted order: 0, min(1, 1, 2) = 1, 2, 3, 4, 6, 5; "Behind" (-1) is left out.
        XCTAssertEqual(m.orderedElements, 7)
        XCTAssertEqual(m.orderErrors, 1)
        XCTAssertEqual(m.tabButtonsCorrect, false, "tab 3 is selected but its state is unknown: wrong")
        XCTAssertEqual(m.segmentsCorrect, true)
        // Icons with a known truth: 1 (false, said true), 5 (true, said true), 7 (true, said false).
        XCTAssertEqual([m.iconTruePositives, m.iconFalsePositives, m.iconFalseNegatives], [1, 1, 1])
        XCTAssertEqual([m.iconButtons, m.iconButtonsLabelled], [2, 0], "icons 5 and 7 are true buttons, neither has a label")
        // "Alram" against "Alarm": 2 of 8 + 5 + 8 + 5 + 5 + 6 = 37 characters; whitespace collapsed and trimmed.
        XCTAssertEqual(m.textEditDistance, 2)
        XCTAssertEqual(m.textTrueLength, 37)
    }

    /// An icon button with a label (its type's, here) is one that says something; blank labels do not count.
    func testIconButtonsWithALabel() throws {
        var described = MetricsFixture.description
        described.elements[3].children[0].label = "Home"
        described.elements[4].children[0].label = "  "
        let m = try DescriptionMetrics.evaluate(described, against: MetricsFixture.truth())
        XCTAssertEqual([m.iconButtons, m.iconButtonsLabelled], [2, 1])
        let file = DescriptionMetricsFile([m, m])
        XCTAssertEqual(file.iconButtonsLabelled.value, 0.5)
        XCTAssertEqual([file.counts.iconButtons, file.counts.iconButtonsLabelled], [4, 2])
    }

    func testHigherScoresMatchFirstAndBoxesWithoutAScoreLast() throws {
        let truth = try ScreenTruth(imageID: "t", storedSize: Size(width: 100, height: 100), originalSize: Size(width: 100, height: 100),
                                    boxes: [box(0, 0, 10, 10)], classNames: ["text"], texts: ["b"])
        let screen = DescribedScreen(imageID: "t", width: 100, height: 100, elements: [
            MetricsFixture.leaf(0, .text, box(0, 0, 10, 10), "a", score: nil),  // exact, but without a score
            MetricsFixture.leaf(1, .text, box(0, 0, 10, 8), "b", score: 0.3),   // IoU 0.8, scored
            MetricsFixture.leaf(2, .icon, box(0, 0, 10, 10), "c", score: 0.99), // another class
        ])
        let m = try DescriptionMetrics.evaluate(screen, against: truth)
        XCTAssertEqual(m.matchedBoxes, 1)
        XCTAssertEqual(m.textEditDistance, 0, "the scored box took the true box")
        XCTAssertNil(m.incorrectlyGrouped, "no group_index: no grouping figures")
        XCTAssertNil(m.orderErrors)
        XCTAssertNil(m.tabButtonsCorrect)
    }

    func testAScreenWithNothingInOrderIsPerfect() throws {
        let truth = try ScreenTruth(imageID: "e", storedSize: Size(width: 100, height: 100), originalSize: Size(width: 100, height: 100),
                                    boxes: [box(0, 0, 10, 10)], classNames: ["text"], groupIndex: [-1], navOrder: [0], selected: [-1], interactive: [-1],
                                    texts: ["x"], groupKinds: [""])
        let m = try DescriptionMetrics.evaluate(DescribedScreen(imageID: "e", width: 100, height: 100, elements: []), against: truth)
        XCTAssertEqual(m.orderedElements, 0)
        XCTAssertEqual(m.orderErrors, 0)
        XCTAssertEqual(m.groupingErrors, 0)
        XCTAssertNil(m.tabButtonsCorrect)
        XCTAssertNil(m.segmentsCorrect)
    }

    func testTheDataSetsFiguresBesideThePapers() throws {
        let one = try DescriptionMetrics.evaluate(MetricsFixture.description, against: MetricsFixture.truth())
        let empty = try DescriptionMetrics.evaluate(
            DescribedScreen(imageID: "e", width: 100, height: 100, elements: []),
            against: ScreenTruth(imageID: "e", storedSize: Size(width: 100, height: 100), originalSize: Size(width: 100, height: 100),
                                 boxes: [], classNames: [], groupIndex: [], navOrder: [], selected: [], interactive: [], texts: [], groupKinds: []))
        let file = DescriptionMetricsFile([one, empty])
        XCTAssertEqual(file.screens, 2)
        XCTAssertEqual(file.groupingErrorsPerScreen, .init(value: 1, paper: 0.62))
        XCTAssertEqual(file.incorrectlyGroupedShare, .init(value: 1.0 / 3, paper: 0.056))
        XCTAssertEqual(file.elementReduction.value!, 1 - 8.0 / 12, accuracy: 1e-12)
        XCTAssertEqual(file.orderPerfectShare, .init(value: 0.5, paper: 0.737))
        XCTAssertEqual(file.orderWithinTenthShare, .init(value: 0.5, paper: 0.908), "1 error is not fewer than 7 / 10")
        XCTAssertEqual(file.orderMeanErrors, .init(value: 0.5, paper: 0.67))
        XCTAssertEqual(file.tabButtonSelection, .init(value: 0, paper: 0.905), "one screen has tab buttons")
        XCTAssertEqual(file.segmentSelection, .init(value: 1, paper: 0.736))
        XCTAssertEqual(file.iconButtonPrecision, .init(value: 0.5, paper: 0.9))
        XCTAssertEqual(file.iconButtonRecall, .init(value: 0.5, paper: 0.736))
        XCTAssertEqual(file.textCharacterErrorRate, .init(value: 2.0 / 37, paper: nil))
        XCTAssertEqual(file.counts.screensWithTabButtons, 1)

        let url = try scratchFolder(prefix: "uidetect-description-metrics").appendingPathComponent("metrics.json")
        try file.write(to: url)
        XCTAssertEqual(try DescriptionMetricsFile(contentsOf: url), file)
        let text = try String(contentsOf: url, encoding: .utf8).filter { !$0.isWhitespace }
        XCTAssertTrue(text.contains("\"text_character_error_rate\":{\"paper\":null,\"value\":0.05405405405405406}"), text)
        XCTAssertTrue(text.contains("\"tab_buttons_correct\":null"), "per-screen nulls are written")
    }

    func testDescriptionsArePairedWithTheirTruthByImageID() throws {
        let truth = try MetricsFixture.truth()
        XCTAssertEqual(try DescriptionMetrics.pair(descriptions: [MetricsFixture.description], truths: [truth]).count, 1)
        var other = MetricsFixture.description
        other.imageID = "unknown"
        XCTAssertThrowsError(try DescriptionMetrics.pair(descriptions: [other], truths: [truth])) { error in
            XCTAssertEqual(error as? ScreenTruthError, ScreenTruthError(imageID: "unknown", field: "image_id", problem: "no ground truth for this described screen"))
        }
        var resized = MetricsFixture.description
        resized.width = 390
        XCTAssertThrowsError(try DescriptionMetrics.evaluate(resized, against: truth)) { error in
            XCTAssertEqual((error as? ScreenTruthError)?.field, "original size")
        }
    }

    func testGroundTruthRowsAreChecked() {
        XCTAssertThrowsError(try ScreenTruth(imageID: "x", storedSize: Size(width: 10, height: 10), originalSize: Size(width: 10, height: 10),
                                             boxes: [box(0, 0, 1, 1)], classNames: ["text"], selected: [2])) { error in
            XCTAssertEqual(error as? ScreenTruthError, ScreenTruthError(imageID: "x", field: "selected", problem: "row 0: 2 is not -1, 0 or 1"))
        }
        XCTAssertThrowsError(try ScreenTruth(imageID: "x", storedSize: Size(width: 10, height: 10), originalSize: Size(width: 10, height: 10),
                                             boxes: [box(0, 0, 1, 1)], classNames: ["text"], navOrder: [0, 1])) { error in
            XCTAssertEqual(error as? ScreenTruthError, ScreenTruthError(imageID: "x", field: "nav_order", problem: "2 rows for 1 boxes"))
        }
    }

    func testIconExamplesComeFromTrueIconsWithAKnownInteractivity() throws {
        let examples = try MetricsFixture.truth().iconExamples()
        XCTAssertEqual(examples.map(\.interactive), [false, true, true])
        // Icon 1 in original pixels is (16, 200, 44, 228) on 400 x 800.
        XCTAssertEqual(examples[0].features.values[0], 30.0 / 400, accuracy: 1e-6)
        XCTAssertEqual(examples[0].features.values[1], 214.0 / 800, accuracy: 1e-6)
    }
}
