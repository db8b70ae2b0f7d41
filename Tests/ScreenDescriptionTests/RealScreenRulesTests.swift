import Boxes
import Foundation
import Images
@testable import ScreenDescription
import VocabularyMaps
import TestSupport
import XCTest

/// Issue 28's rules on hand-made screens: a detector of another vocabulary through its map, the
/// status bar apart from the order, elements with nothing to say, and switch states from pixels.
final class RealScreenRulesTests: XCTestCase {
    let size = Size(width: 400, height: 800)

    func describe(_ detections: [ElementDetection], lines: [TextLine]?, image: RGBImage? = nil, iconsNamed: Bool = false,
                  vocabulary: VocabularyMap = .realUI) -> DescribedScreen {
        ScreenDescriber(vocabulary: vocabulary).describe(ScreenInput(imageID: "s", image: image ?? blank(400, 800), detections: detections,
                                                                     textLines: lines, iconsNamed: iconsNamed))
    }

    // MARK: status bar

    func testADetectedStatusBarIsOneElementOutsideTheOrder() {
        let screen = describe([
            detection("UpperTaskBar", box(0, 0, 400, 24)),
            detection("Icon", box(360, 4, 376, 20)),            // battery, inside the bar
            detection("Text", box(20, 60, 200, 90)),
        ], lines: [line("wT %", box(300, 4, 350, 20), confidence: 0.2), line("9:41", box(8, 4, 40, 20)), line("Inbox", box(22, 62, 198, 88))])
        let bar = try! XCTUnwrap(screen.statusBar)
        XCTAssertEqual(bar.kind, .statusBar)
        XCTAssertEqual(bar.label, "9:41", "the time, and no word read with little confidence")
        XCTAssertEqual(bar.leaves.map(\.id), [0, 1], "the bar's own box and the icon inside it")
        XCTAssertFalse(bar.interactive || bar.leaves.contains(where: \.interactive))
        XCTAssertEqual(screen.elements.map(\.label), ["Inbox"], "the status bar is not in the navigation order")
        XCTAssertEqual(SpokenText.utterance(for: bar), "9:41")
    }

    func testTheTopStripIsRecognisedFromItsLayout() {
        // The default vocabulary has no status-bar class: a time at the left and glyphs at the right of the top strip.
        let detections = [
            detection("text", box(10, 8, 50, 30)),     // 9:41
            detection("icon", box(330, 10, 350, 28)),  // Wi-Fi
            detection("icon", box(356, 10, 390, 28)),  // battery
            detection("text", box(20, 100, 300, 140)), // a title well below
        ]
        let lines = [line("9:41", box(12, 10, 48, 28)), line("Settings", box(22, 102, 298, 138))]
        let screen = describe(detections, lines: lines, vocabulary: .defaultVocabulary)
        let bar = try! XCTUnwrap(screen.statusBar)
        XCTAssertEqual(bar.label, "9:41")
        XCTAssertEqual(bar.frame, box(0, 0, 400, 38))
        XCTAssertEqual(bar.source, .group)
        XCTAssertEqual(bar.children.map(\.id), [0, 1, 2])
        XCTAssertEqual(screen.elements.map(\.id), [3])

        // Something else reaching into the strip (a title bar's text) means it is the app's: no status bar.
        let crowded = describe(detections + [detection("text", box(150, 20, 250, 60))], lines: lines, vocabulary: .defaultVocabulary)
        XCTAssertNil(crowded.statusBar)
        // Switched off, the glyphs stay in the order as before.
        var describer = ScreenDescriber()
        describer.config.statusBar.enabled = false
        XCTAssertNil(describer.describe(ScreenInput(imageID: "s", image: blank(400, 800), detections: detections, textLines: lines)).statusBar)
    }

    // MARK: nothing to say

    func testElementsWithNothingToSayAreNotSpoken() {
        let detections = [
            detection("text", box(20, 100, 300, 130)),   // 0: OCR reads nothing here
            detection("text", box(20, 230, 300, 260)),   // 1: "Hello", apart from it
            detection("picture", box(20, 300, 200, 400)), // 2: unlabelled picture, alone
        ]
        let lines = [line("Hello", box(22, 232, 120, 258))]
        let read = describe(detections, lines: lines, vocabulary: .defaultVocabulary)
        XCTAssertEqual(read.elements.map(\.id), [1, 2], "a text with no words is dropped; the picture stays")
        XCTAssertEqual(SpokenText.utterances(for: read), ["Hello", "image"])
        // Without OCR a text's words are unknown, not absent: it stays.
        XCTAssertEqual(describe(detections, lines: nil, vocabulary: .defaultVocabulary).elements.count, 3)
        // Switched off, the empty text is spoken as before.
        var describer = ScreenDescriber()
        describer.config.emptyElements.enabled = false
        XCTAssertEqual(describer.describe(ScreenInput(imageID: "s", image: blank(400, 800), detections: detections, textLines: lines)).elements.count, 3)
    }

