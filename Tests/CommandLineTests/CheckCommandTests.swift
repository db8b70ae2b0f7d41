import Boxes
import Foundation
import Images
import Shards
import TestSupport
import XCTest

/// `uidetect check` end to end on hand-made shards.
final class CheckCommandTests: XCTestCase {
    /// A picture of horizontal bands whose order `seed` shuffles: screens of different seeds differ.
    func bands(seed: Int) -> RGBImage {
        var image = RGBImage(size: Size(width: 32, height: 64))
        let levels = (0..<8).map { UInt8(((($0 * 5 + seed * 3) % 8) * 30 + seed * 7) % 256) }
        for y in 0..<64 { for x in 0..<32 { for k in 0..<3 { image.pixels[(y * 32 + x) * 3 + k] = levels[(y / 8 + x / 4 * (seed % 3 + 1)) % 8] } } }
        return image
    }

    func shard(_ url: URL, _ screens: [(id: String, seed: Int)]) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let writer = try ShardWriter(url: url, classNames: ["button", "text"], imageSize: Size(width: 32, height: 64))
        for s in screens {
            try writer.append(ScreenRecord(imageID: s.id, groupID: s.id, image: bands(seed: s.seed),
                                           boxes: [Box(xMin: 2, yMin: 2, xMax: 12, yMax: 12), Box(xMin: 2, yMin: 20, xMax: 30, yMax: 40)], labels: [0, 1]))
        }
        try writer.finish()
    }

    func testLeakageFailsListingTheScreensAndCleanSplitsPass() throws {
        let dir = try scratchFolder(prefix: "uidetect-check-cli")
        try shard(dir.appendingPathComponent("train/train-00000.h5"), [("t0", 1), ("t1", 2), ("t2", 4)])
        try shard(dir.appendingPathComponent("test/test-00000.h5"), [("x0", 2)])  // the picture of t1
        try shard(dir.appendingPathComponent("val/val-00000.h5"), [("v0", 5)])
        let train = dir.appendingPathComponent("train").path, test = dir.appendingPathComponent("test").path

        let leak = try runUIDetect(["check", train, test, "--min-boxes", "1"])
        XCTAssertNotEqual(leak.status, 0, leak.stdout)
        XCTAssertTrue(leak.stdout.contains("ERROR   near-duplicate screens across splits"), leak.stdout)
        XCTAssertTrue(leak.stdout.contains("'t1' (\(train)/train-00000.h5 screen 1)"), leak.stdout)
        XCTAssertTrue(leak.stdout.contains("'x0' (\(test)/test-00000.h5 screen 0)"), leak.stdout)

        let json = try runUIDetect(["check", train, test, "--json"])
        XCTAssertNotEqual(json.status, 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["errors"] as? Int, 1)
        let findings = object["findings"] as! [[String: Any]]
        let leaks = findings.filter { $0["kind"] as? String == "near_duplicate" }
        XCTAssertEqual((leaks.first?["screens"] as? [[String: Any]])?.map { $0["image_id"] as? String }, ["t1", "x0"])
        // --min-boxes 10 by default: both classes are rare in each split (warnings only).
        XCTAssertEqual(findings.filter { $0["kind"] as? String == "rare_class" }.count, 4)

        let clean = try runUIDetect(["check", train, dir.appendingPathComponent("val").path, "--min-boxes", "1"])
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertTrue(clean.stdout.contains("0 errors, 0 warnings: passed"), clean.stdout)

        let missing = try runUIDetect(["check", train, dir.appendingPathComponent("nothing").path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("nothing"), missing.stderr)
    }
}

/// `uidetect split` says when a part ends up empty.
final class SplitCommandTests: XCTestCase {
    func testAnEmptyPartIsAWarningNamingItAndWhy() throws {
        let dir = try scratchFolder(prefix: "uidetect-split-empty")
        let synth = try runUIDetect(["synth", "--count", "40", "--apps", "4", "--size", "64x128", "--out", dir.appendingPathComponent("all").path])
        XCTAssertEqual(synth.status, 0, synth.stderr)
        let split = try runUIDetect(["split", dir.appendingPathComponent("all").path, "--out", dir.appendingPathComponent("parts").path])
        XCTAssertEqual(split.status, 0, split.stderr)
        XCTAssertTrue(split.stderr.contains("warning: part '"), split.stderr)
        XCTAssertTrue(split.stderr.contains("is empty: 40 screens come from 4 groups (apps)"), split.stderr)
        XCTAssertTrue(split.stderr.contains("try --fractions 0.5,0.25,0.25"), split.stderr)
        let again = try runUIDetect(["split", dir.appendingPathComponent("all").path, "--out", dir.appendingPathComponent("fixed").path, "--fractions", "0.5,0.25,0.25"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stderr.contains("warning"), again.stderr)
    }
}
