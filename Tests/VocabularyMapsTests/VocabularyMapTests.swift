import Boxes
import Foundation
import VocabularyMaps
import XCTest

/// Vocabulary map files: the shipped ones equal the built-ins, and bad files are refused naming the file and the class.
final class VocabularyMapTests: XCTestCase {
    /// `Configs/vocabularies/` beside this repository's sources.
    static let configs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Configs/vocabularies")

    func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vocabulary-\(UUID().uuidString).yaml")
        try Data(text.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func refusal(_ text: String, file line: UInt = #line) throws -> (VocabularyMapError, String) {
        let url = try file(text)
        do {
            _ = try VocabularyMap(contentsOf: url)
        } catch let error as VocabularyMapError {
            return (error, url.path)
        }
        XCTFail("\(text) was accepted", line: line)
        throw XCTSkip("accepted")
    }

    func testTheShippedFilesAreTheBuiltInMaps() throws {
        let real = try VocabularyMap(contentsOf: Self.configs.appendingPathComponent("real-ui.yaml"))
        XCTAssertEqual(real.classes, VocabularyMap.realUI.classes)
        XCTAssertEqual(real.classes.count, 19)
        let standard = try VocabularyMap(contentsOf: Self.configs.appendingPathComponent("default.yaml"))
        XCTAssertEqual(standard.classes, VocabularyMap.defaultVocabulary.classes)
        // What the map writes reads back the same.
        XCTAssertEqual(try VocabularyMap(contentsOf: try file(VocabularyMap.realUI.yaml())).classes, VocabularyMap.realUI.classes)
    }

    func testEntriesCarryWhatTheKindImplies() throws {
        let map = try VocabularyMap(contentsOf: try file("classes:\n  Btn: button\n  Glyph: {kind: icon, interactive: true}\n  Box: {kind: text_field, interactive: false}\n  Pic: picture\n"))
        XCTAssertEqual(map.entry("Btn"), .init(.button, interactive: true))
        XCTAssertEqual(map.entry("Glyph"), .init(.icon, interactive: true))
        XCTAssertEqual(map.entry("Box")?.interactive, false, "the file may say less than the kind")
        XCTAssertEqual(map.entry("Pic")?.interactive, false)
        XCTAssertNil(map.entry("Other"))
    }

    func testAnUnknownKindIsNamedWithItsClassAndFile() throws {
        let (error, path) = try refusal("classes:\n  Text: text\n  Submit: buton\n")
        XCTAssertEqual(error.path, path)
        XCTAssertEqual(error.className, "Submit")
        XCTAssertTrue(error.description.contains("unknown kind 'buton'") && error.description.contains("button"), error.description)
    }

    func testAClassMappedTwiceIsNamed() throws {
        let (error, path) = try refusal("classes:\n  Text: text\n  Icon: icon\n  Text: button\n")
        XCTAssertEqual(error.path, path)
        XCTAssertEqual(error.className, "Text")
        XCTAssertTrue(error.description.contains("mapped twice") && error.description.contains("lines 2 and 4"), error.description)
    }

    func testOtherBadFilesAreRefused() throws {
        XCTAssertEqual(try refusal("names: [a]\n").0.className, nil)
        XCTAssertEqual(try refusal("classes:\n  A: {kind: icon, clickable: true}\n").0.className, "A")
        XCTAssertEqual(try refusal("classes:\n  A: {kind: icon, interactive: maybe}\n").0.className, "A")
        XCTAssertEqual(try refusal("classes:\n  A: [icon]\n").0.className, "A")
        XCTAssertTrue(try refusal("classes: [").0.description.contains("not valid YAML"))
    }

    func testAVocabularyWithoutAMappingIsNamedByItsClass() throws {
        XCTAssertEqual(try VocabularyMap.builtIn(for: ["text", "icon"], of: "d").name, VocabularyMap.defaultVocabulary.name)
        XCTAssertEqual(try VocabularyMap.builtIn(for: ["Text", "UpperTaskBar"], of: "d").name, VocabularyMap.realUI.name)
        XCTAssertThrowsError(try VocabularyMap.builtIn(for: ["Text", "Icon", "Slider"], of: "the detector x.safetensors")) { error in
            let e = error as! VocabularyMapError
            XCTAssertEqual(e.className, "Slider")
            XCTAssertTrue(e.description.contains("the detector x.safetensors") && e.description.contains("--vocabulary-map"), e.description)
        }
        let url = try file("classes:\n  Text: text\n")
        XCTAssertThrowsError(try VocabularyMap.resolve(file: url.path, classNames: ["Text", "Icon"], of: "the detector")) { error in
            let e = error as! VocabularyMapError
            XCTAssertEqual(e.path, url.path)
            XCTAssertEqual(e.className, "Icon")
        }
    }

    func testInteractiveTruthFromClassesAndBars() {
        let boxes = [
            Box(xMin: 0, yMin: 0, xMax: 100, yMax: 20),    // 0 Toolbar
            Box(xMin: 80, yMin: 2, xMax: 96, yMax: 18),    // 1 Icon in the toolbar: an action
            Box(xMin: 10, yMin: 50, xMax: 26, yMax: 66),   // 2 Icon elsewhere: unknown
            Box(xMin: 10, yMin: 80, xMax: 60, yMax: 100),  // 3 TextButton
            Box(xMin: 10, yMin: 110, xMax: 60, yMax: 130), // 4 Text
            Box(xMin: 0, yMin: 180, xMax: 100, yMax: 200), // 5 Bottom_Navigation
            Box(xMin: 40, yMin: 182, xMax: 56, yMax: 198), // 6 Icon, a tab
            Box(xMin: 30, yMin: 182, xMax: 70, yMax: 198), // 7 Text in the bar: unknown (only icons are decided)
        ]
        let names = ["Toolbar", "Icon", "Icon", "TextButton", "Text", "Bottom_Navigation", "Icon", "Text"]
        XCTAssertEqual(InteractiveTruth.derive(boxes: boxes, classNames: names, map: .realUI), [-1, 1, -1, 1, -1, -1, 1, -1])
    }
}
