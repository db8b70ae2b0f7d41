import FileKeys
import Foundation
import XCTest

/// A file's record with optionals: one written by `@Nullable`, one left to the synthesised encoder.
private struct Record: Codable, Equatable {
    var name: String
    @Nullable var ap50: Double?
    @Nullable var classes: [String]?
    var note: String?
}

/// `@Nullable`: nil written as null where Codable would drop the key, null and a missing key both read as nil.
final class NullableTests: XCTestCase {
    func json(_ value: some Encodable) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }

    func testNilIsWrittenAsNullAndAValueAsItself() throws {
        XCTAssertEqual(try json(Record(name: "a", ap50: nil, classes: nil, note: nil)), #"{"ap50":null,"classes":null,"name":"a"}"#,
                       "the plain optional is left out, the @Nullable ones are written")
        XCTAssertEqual(try json(Record(name: "a", ap50: 0.5, classes: ["text"], note: "n")), #"{"ap50":0.5,"classes":["text"],"name":"a","note":"n"}"#)
        XCTAssertEqual(try json(Nullable<Int>(nil)), "null")
        XCTAssertEqual(try json(Nullable(3)), "3")
    }

    func testNullAndAMissingKeyReadAsNilAndValuesRoundTrip() throws {
        let d = JSONDecoder()
        XCTAssertEqual(try d.decode(Record.self, from: Data(#"{"name": "a", "ap50": null}"#.utf8)), Record(name: "a", ap50: nil, classes: nil, note: nil))
        let full = Record(name: "b", ap50: 0.25, classes: ["icon", "text"], note: "x")
        XCTAssertEqual(try d.decode(Record.self, from: Data(try json(full).utf8)), full)
        // A value of the wrong type is still an error, not a silent nil.
        XCTAssertThrowsError(try d.decode(Record.self, from: Data(#"{"name": "a", "ap50": "high"}"#.utf8)))
    }
}

/// `ConfigProblems`: each section names its problems by its own coding keys; a parent only prefixes.
final class ConfigProblemsTests: XCTestCase {
    enum RunKeys: String, CodingKey { case steps, data }
    enum DataKeys: String, CodingKey { case workers, train }

    func dataProblems(workers: Int, train: [String]) -> [ConfigProblem] {
        var p = ConfigProblems(DataKeys.self)
        if workers < 1 { p.add(.workers, "must be at least 1") }
        if train.isEmpty { p.add(.train, "names no shards") }
        return p.list
    }

    func testProblemsAreNamedByDottedKeysInTheOrderFound() {
        var run = ConfigProblems(RunKeys.self)
        run.add(.steps, "must be at least 1")
        run.nest(.data, dataProblems(workers: 0, train: []))
        XCTAssertEqual(run.list.map { $0.key }, ["steps", "data.workers", "data.train"])
        XCTAssertEqual(run.list.map { $0.problem }, ["must be at least 1", "must be at least 1", "names no shards"])

        var clean = ConfigProblems(RunKeys.self)
        clean.nest(.data, dataProblems(workers: 2, train: ["a.h5"]))
        XCTAssertTrue(clean.list.isEmpty)
    }

    /// Nesting twice prefixes twice: a section two levels down is named from the top.
    func testNestedSectionsArePrefixedAtEachLevel() {
        enum TopKeys: String, CodingKey { case run }
        var run = ConfigProblems(RunKeys.self)
        run.nest(.data, dataProblems(workers: 0, train: ["x"]))
        var top = ConfigProblems(TopKeys.self)
        top.nest(.run, run.list)
        XCTAssertEqual(top.list.map { $0.key }, ["run.data.workers"])
    }
}