    // MARK: the real-screen vocabulary

    func testAButtonBoxedWithItsIconAndTextIsOneButton() {
        let screen = describe([
            detection("TextImageButton", box(100, 300, 300, 350)),
            detection("Icon", box(110, 310, 140, 340)),
            detection("Text", box(150, 312, 220, 338)),
            detection("TextButton", box(100, 400, 300, 440)),
        ], lines: [line("Share", box(152, 314, 218, 336)), line("Sign in", box(150, 405, 250, 435))])
        XCTAssertEqual(SpokenText.utterances(for: screen), ["Share, button", "Sign in, button"])
        XCTAssertEqual(screen.elements[0].leaves.map(\.id), [0, 1, 2])
        XCTAssertTrue(screen.elements.allSatisfy(\.interactive))
        XCTAssertEqual(screen.elements[0].actions, [], "activated as a whole")
    }

    func testBarsTheDetectorBoxedSayWhatTheirIconsAre() {
        let screen = describe([
            detection("Toolbar", box(0, 30, 400, 90)),
            detection("Icon", box(10, 45, 40, 75)),          // back
            detection("Text", box(60, 45, 200, 75)),         // title
            detection("Icon", box(350, 45, 380, 75)),        // an action
            detection("Bottom_Navigation", box(0, 720, 400, 800)),
            detection("Icon", box(50, 735, 80, 765)),
            detection("Icon", box(185, 735, 215, 765)),
            detection("Icon", box(320, 735, 350, 765)),
            detection("Icon", box(100, 400, 130, 430)),      // an icon in the content: unknown without a model
        ], lines: [line("Inbox", box(62, 47, 198, 73))])
        let said = SpokenText.utterances(for: screen)
        XCTAssertEqual(said.filter { $0.hasPrefix("tab") }, ["tab, 1 of 3", "tab, 2 of 3", "tab, 3 of 3"])
        XCTAssertTrue(said.contains("Inbox, heading"), "\(said)")
        XCTAssertEqual(said.filter { $0 == "button" }.count, 2, "the toolbar's icons are buttons: \(said)")
        XCTAssertTrue(said.contains("icon"), "an icon elsewhere stays undecided")
    }

    func testTheDetectorsOwnTabBarReplacesTheHeuristic() {
        // Two icons at the bottom that the paper's heuristic would take for a tab bar: this detector boxes bars, and boxed none.
        let screen = describe([detection("Icon", box(50, 740, 80, 770)), detection("Icon", box(320, 740, 350, 770)),
                               detection("Text", box(20, 100, 300, 130))], lines: [line("Hi", box(22, 102, 100, 128))])
        XCTAssertFalse(screen.elements.contains { $0.kind == .tabButton })
    }

    func testAListKeepsItsRowsApartAndAnOpenDrawerHidesTheScreen() {
        let rows = [box(20, 200, 380, 230), box(20, 260, 380, 290), box(20, 320, 380, 350)]
        let lines = zip(["Wi-Fi", "Bluetooth", "Display"], rows).map { line($0, box($1.xMin + 2, $1.yMin + 2, 200, $1.yMax - 2)) }
        let list = describe([detection("List", box(0, 180, 400, 400))] + rows.map { detection("Text", $0) }, lines: lines)
        XCTAssertEqual(SpokenText.utterances(for: list), ["Wi-Fi", "Bluetooth", "Display"], "each row its own element")
        let drawer = describe([detection("Drawer", box(0, 0, 300, 800)), detection("Text", box(20, 200, 200, 230)),
                               detection("Text", box(320, 200, 390, 230))], lines: [line("Inbox", box(22, 202, 120, 228)), line("Behind", box(322, 202, 388, 228))])
        let said = SpokenText.utterances(for: drawer)
        XCTAssertTrue(said.contains("Inbox") && !said.contains("Behind"), "what lies behind the open drawer is not reachable: \(said)")
    }

