import Foundation
import TestSupport
import XCTest

/// The data commands end to end, as a newcomer would run them.
final class DataCommandTests: XCTestCase {
    func testSynthShowStatsSplitAndImport() throws {
        let dir = try scratchFolder(prefix: "uidetect-cli")
        let synth = try runUIDetect(["synth", "--count", "24", "--size", "128x256", "--seed", "3", "--out", dir.appendingPathComponent("syn").path, "--shard-size", "10"])
        XCTAssertEqual(synth.status, 0, synth.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("syn").path).sorted(),
                       ["synth-00000.h5", "synth-00001.h5", "synth-00002.h5"])
        let again = try runUIDetect(["synth", "--count", "2", "--out", dir.appendingPathComponent("syn").path])
        XCTAssertNotEqual(again.status, 0, "existing shards must not be overwritten")

        let show = try runUIDetect(["show", dir.appendingPathComponent("syn/synth-00001.h5").path, "--index", "3", "--out", dir.appendingPathComponent("s.png").path])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.png").path))

        let stats = try runUIDetect(["stats", dir.appendingPathComponent("syn").path, "--json"])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["images"] as? Int, 24)
        XCTAssertGreaterThan(object?["boxes"] as? Int ?? 0, 100)
        XCTAssertEqual((object?["classes"] as? [String: Int])?.count, 13)

        let split = try runUIDetect(["split", dir.appendingPathComponent("syn").path, "--out", dir.appendingPathComponent("parts").path, "--seed", "1"])
        XCTAssertEqual(split.status, 0, split.stderr)
        XCTAssertTrue(split.stdout.contains("largest gap"))
        let train = try runUIDetect(["stats", dir.appendingPathComponent("parts/train").path, "--json"])
        let trainImages = (try JSONSerialization.jsonObject(with: Data(train.stdout.utf8)) as? [String: Any])?["images"] as? Int ?? 0
        XCTAssertGreaterThan(trainImages, 12)

        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../ImportersTests/Fixtures").standardized
        let coco = try runUIDetect(["import", "coco", fixtures.appendingPathComponent("coco/instances.json").path, "--images",
                                 fixtures.appendingPathComponent("coco/images").path, "--out", dir.appendingPathComponent("coco").path])
        XCTAssertEqual(coco.status, 0, coco.stderr)
        XCTAssertTrue(coco.stdout.contains("imported 2 screens"), coco.stdout)
        XCTAssertTrue(coco.stdout.contains("1 x degenerate box"), coco.stdout)
        let report = try String(contentsOf: dir.appendingPathComponent("coco/import-report.txt"), encoding: .utf8)
        XCTAssertTrue(report.contains("b.png: box outside the image, dropped"), report)
        let voc = try runUIDetect(["import", "voc", fixtures.appendingPathComponent("voc").path, "--out", dir.appendingPathComponent("voc").path])
        XCTAssertEqual(voc.status, 0, voc.stderr)
    }

    func testStatsRefusesADamagedShardNamingIt() throws {
        let dir = try scratchFolder(prefix: "uidetect-cli")
        _ = try runUIDetect(["synth", "--count", "3", "--size", "64x128", "--out", dir.path])
        let shard = dir.appendingPathComponent("synth-00000.h5")
        var bytes = try Data(contentsOf: shard)
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: shard)
        let run = try runUIDetect(["stats", dir.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("synth-00000.h5"), run.stderr)
    }
}
