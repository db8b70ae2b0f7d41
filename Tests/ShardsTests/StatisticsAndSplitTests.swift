import Foundation
import Shards
import TestSupport
import XCTest

final class StatisticsAndSplitTests: XCTestCase {
    func testStatisticsCountByHand() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        let records = sampleRecords(count: 6)
        _ = try writeShard(Array(records[0..<4]), to: dir.appendingPathComponent("a.h5"))
        _ = try writeShard(Array(records[4...]), to: dir.appendingPathComponent("b.h5"))
        let stats = DatasetStatistics(try ShardSet([dir.path]))
        XCTAssertEqual(stats.shards, 2)
        XCTAssertEqual(stats.images, 6)
        XCTAssertEqual(stats.boxes, records.reduce(0) { $0 + $1.boxes.count })
        XCTAssertEqual(stats.groups, 3)
        for (k, name) in defaultClassNames.enumerated() {
            XCTAssertEqual(stats.classes[name], records.flatMap(\.labels).filter { $0 == k }.count)
        }
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(stats)) as! [String: Any]
        XCTAssertEqual(json["images"] as? Int, 6)
        XCTAssertNotNil(json["classes"] as? [String: Int])
    }

    func testShardSetRefusesMixedVocabularies() throws {
        let dir = try scratchFolder(prefix: "uidetect-shards")
        _ = try writeShard(sampleRecords(count: 2), to: dir.appendingPathComponent("a.h5"))
        _ = try writeShard(sampleRecords(count: 2).map { var r = $0; r.labels = r.labels.map { $0 % 2 }; return r },
                           to: dir.appendingPathComponent("b.h5"), classNames: ["x", "y"])
        XCTAssertThrowsError(try ShardSet([dir.path])) {
            guard case .vocabularyMismatch(let path, _, ["x", "y"])? = $0 as? ShardError else { return XCTFail("\($0)") }
            XCTAssertTrue(path.hasSuffix("b.h5"))
        }
    }

    func testSplitKeepsGroupsWholeAndSharesClose() throws {
        // 600 screens of 60 apps with imbalanced class counts (rare classes on few screens).
        var state: UInt64 = 12345
        func next(_ n: Int) -> Int { state = state &* 6_364_136_223_846_793_005 &+ 1; return Int(state >> 33) % n }
        let groups = (0..<600).map { _ in "app-\(next(60))" }
        let rates = [1, 1, 4, 1, 30, 1, 5, 1, 1, 50, 2, 1, 1]
        let counts = groups.map { _ in rates.map { r in r > 1 ? next(r + 1) : (next(4) == 0 ? 1 : 0) } }
        let split = GroupSplit(parts: [.init(name: "train", fraction: 0.8), .init(name: "val", fraction: 0.1), .init(name: "test", fraction: 0.1)], seed: 1)
        let (parts, report) = split.assign(groups: groups, classCounts: counts, classes: 13)
        var sideOf: [String: Int] = [:]
        for (g, p) in zip(groups, parts) {
            if let seen = sideOf[g] { XCTAssertEqual(seen, p, "group \(g) on two sides") }
            sideOf[g] = p
        }
        XCTAssertEqual(report.images.reduce(0, +), 600)
        XCTAssertEqual(Double(report.images[0]) / 600, 0.8, accuracy: 0.05)
        XCTAssertLessThan(report.maxClassShareDeviation, 0.06, "worst class \(report.worstClass.map { defaultClassNames[$0] } ?? "-")")
        XCTAssertEqual(split.assign(groups: groups, classCounts: counts, classes: 13).parts, parts, "same seed, same split")
    }

    func testAnEmptyPartIsNamedWithWhyAndFractionsThatFillIt() {
        // 40 screens of 4 apps at 0.8, 0.1, 0.1: a tenth of 4 groups is less than one group.
        let groups = (0..<40).map { "app-\($0 % 4)" }
        let counts = groups.map { _ in [1, 0] }
        let split = GroupSplit(parts: [.init(name: "train", fraction: 0.8), .init(name: "val", fraction: 0.1), .init(name: "test", fraction: 0.1)], seed: 0)
        let (_, report) = split.assign(groups: groups, classCounts: counts, classes: 2)
        let empty = split.emptyParts(in: report)
        XCTAssertFalse(empty.isEmpty)
        XCTAssertTrue(empty.allSatisfy { e in report.images[split.parts.firstIndex { $0.name == e.name }!] == 0 })
        let suggested = try! XCTUnwrap(empty.first?.suggestedFractions)
        XCTAssertEqual(suggested, [0.5, 0.25, 0.25])
        let message = "\(empty[0])"
        XCTAssertTrue(message.contains("part '\(empty[0].name)' (fraction 0.1) is empty: 40 screens come from 4 groups (apps)"), message)
        XCTAssertTrue(message.contains("--fractions 0.5,0.25,0.25"), message)
        // The suggestion fills every part.
        let fixed = GroupSplit(parts: zip(split.parts, suggested).map { .init(name: $0.name, fraction: $1) }, seed: 0)
        XCTAssertEqual(fixed.emptyParts(in: fixed.assign(groups: groups, classCounts: counts, classes: 2).report), [])
        // Two groups cannot fill three parts.
        let two = GroupSplit(parts: split.parts, seed: 0)
        let few = two.emptyParts(in: two.assign(groups: groups.map { $0 == "app-0" ? "a" : "b" }, classCounts: counts, classes: 2).report)
        XCTAssertTrue(few.first.map { "\($0)".contains("use at most 2 parts") } ?? false, "\(few)")
    }
}
