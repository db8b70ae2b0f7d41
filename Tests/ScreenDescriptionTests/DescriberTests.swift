import Boxes
import Images
@testable import ScreenDescription
import TestSupport
import XCTest

/// A settings screen, 400 x 800: a large title, a row with an icon, a text, a value and a chevron,
/// a row with a switch, and a tab bar of three tabs whose middle one is tinted blue.
enum SettingsScreen {
    static let detections = [
        detection("text", box(20, 100, 200, 140)),               // 0 "Settings", 40 high
        detection("icon", box(16, 200, 45, 229)),                // 1
        detection("text", box(60, 204, 150, 226)),              // 2 "Wi-Fi"
        detection("text", box(280, 204, 340, 226)),             // 3 "Home"
        detection("icon", box(350, 208, 362, 222)),              // 4 chevron
        detection("text", box(60, 254, 220, 276)),              // 5 "Airplane Mode"
        detection("toggle_selected", box(330, 249, 381, 280)),   // 6
        detection("icon", box(40, 730, 64, 754), score: 0.8),    // 7 tab 1
        detection("text", box(30, 756, 75, 770), score: 0.7),    // 8 "Alarm"
        detection("icon", box(188, 730, 212, 754), score: 0.6),  // 9 tab 2
        detection("text", box(175, 756, 225, 770), score: 0.5),  // 10 "Timer"
        detection("icon", box(336, 730, 360, 754)),              // 11 tab 3
        detection("text", box(320, 756, 375, 770)),              // 12 "Stopwatch"
    ]
    static let lines = [
        line("Settings", box(22, 104, 198, 136)), line("Wi-Fi", box(62, 206, 148, 224)), line("Home", box(282, 206, 338, 224)),
        line("Airplane Mode", box(62, 256, 218, 274)), line("Alarm", box(32, 757, 73, 769)), line("Timer", box(177, 757, 223, 769)),
        line("Stopwatch", box(322, 757, 373, 769)),
    ]
    static var image: RGBImage {
        // Tabs drawn as an icon square and a bar of "ink" in their text box: grey, blue, grey.
        drawn(Size(width: 400, height: 800), [
            (box(40, 730, 64, 754), grey), (box(35, 759, 70, 767), grey),
            (box(188, 730, 212, 754), blue), (box(180, 759, 220, 767), blue),
            (box(336, 730, 360, 754), grey), (box(325, 759, 370, 767), grey),
        ])
    }
    static var input: ScreenInput { ScreenInput(imageID: "settings", image: image, detections: detections, textLines: lines) }
}

final class DescriberTests: XCTestCase {
    func testTheSettingsScreenEndToEnd() {
        let screen = ScreenDescriber().describe(SettingsScreen.input)
        XCTAssertEqual(screen.imageID, "settings")
        XCTAssertEqual(screen.size, Size(width: 400, height: 800))
        XCTAssertEqual(screen.elements.map(\.kind), [.text, .group, .group, .tabButton, .tabButton, .tabButton])
        XCTAssertEqual(leafIDs(screen.elements), [[0], [1, 2, 3, 4], [5, 6], [7, 8], [9, 10], [11, 12]])

        let title = screen.elements[0]
        XCTAssertEqual(title.label, "Settings")
        XCTAssertEqual(title.traits, [.header])

        let wifi = screen.elements[1]
        XCTAssertEqual(wifi.children.map(\.id), [1, 2, 3, 4], "members in navigation order")
        XCTAssertEqual(wifi.label, "Wi-Fi, Home")
        XCTAssertFalse(wifi.interactive)
        XCTAssertEqual(wifi.actions, [])
        XCTAssertEqual(wifi.source, .group)
        XCTAssertEqual(wifi.score, 0.9)
        XCTAssertEqual(wifi.frame, box(16, 200, 362, 229))

        let airplane = screen.elements[2]
        XCTAssertEqual(airplane.label, "Airplane Mode")
        XCTAssertTrue(airplane.interactive, "one switch in the row: the row acts as the switch")
        XCTAssertEqual(airplane.value, "on")
        XCTAssertEqual(airplane.selected, true)
        XCTAssertEqual(airplane.traits, [.button])
        XCTAssertEqual(airplane.actions, ["switch"])

        let tabs = Array(screen.elements[3...])
        XCTAssertEqual(tabs.map(\.label), ["Alarm", "Timer", "Stopwatch"])
        XCTAssertEqual(tabs.map(\.selected), [false, true, false])
        XCTAssertEqual(tabs.map(\.traits), [[.button], [.button, .selected], [.button]])
        XCTAssertEqual(tabs[1].score ?? 0, 0.55, accuracy: 1e-6, "the mean of its members' scores")
        XCTAssertEqual(tabs.map(\.actions), [[], [], []])

        XCTAssertEqual(SpokenText.utterances(for: screen), [
            "Settings, heading", "Wi-Fi, Home", "Airplane Mode, switch button, on",
            "Alarm, tab, 1 of 3", "Timer, tab, selected, 2 of 3", "Stopwatch, tab, 3 of 3",
        ])
        XCTAssertEqual(SpokenText.transcript(for: screen),
                       "Settings, heading. Wi-Fi, Home. Airplane Mode, switch button, on. Alarm, tab, 1 of 3. Timer, tab, selected, 2 of 3. Stopwatch, tab, 3 of 3.")
    }

