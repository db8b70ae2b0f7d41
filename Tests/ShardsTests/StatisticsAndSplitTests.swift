import Foundation
import Shards
import XCTest

final class StatisticsAndSplitTests: XCTestCase {
    func testStatisticsCountByHand() throws {
        let dir = try temporaryDirectory(self)
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
        let dir = try temporaryDirectory(self)
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
}
