import Boxes
import IconVocabulary
import Images
@testable import ScreenDescription
import TestSupport
import XCTest

final class SegmentCompletionTests: XCTestCase {
    let detections = [
        detection("segmented_control", box(20, 100, 140, 130)),  // 0
        detection("segmented_control", box(140, 100, 260, 130)), // 1
        detection("text", box(285, 106, 335, 124)),  // 2 the missed third segment's text: 25 from segment 1 (120 wide)
        detection("text", box(500, 106, 560, 124)),  // 3 on the row but 130 from the new segment (110 wide)
        detection("text", box(40, 106, 100, 124)),   // 4 inside segment 0
        detection("text", box(20, 140, 100, 160)),   // 5 below the row
    ]

    func testATextOnTheRowOfASegmentedControlBecomesASegment() {
        var s = state(detections, size: Size(width: 600, height: 800))
        SegmentCompletion(config: .init(), insideFraction: 0.9).apply(&s)
        XCTAssertEqual(s.elements.map(\.kind), [.segmentedControl, .segmentedControl, .segmentedControl, .text, .text, .text])
        // Segment 1's size centred on the text (250...370), cut back at segment 1's right edge.
        XCTAssertEqual(s.elements[2].frame, box(260, 100, 370, 130))
        XCTAssertEqual(s.elements[2].score, 0.9)
    }

    func testThePapersRowIsTheWholeRow() {
        var s = state(detections, size: Size(width: 600, height: 800))
        SegmentCompletion(config: DescriptionConfig.paper.segmentedControls, insideFraction: 0.9).apply(&s)
        XCTAssertEqual(s.elements.map(\.kind), [.segmentedControl, .segmentedControl, .segmentedControl, .segmentedControl, .text, .text])
        XCTAssertEqual(s.elements[2].frame, box(285, 106, 335, 124), "the text's own box")
    }
}

final class ContentTests: XCTestCase {
    func testOCRLinesOverlappingNoDetectionBecomeTexts() {
        var s = state([detection("text", box(20, 100, 200, 120)), detection("container", box(0, 0, 400, 800))])
        OCRTextAddition(config: .init()).apply(&s, lines: [
            line("Hello", box(22, 102, 198, 118)),                   // overlaps the text
            line("New line", box(20, 300, 150, 320), confidence: 0.9), // overlaps only the container
            line("garbage", box(20, 400, 60, 420), confidence: 0.3),   // below 0.6
            line("  spaced \n out ", box(20, 500, 200, 520), confidence: 0.8),
            line("   ", box(20, 600, 200, 620)),                        // nothing to say
        ])
        XCTAssertEqual(s.elements.map(\.id), [0, 1, 2, 3])
        XCTAssertEqual(s.elements[2...].map(\.label), ["New line", "spaced out"])
        XCTAssertEqual(s.elements[2...].map(\.source), [.ocr, .ocr])
        XCTAssertEqual(s.elements[2...].map(\.score), [nil, nil])
    }

    func testTextsTakeTheLinesMostlyInsideThemInReadingOrder() {
        var s = state([
            detection("text", box(20, 100, 300, 140)),
            detection("text_field", box(20, 200, 380, 240)),
            detection("segmented_control", box(20, 300, 140, 330)),
            detection("text", box(20, 400, 300, 420)),
        ])
        let lines = [
            line("world", box(120, 102, 200, 118)), line("again", box(22, 122, 100, 138)), line("Hello", box(22, 103, 110, 118)),
            line("out", box(280, 102, 400, 118)),  // 17% inside: not this text's
            line("S@X.Se2", box(22, 122, 100, 138), confidence: 0.14),  // unreadable: left out
            line("Search", box(30, 210, 100, 230)), line("Day", box(60, 305, 100, 325)),
        ]
        ContentAssignment(config: .init()).apply(&s, lines: lines, image: blank(400, 800))
        XCTAssertEqual(s.elements.map(\.label), ["Hello world again", "", "Day", ""])
        XCTAssertEqual(s.elements[1].value, "Search")
        XCTAssertEqual(s.searchFields, [1])
        XCTAssertEqual(s.lineCounts, [0: 2, 3: 0])
    }

    func testNamedIconsSayTheirTypesLabelAndPicturesTheirCaption() {
        struct Caption: PictureDescriber {
            func describePicture(in image: RGBImage, frame: Box) -> String? { "a  cat" }
        }
        let back = IconVocabulary.type(named: "back")!, menu = IconVocabulary.type(named: "menu")!
        var named = detection("icon", box(10, 50, 30, 70))
        (named.iconType, named.iconGuess) = (back, back)
        // Below the classifier's threshold: unnamed, but its best guess still feeds the interactivity model.
        var unnamed = detection("icon", box(300, 50, 320, 70))
        unnamed.iconGuess = menu
        var s = state([named, unnamed, detection("picture", box(20, 200, 200, 300))])
        ContentAssignment(config: .init(), pictureDescriber: Caption()).apply(&s, lines: [], image: blank(400, 800))
        XCTAssertEqual(s.elements.map(\.label), ["Back", "", "a cat"])
        XCTAssertEqual(s.elements.map(\.iconType), [back, nil, nil])
        XCTAssertEqual(s.iconGuesses, [0: back, 1: menu])
    }