    func testIdsAreUniqueAndDetectionsKeepTheirIndex() {
        let screen = ScreenDescriber().describe(SettingsScreen.input)
        func ids(_ e: DescribedElement) -> [Int] { [e.id] + e.children.flatMap(ids) }
        let all = screen.elements.flatMap(ids)
        XCTAssertEqual(Set(all).count, all.count)
        XCTAssertEqual(Set(screen.elements.flatMap(\.leaves).map(\.id)), Set(0..<13))
        XCTAssertTrue(screen.elements.filter { $0.source == .group }.allSatisfy { $0.id >= 13 })
    }

    func testWithoutOCRTextsHaveNoLabelAndTheTabBarStillForms() {
        var input = SettingsScreen.input
        input.textLines = nil
        let screen = ScreenDescriber().describe(input)
        XCTAssertEqual(screen.elements[0].label, "")
        XCTAssertEqual(screen.elements.filter { $0.kind == .tabButton }.map(\.selected), [false, true, false])
        XCTAssertEqual(SpokenText.utterances(for: screen)[4], "tab, selected, 2 of 3")
    }

    func testThePapersConfigLeavesOurRulesOut() {
        let screen = ScreenDescriber(config: .paper).describe(SettingsScreen.input)
        // No rows, no icon-text pairs, no headings: the row's pieces stand alone.
        XCTAssertEqual(leafIDs(screen.elements), [[0], [1], [2], [3], [4], [5], [6], [7, 8], [9, 10], [11, 12]])
        XCTAssertEqual(screen.elements[0].traits, [.staticText])
    }

    func testEveryStepCanBeSwitchedOff() {
        var config = DescriptionConfig()
        config.segmentedControls.enabled = false
        config.ocrText.enabled = false
        config.content.enabled = false
        config.interactivity.enabled = false
        config.headers.enabled = false
        config.dialogFocus.enabled = false
        config.grouping = DescriptionConfig.Grouping()
        for path in [\DescriptionConfig.Grouping.textLines.enabled, \.tabButtons.enabled, \.containers.enabled, \.pictureSubtitles.enabled,
                     \.iconCaptions.enabled, \.iconText.enabled, \.labelField.enabled, \.listRows.enabled] {
            config.grouping[keyPath: path] = false
        }
        config.selection.enabled = false
        config.navigationOrder.enabled = false
        config.statusBar.enabled = false
        config.emptyElements.enabled = false
        let screen = ScreenDescriber(config: config).describe(SettingsScreen.input)
        XCTAssertEqual(screen.elements.map(\.id), Array(0..<13), "detections as they came")
        XCTAssertTrue(screen.elements.allSatisfy { $0.label.isEmpty && !$0.interactive && $0.selected == nil })
    }
}
