import Evaluation
import Foundation
import TestSupport
import XCTest

/// A per-class threshold outside [0, 1] would keep every detection of its class (-1) or none (5)
/// in predict and export without a word: refused on reading, naming the file, the class and the value.
final class ThresholdsFileTests: XCTestCase {
    func file(_ threshold: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("thresholds.json")
        try Data("""
        {"strategy": "max_f1", "classes": {
          "button": {"threshold": 0.5, "precision": 0.9, "recall": 0.8, "f1": 0.85},
          "icon": {"threshold": \(threshold), "precision": 0.9, "recall": 0.8, "f1": 0.85},
          "text": null}}
        """.utf8).write(to: url)
        return url
    }

    func testAThresholdOutsideZeroToOneIsRefusedNamingTheClassAndValue() throws {
        let dir = try scratchFolder(prefix: "uidetect-thresholds")
        for (written, shown) in [("-1", "-1.0"), ("5", "5.0"), ("1.0000001", "1.0000001")] {
            let url = try file(written, in: dir)
            XCTAssertThrowsError(try ThresholdsFile(contentsOf: url), written) { e in
                XCTAssertEqual("\(e)", "\(url.path): classes.icon.threshold: \(shown) for class 'icon' is not a score threshold: it must lie in [0, 1], as --score-threshold must")
            }
        }
        // Too large for a double: Foundation's JSON reader refuses the whole file before any check
        // (it says no more than "not valid JSON"); the check refuses an infinity or NaN that got through.
        let huge = try file("1e999", in: dir)
        XCTAssertThrowsError(try ThresholdsFile(contentsOf: huge)) { e in XCTAssertTrue("\(e)".hasPrefix(huge.path), "\(e)") }
        for edge in ["0", "1", "0.25"] {
            XCTAssertEqual(try ThresholdsFile(contentsOf: try file(edge, in: dir)).thresholdsByClass["icon"], Float(edge))
        }
    }
}
