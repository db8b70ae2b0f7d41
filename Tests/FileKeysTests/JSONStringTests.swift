import FileKeys
import Foundation
import XCTest

/// Strings written by hand into JSON read back as themselves, whatever they hold.
final class JSONStringTests: XCTestCase {
    func testEscapesWhatJSONRequiresAndReadsBack() throws {
        XCTAssertEqual(JSONString.quoted("a\"b\\c\nd\u{01}é"), #""a\"b\\c\nd\u0001é""#)
        for s in ["", "plain", "tab\there", "\u{08}\u{0C}\r", "\u{1F}\u{7F}", "screen 12 ✓ 🙂", "C:\\path\\\"x\""] {
            let data = Data("[\(JSONString.quoted(s))]".utf8)
            let back = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String])
            XCTAssertEqual(back, [s])
        }
    }
}
