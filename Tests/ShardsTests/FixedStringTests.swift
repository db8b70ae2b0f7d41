import Foundation
@testable import Shards
import XCTest

/// Fixed-length strings are trimmed on their bytes where that is exact: the text must be what
/// Foundation's trim of blanks gives, Unicode spaces included.
final class FixedStringTests: XCTestCase {
    func trimmed(_ field: [UInt8]) -> String { field.withUnsafeBufferPointer { HDF5.trimmed($0) } }

    func testTrimsLikeFoundationOnASCIIAndUnicodeBlanks() {
        let texts = ["", " ", "\t\t", "OK", "  Sign in\t ", "a b", " café ", "é", "\u{3000}全角\u{3000}",
                     "\u{00A0}x\u{00A0}", " \u{2003}Menu", "x \u{2009}", "🙂 ", "\u{0085}next"]
        for text in texts {
            let bytes = Array(text.utf8)
            for field in [bytes, bytes + [0, 0, 0], bytes + [0, 0x41, 0x20]] {
                XCTAssertEqual(trimmed(field), text.trimmingCharacters(in: .whitespaces), "\(field)")
            }
        }
    }

    func testStopsAtTheFirstNUL() {
        XCTAssertEqual(trimmed(Array("ab".utf8) + [0] + Array(" cd".utf8)), "ab")
        XCTAssertEqual(trimmed([0, 0x41]), "")
    }
}
