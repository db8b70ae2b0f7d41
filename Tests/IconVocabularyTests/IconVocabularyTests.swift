import IconVocabulary
import XCTest

/// The vocabulary of icon-recognition.md: fifty-two labelled types and `other` last, each found by
/// its name at its own place (the classifier's output row).
final class IconVocabularyTests: XCTestCase {
    func testFiftyTwoLabelledTypesAndOtherLast() {
        XCTAssertEqual(IconVocabulary.types.count, 53)
        XCTAssertEqual(IconVocabulary.types.last, IconVocabulary.other)
        XCTAssertEqual(IconVocabulary.other.name, "other")
        XCTAssertNil(IconVocabulary.other.label, "other gets no label")
        XCTAssertTrue(IconVocabulary.other.isOther)
        for type in IconVocabulary.types.dropLast() {
            XCTAssertFalse(type.isOther, type.name)
            XCTAssertFalse(type.label?.isEmpty ?? true, "\(type.name) has a label")
            XCTAssertFalse(type.shapes.isEmpty, type.name)
        }
    }

    func testNamesAreUniqueAndEachIndexIsItsPlace() {
        XCTAssertEqual(Set(IconVocabulary.types.map(\.name)).count, IconVocabulary.types.count)
        for (k, type) in IconVocabulary.types.enumerated() {
            XCTAssertEqual(type.index, k, type.name)
            XCTAssertEqual(IconVocabulary.type(named: type.name), type)
            XCTAssertEqual(type.description, type.name)
            XCTAssertTrue(type.name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(type.name) as files spell it")
        }
        XCTAssertNil(IconVocabulary.type(named: "Back"), "names are exact")
        XCTAssertNil(IconVocabulary.type(named: "spaceship"))
        XCTAssertEqual(IconVocabulary.type(named: "more")?.label, "More options")
        XCTAssertEqual(IconVocabulary.type(named: "back")?.index, 0)
    }
}