    func testLargeSingleLineTextsAndTheCentredTopBarTitleAreHeadings() {
        var s = state([
            detection("text", box(20, 10, 60, 24)),     // 0 status bar time, 14 high, not centred
            detection("text", box(150, 60, 250, 80)),   // 1 centred in the top bar (y <= 96)
            detection("text", box(20, 100, 200, 140)),  // 2 40 high
            detection("text", box(20, 200, 200, 222)),  // 3
            detection("text", box(20, 250, 200, 272)),  // 4
            detection("text", box(20, 300, 200, 340)),  // 5 40 high but two lines
        ])
        s.lineCounts = [5: 2]
        // Heights 14, 20, 40, 22, 22, 40: the median is 22, and 40 >= 1.4 x 22 = 30.8.
        HeaderDetection(config: .init()).apply(&s)
        XCTAssertEqual(s.headers, [1, 2])
    }
}

final class InteractivityTests: XCTestCase {
    /// A one-split model: an icon in the top bar is a button (logit +5), elsewhere not (-5).
    let model = IconInteractivityModel(
        booster: BoostedTrees(bias: 0, trees: [RegressionTree(nodes: [.split(feature: 7, threshold: 0.5, left: 1, right: 2), .leaf(value: -5), .leaf(value: 5)])]),
        parameters: .init(), targetPrecision: 0.9,
        validation: PrecisionThreshold(threshold: 0.5, precision: 1, recall: 1, truePositives: 1, falsePositives: 0, positives: 1))

    func testControlsAreInteractiveByClassAndIconsByTheModel() {
        var s = state([
            detection("text_field", box(20, 200, 380, 240)), detection("slider", box(20, 300, 380, 320)),
            detection("icon", box(10, 50, 30, 70)),    // in the top bar (y <= 96)
            detection("icon", box(10, 400, 30, 420)),
            detection("text", box(40, 400, 200, 420)), detection("picture", box(20, 500, 200, 600)),
        ])
        InteractivityAssignment(model: model).apply(&s)
        XCTAssertEqual(s.elements.map(\.interactive), [true, true, true, false, false, false])
        XCTAssertEqual(s.iconDecided, [2, 3])
        Roles().apply(&s)
        XCTAssertEqual(s.elements.map(\.traits), [[], [.adjustable], [.button], [.image], [.staticText], [.image]])

        var unknown = state([detection("icon", box(10, 50, 30, 70))])
        InteractivityAssignment(model: nil).apply(&unknown)
        Roles().apply(&unknown)
        XCTAssertEqual(unknown.elements[0].interactive, false)
        XCTAssertEqual(unknown.elements[0].traits, [], "without a model an icon is neither a button nor an image")
    }

    /// Step 5: every control class of the spec is interactive by its class alone, without a model;
    /// texts, pictures, containers and dialogs are not.
    func testEveryControlClassIsInteractiveByClass() {
        let controls = ["text_field", "toggle_selected", "toggle_unselected", "checkbox_selected", "checkbox_unselected",
                        "slider", "page_control", "segmented_control"]
        let others = ["text", "picture", "container", "dialog"]
        var s = state((controls + others).enumerated().map { i, name in detection(name, box(20, Float(40 * i), 200, Float(40 * i + 30))) })
        InteractivityAssignment(model: nil).apply(&s)
        XCTAssertEqual(s.elements.map(\.interactive), controls.map { _ in true } + others.map { _ in false })
    }

    func testIconFeaturesByHand() {
        // A 40 x 20 icon centred at (100, 780) on 400 x 800, a text 30 px to its right, one more element on its row.
        let f = IconFeatures(icon: box(80, 770, 120, 790), screen: Size(width: 400, height: 800),
                             neighbours: [(.text, box(150, 772, 300, 788)), (.container, box(0, 700, 400, 800)), (.picture, box(0, 0, 400, 300))],
                             iconType: nil)
        let diagonal = (400.0 * 400 + 800 * 800).squareRoot()
        let expected = [0.25, 0.975, 0.1, 0.025, 0.0025, 2, 30 / diagonal, 0, 1, 1, -1]
        for (name, (got, want)) in zip(IconFeatures.names, zip(f.values, expected)) { XCTAssertEqual(got, want, accuracy: 1e-9, name) }
    }
}
