import Interchange
import XCTest

final class UniqueNamesTests: XCTestCase {
    func testRepeatsGetSuffixesThatNoRealNameHas() {
        let bases = ["x", "x", "x-2", "y", "x"]
        var names = UniqueNames(reserving: bases)
        XCTAssertEqual(bases.map { names.claim($0) }, ["x", "x-3", "x-2", "y", "x-4"])
    }

    func testFileNamesArePortableAndNeverHidden() {
        XCTAssertEqual(UniqueNames.fileName(for: "app/screen 1é"), "app_screen_1_")
        XCTAssertEqual(UniqueNames.fileName(for: "scr-0001_a.b"), "scr-0001_a.b")
        XCTAssertEqual(UniqueNames.fileName(for: ".hidden"), "_.hidden")
        XCTAssertEqual(UniqueNames.fileName(for: ""), "_")
    }
}
