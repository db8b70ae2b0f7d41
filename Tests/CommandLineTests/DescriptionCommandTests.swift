import Boxes
import Foundation
import Images
import Shards
import TestSupport
import XCTest

/// describe, train-icons and evaluate-description end to end on small synthetic truth shards.
final class DescriptionCommandTests: XCTestCase {
    /// Truth shards of `count` screens (big enough that tabs and icons are readable).
    func truthShards(_ dir: URL, _ name: String, seed: Int, count: Int) throws -> URL {
        let out = dir.appendingPathComponent(name)
        let run = try runUIDetect(["synth", "--count", "\(count)", "--seed", "\(seed)", "--size", "360x780", "--out", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return out
    }

    /// True boxes in place of detections: the description covers every screen, and scoring it against
    /// its own truth gives every figure the data have (order, grouping, selection) a value.
    func testDescribeTruthBoxesThenEvaluateDescription() throws {
        let dir = try scratchFolder(prefix: "uidetect-describe-truth")
        let truth = try truthShards(dir, "truth", seed: 3, count: 12)
        let described = dir.appendingPathComponent("described")
        var run = try runUIDetect(["describe", "--data", truth.path, "--boxes-from-truth", "--no-ocr", "--out", described.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let screens = try JSONSerialization.jsonObject(with: Data(contentsOf: described.appendingPathComponent("description.json"))) as! [[String: Any]]
        XCTAssertEqual(screens.count, 12)
        XCTAssertTrue(FileManager.default.fileExists(atPath: described.appendingPathComponent("index.html").path))

        let scored = dir.appendingPathComponent("scored")
        run = try runUIDetect(["evaluate-description", "--data", truth.path, "--description", described.appendingPathComponent("description.json").path,
                               "--out", scored.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("screens in perfect order"), run.stdout)
        let metrics = try JSONSerialization.jsonObject(with: Data(contentsOf: scored.appendingPathComponent("metrics.json"))) as! [String: Any]
        XCTAssertEqual(metrics["screens"] as? Int, 12)
        let order = try XCTUnwrap(metrics["order_perfect_share"] as? [String: Any])
        XCTAssertEqual(order["paper"] as? Double, 0.737)
        XCTAssertNotNil(order["value"] as? Double, "synthetic truth has a navigation order")
        XCTAssertNotNil((metrics["grouping_errors_per_screen"] as? [String: Any])?["value"] as? Double)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scored.appendingPathComponent("report.html").path))
        // The screens with grouping or order errors are shown with those errors outlined, as many as there are (up to 24).
        let perScreen = try XCTUnwrap(metrics["per_screen"] as? [[String: Any]])
        let withErrors = perScreen.filter { (($0["incorrectly_grouped"] as? Int ?? 0) + ($0["should_have_grouped"] as? Int ?? 0) + ($0["order_errors"] as? Int ?? 0)) > 0 }.count
        let page = try String(contentsOf: scored.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertEqual(page.components(separatedBy: "<figure class=\"dscreen\"").count - 1, min(24, withErrors))
        XCTAssertEqual(page.contains("Where it fails: grouping and order"), withErrors > 0)
        // True boxes keep every box: nothing to match is lost, so the count of boxes is the truth's.
        let counts = try XCTUnwrap(metrics["counts"] as? [String: Any])
        let set = try ShardSet([truth.path])
        let trueBoxes = try (0..<set.count).reduce(0) { $0 + (try set.record(at: $1, withImage: false)).boxes.count }
        XCTAssertLessThanOrEqual(counts["boxes"] as! Int, trueBoxes, "described boxes come from the truth")
        XCTAssertGreaterThan(counts["boxes"] as! Int, trueBoxes / 2)

        // A described screen without truth, and a file that is no description: errors naming what is wrong, old folder kept.
        let other = try truthShards(dir, "other", seed: 4, count: 2)
        run = try runUIDetect(["evaluate-description", "--data", other.path, "--description", described.appendingPathComponent("description.json").path,
                               "--out", scored.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("no ground truth for this described screen"), run.stderr)
        XCTAssertTrue(run.stderr.contains(described.appendingPathComponent("description.json").path), "the error names the description file: \(run.stderr)")
        let broken = dir.appendingPathComponent("broken.json")
        try Data(#"[{"image_id": 3}]"#.utf8).write(to: broken)
        run = try runUIDetect(["evaluate-description", "--data", truth.path, "--description", broken.path, "--out", scored.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains(broken.path), run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scored.appendingPathComponent("metrics.json").path), "a failed run leaves the old folder")

        run = try runUIDetect(["describe", "--boxes-from-truth", "--no-ocr", dir.path, "--out", described.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("--boxes-from-truth needs --data"), run.stderr)
    }

    /// The icon model trains from truth shards, keeps the asked precision on validation, lands where
    /// describe finds it beside a detector, and is used there.
    func testTrainIconsBesideTheDetectorAndDescribeUsesIt() throws {
        let dir = try scratchFolder(prefix: "uidetect-train-icons")
        let train = try truthShards(dir, "train", seed: 5, count: 16)
        let val = try truthShards(dir, "val", seed: 6, count: 10)
        let checkpoint = try plantedCheckpoint(in: dir.appendingPathComponent("detector"))
        var run = try runUIDetect(["train-icons", "--data", train.path, "--val", val.path, "--checkpoint", checkpoint.path, "--precision", "0.8"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let model = checkpoint.deletingLastPathComponent().appendingPathComponent("icon-interactivity.json")
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: model)) as! [String: Any]
        let validation = try XCTUnwrap(stored["validation"] as? [String: Any])
        XCTAssertGreaterThanOrEqual(validation["precision"] as! Double, 0.8)
        XCTAssertTrue(run.stdout.contains("paper: 73.6% at 90.0%"), run.stdout)

        // The planted detector finds text everywhere; describe runs it on a screenshot and names the icon model it found.
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 300, height: 600), fill: RGB(250, 250, 250)), to: shots.appendingPathComponent("plain.png"))
        try Data("not an image".utf8).write(to: shots.appendingPathComponent("broken.png"))
        let described = dir.appendingPathComponent("described")
        run = try runUIDetect(["describe", "--checkpoint", checkpoint.path, "--no-ocr", "--score-threshold", "0.99", shots.path, "--out", described.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("skipped \(shots.appendingPathComponent("broken.png").path)"), run.stdout)
        let index = try String(contentsOf: described.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(index.contains(model.path), "the page names the icon model used")
        let screens = try JSONSerialization.jsonObject(with: Data(contentsOf: described.appendingPathComponent("description.json"))) as! [[String: Any]]
        XCTAssertEqual(screens.map { $0["image_id"] as? String }, ["plain"])
        XCTAssertFalse((screens[0]["elements"] as? [Any] ?? []).isEmpty, "the planted detector's texts are described")

        // Without the Tesseract library (here: pointed at a file that does not exist), describe says so and
        // describes without OCR; it does not crash, and uidetect starts at all because the library is loaded, not linked.
        let withoutOCR = dir.appendingPathComponent("described-without-tesseract")
        run = try runUIDetect(["describe", "--checkpoint", checkpoint.path, "--score-threshold", "0.99", shots.path, "--out", withoutOCR.path],
                              environment: ["UIDETECT_TESSERACT_LIBRARY": dir.appendingPathComponent("no-libtesseract.so").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("the Tesseract library could not be loaded"), run.stdout)
        XCTAssertTrue(run.stdout.contains("describing without OCR"), run.stdout)
        let withoutOCRScreens = try JSONSerialization.jsonObject(with: Data(contentsOf: withoutOCR.appendingPathComponent("description.json"))) as! [[String: Any]]
        XCTAssertEqual(withoutOCRScreens.map { $0["image_id"] as? String }, ["plain"])

        // A checkpoint that is not a detector: an error naming the file, and nothing written.
        let notADetector = dir.appendingPathComponent("not-a-detector.safetensors")
        try Data("not a safetensors file at all".utf8).write(to: notADetector)
        let refused = dir.appendingPathComponent("refused")
        run = try runUIDetect(["describe", "--checkpoint", notADetector.path, "--no-ocr", shots.path, "--out", refused.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains(notADetector.path), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused.path), "nothing is written for a checkpoint that is not a detector")

        run = try runUIDetect(["train-icons", "--data", train.path, "--val", val.path, "--out", dir.appendingPathComponent("x.json").path, "--precision", "1.5"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("--precision"), run.stderr)
    }
}
