import Boxes
import Foundation
@testable import ScreenDescription
import TestSupport
import XCTest

final class DescriptionFileTests: XCTestCase {
    func testWritesTheSpecsKeysInTheSpecsOrderWithNulls() throws {
        let screen = DescribedScreen(imageID: "scr-0001", width: 1170, height: 2532, elements: [
            DescribedElement(id: 0, kind: .text, frame: box(32, 120.5, 410, 168), label: "Settings", traits: [.header], score: 0.91, source: .detector),
        ])
        let text = String(decoding: try DescriptionFile.encode([screen]), as: UTF8.self)
        let keys = ["\"image_id\"", "\"width\"", "\"height\"", "\"elements\"", "\"id\"", "\"kind\"", "\"frame\"", "\"label\"", "\"value\"",
                    "\"traits\"", "\"selected\"", "\"interactive\"", "\"score\"", "\"source\"", "\"children\"", "\"actions\""]
        let positions = keys.map { text.range(of: $0)?.lowerBound }
        XCTAssertFalse(positions.contains(nil), text)
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), "keys in the spec's order: \(text)")
        let compact = text.filter { !$0.isWhitespace }
        XCTAssertTrue(compact.contains("\"value\":null,"), text)
        XCTAssertTrue(compact.contains("\"selected\":null,"), text)
        XCTAssertTrue(text.contains("\"frame\": [32.0, 120.5, 410.0, 168.0],"), "as the spec writes it: \(text)")
        XCTAssertTrue(compact.contains("\"score\":0.91,"), text)
        XCTAssertTrue(compact.contains("\"traits\":[\"header\"]"), text)
    }

    func testADescribedScreenSurvivesAWriteAndARead() throws {
        var screen = ScreenDescriber().describe(SettingsScreen.input)
        screen.elements[0].label = "Quote \" backslash \\ tab \t bell \u{7} café"
        let url = try scratchFolder(prefix: "uidetect-description").appendingPathComponent("roundtrip.json")
        try DescriptionFile.write([screen, screen], to: url)
        XCTAssertEqual(try DescriptionFile.read(from: url), [screen, screen])
        // Foundation's encoder, through the Codable conformance, writes the same content.
        XCTAssertEqual(try DescriptionFile.decode(JSONEncoder().encode([screen]), path: "codable"), [screen])
    }

    func testAFrameThatIsNotFiniteIsNotWritten() {
        let screen = DescribedScreen(imageID: "x", width: 10, height: 10, elements: [
            DescribedElement(id: 0, kind: .text, frame: box(0, 0, .infinity, 1), score: 0.5, source: .detector),
        ])
        XCTAssertThrowsError(try DescriptionFile.encode([screen], path: "o.json")) { error in
            XCTAssertEqual((error as? DescriptionFileError)?.position, "[0].elements[0].frame")
        }
    }

    /// An element as the spec writes it, with `change` applied to its JSON text.
    func element(_ id: Int, _ extra: String = "", children: String = "[]", source: String = "detector", traits: String = "[]", frame: String = "[0, 0, 10, 10]") -> String {
        """
        {"id": \(id), "kind": "icon", "frame": \(frame), "label": "", "value": null, "traits": \(traits),
         "selected": null, "interactive": false, "score": 0.5, "source": "\(source)", "children": \(children), "actions": []\(extra)}
        """
    }

    func problem(_ elements: [String]) -> (position: String, problem: String)? {
        let json = "[{\"image_id\": \"a\", \"width\": 10, \"height\": 20, \"elements\": []}, {\"image_id\": \"b\", \"width\": 10, \"height\": 20, \"elements\": [\(elements.joined(separator: ","))]}]"
        do {
            _ = try DescriptionFile.decode(Data(json.utf8), path: "d.json")
            return nil
        } catch let error as DescriptionFileError {
            XCTAssertEqual(error.path, "d.json")
            return (error.position, error.problem)
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testTheHandWrittenElementIsValid() {
        XCTAssertNil(problem([element(0), element(1)]))
        XCTAssertNil(problem([element(3, children: "[\(element(1)), \(element(2))]", source: "group")]))
    }

    func testAFileThatDoesNotMatchTheSpecNamesTheElementsPath() {
        let missing = element(1).replacingOccurrences(of: "\"traits\": [],", with: "")
        XCTAssertEqual(problem([element(0), missing])?.position, "[1].elements[1].traits")
        XCTAssertEqual(problem([element(0), missing])?.problem, "is missing")

        let nullValueMissing = element(0).replacingOccurrences(of: "\"value\": null,", with: "")
        XCTAssertEqual(problem([nullValueMissing])?.position, "[1].elements[0].value", "null is allowed, a missing key is not")

        XCTAssertEqual(problem([element(0, frame: "[0, 0, 10]")])?.position, "[1].elements[0].frame")
        XCTAssertEqual(problem([element(0, frame: "[10, 0, 0, 10]")])?.position, "[1].elements[0].frame")

        let badChild = element(3, children: "[\(element(1)), \(element(2, traits: "[\"clickable\"]"))]", source: "group")
        XCTAssertEqual(problem([badChild])?.position, "[1].elements[0].children[1].traits")
        XCTAssertTrue(problem([badChild])?.problem.contains("\"clickable\" is not a trait") ?? false)

        XCTAssertEqual(problem([element(0, ", \"colour\": 3")])?.position, "[1].elements[0].colour")
        XCTAssertTrue(problem([element(0, ", \"colour\": 3")])?.problem.hasPrefix("unknown key") ?? false)

        XCTAssertEqual(problem([element(0), element(1), element(0)])?.position, "[1].elements[2].id")
        XCTAssertEqual(problem([element(0), element(1), element(0)])?.problem, "id 0 is used twice in the screen")

        XCTAssertEqual(problem([element(0, source: "group")])?.position, "[1].elements[0].children")
        XCTAssertEqual(problem([element(0, source: "camera")])?.position, "[1].elements[0].source")
    }

    func testANonJSONFileIsAnErrorAboutTheFile() throws {
        XCTAssertThrowsError(try DescriptionFile.decode(Data("not json".utf8), path: "x.json")) { error in
            XCTAssertEqual(error as? DescriptionFileError, DescriptionFileError(path: "x.json", position: "file", problem: "not valid JSON"))
        }
        XCTAssertThrowsError(try DescriptionFile.read(from: try scratchFolder(prefix: "uidetect-description").appendingPathComponent("absent.json"))) { error in
            XCTAssertEqual((error as? DescriptionFileError)?.position, "file")
        }
    }
}