    func testSwitchesOfAVocabularyWithoutStatesReadThePixels() {
        let on = box(300, 100, 350, 130), off = box(300, 200, 350, 230), bare = box(300, 300, 350, 330)
        let image = drawn(size, [(box(302, 104, 348, 126), RGB(52, 199, 89)), (box(302, 204, 348, 226), RGB(200, 200, 200))])
        let screen = describe([detection("Switch", on), detection("Switch", off), detection("Switch", bare)], lines: nil, image: image)
        XCTAssertEqual(screen.elements.map(\.selected), [true, false, nil], "tinted track on, grey track off, nothing drawn: unknown")
        XCTAssertEqual(screen.elements.map(\.value), ["on", "off", nil])
        XCTAssertEqual(SpokenText.utterances(for: screen), ["switch button, on", "switch button, off", "switch button"])
    }

    func testACheckedTextViewSpeaksItsTextAndItsMark() {
        let row = box(20, 100, 380, 140)
        let image = drawn(size, [(box(345, 105, 375, 135), blue)])  // a filled, tinted box at the row's end
        let screen = describe([detection("CheckedTextView", row), detection("Text", box(30, 108, 200, 132))],
                              lines: [line("Months", box(32, 110, 198, 130))], image: image)
        XCTAssertEqual(SpokenText.utterances(for: screen), ["Months, checkbox, on"])
    }

    func testACheckboxAtTheRowsStartIsReadThereAndTextAtItsEndSaysNothing() {
        // An empty outlined box at the start of the row, then the text, its last letters at the row's end.
        let outline = [box(26, 106, 54, 109), box(26, 131, 54, 134), box(26, 106, 29, 134), box(51, 106, 54, 134)].map { ($0, grey) }
        let letters = [box(330, 110, 333, 130), box(340, 110, 343, 130), box(340, 110, 352, 113), box(360, 110, 363, 130)].map { ($0, black) }
        let image = drawn(size, outline + letters)
        let screen = describe([detection("CheckedTextView", box(20, 100, 380, 140))], lines: nil, image: image)
        XCTAssertEqual(screen.elements.map(\.selected), [false], "the box is empty; the letters are no mark")
        let unknown = describe([detection("CheckedTextView", box(20, 100, 380, 140))], lines: nil, image: drawn(size, letters))
        XCTAssertEqual(unknown.elements.map(\.selected), [nil], "no mark at either end: unknown, not guessed")
    }

    // MARK: the file

    func testTheStatusBarRoundTripsThroughTheFile() throws {
        let screen = describe([detection("UpperTaskBar", box(0, 0, 400, 24)), detection("Text", box(20, 60, 200, 90))],
                              lines: [line("12:30", box(8, 4, 48, 20)), line("Inbox", box(22, 62, 198, 88))])
        let data = try DescriptionFile.encode([screen])
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"status_bar\": {"))
        XCTAssertEqual(try DescriptionFile.decode(data, path: "mem"), [screen])
        let none = DescribedScreen(imageID: "n", width: 4, height: 8, elements: [])
        XCTAssertTrue(String(decoding: try DescriptionFile.encode([none]), as: UTF8.self).contains("\"status_bar\": null"))
        // Files written before the status bar stood apart still read.
        XCTAssertEqual(try DescriptionFile.decode(Data(#"[{"image_id": "n", "width": 4, "height": 8, "elements": []}]"#.utf8), path: "old"), [none])
    }

    // MARK: metrics

    func testInteractivityRecallCountsEveryKnownInteractiveBox() throws {
        // Truth in the real vocabulary: a TextButton (1), an Icon (unknown) and an EditText (1) that the description missed.
        let truth = try ScreenTruth(imageID: "s", storedSize: size, originalSize: size,
                                    boxes: [box(100, 400, 300, 440), box(10, 10, 30, 30), box(10, 600, 300, 640)],
                                    classNames: ["TextButton", "Icon", "EditText"], interactive: [1, -1, 1]).describing(through: .realUI)
        let screen = describe([detection("TextButton", box(100, 400, 300, 440)), detection("Icon", box(10, 10, 30, 30))],
                              lines: [line("Go", box(110, 405, 200, 435))])
        let m = try DescriptionMetrics.evaluate(screen, against: truth)
        XCTAssertEqual(m.interactiveTruePositives, 1)
        XCTAssertEqual(m.interactiveFalseNegatives, 1)
        XCTAssertEqual(m.interactiveKnownNegatives, 0)
        let file = DescriptionMetricsFile([m])
        XCTAssertEqual(file.interactiveRecall.value, 0.5)
        XCTAssertNil(file.interactivePrecision.value, "no box is known not to be interactive")
    }
}
