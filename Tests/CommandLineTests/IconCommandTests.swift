import Boxes
import Engine
import Foundation
import IconRecognition
import IconVocabulary
import Images
import TestSupport
import XCTest

/// train-icon-classifier, classify-icons, evaluate-icons and describe's icon names, end to end with tiny models.
final class IconCommandTests: XCTestCase {
    /// `plusIcon` written as a PNG.
    func writePlus(to url: URL, side: Int = 24) throws {
        try ImageCodec.writePNG(plusIcon(side: side), to: url)
    }

    /// A run of a few steps: the run folder has what `train` leaves, resume goes on where it stopped,
    /// and the classifier it writes answers classify-icons and evaluate-icons.
    func testTrainResumeClassifyAndEvaluate() throws {
        let dir = try scratchFolder(prefix: "icon-classifier")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let config = dir.appendingPathComponent("tiny.yaml")
        try Data("""
            name: tiny
            steps: 4
            batch_size: 8
            eval_interval: 2
            checkpoint_interval: 2
            log_interval: 1
            data: {validation_samples: 100}
            model: {input_side: 16, width: 4}
            schedule: {warmup_steps: 1}
            """.utf8).write(to: config)
        let runs = dir.appendingPathComponent("runs")
        var run = try runUIDetect(["train-icon-classifier", "--config", config.path, "--runs", runs.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let folder = runs.appendingPathComponent("tiny")
        for file in ["config.yaml", "train.log", "metrics.csv", "report.html", "checkpoints/last", "checkpoints/best", IconClassifier.fileName] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "run folder lacks \(file)")
        }
        let model = try IconClassifier(contentsOf: folder.appendingPathComponent(IconClassifier.fileName))
        XCTAssertEqual(model.network.config, IconNet.Config(inputSide: 16, width: 4, classes: IconVocabulary.types.count))
        XCTAssertTrue([2, 4].contains(model.step), "the weights of the best validated step, got \(String(describing: model.step))")
        XCTAssertTrue((0...1).contains(model.threshold))

        // More steps on resume: the history goes on from step 4, not from the start.
        run = try runUIDetect(["train-icon-classifier", "--name", "tiny", "--runs", runs.path, "--resume", "--set", "steps=6"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try String(contentsOf: folder.appendingPathComponent("metrics.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
        let steps = rows.compactMap { $0.split(separator: ",").first.flatMap { Int($0) } }
        XCTAssertEqual(Set(steps), Set(1...6), "one history, steps 1 to 6")
        let resumed = try IconClassifier(contentsOf: folder.appendingPathComponent(IconClassifier.fileName))
        XCTAssertTrue([2, 4, 6].contains(resumed.step), "the best of the validated steps, got \(String(describing: resumed.step))")
        XCTAssertTrue(run.stdout.contains("resumed at step 4"), run.stdout)

        // An impossible value is refused naming its dotted key, before any folder is made.
        run = try runUIDetect(["train-icon-classifier", "--config", config.path, "--runs", runs.path, "--name", "bad", "--set", "model.width=0"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("model.width"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: runs.appendingPathComponent("bad").path))

        // classify-icons: one JSON object per image in order; unreadable and 1x1 crops are errors naming
        // the file, the others are still classified, and the command exits 1.
        let crops = dir.appendingPathComponent("crops")
        try FileManager.default.createDirectory(at: crops, withIntermediateDirectories: true)
        let good = crops.appendingPathComponent("0001-add.png"), tiny = dir.appendingPathComponent("tiny.png"), broken = dir.appendingPathComponent("broken.png")
        try writePlus(to: good)
        try writePlus(to: crops.appendingPathComponent("0002-add.png"), side: 40)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 1, height: 1), fill: RGB(0, 0, 0)), to: tiny)
        try Data("not a png".utf8).write(to: broken)
        run = try runUIDetect(["classify-icons", "--model", folder.path, "--json", good.path, tiny.path, broken.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        let answers = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        XCTAssertEqual(answers.map { $0["path"] as? String }, [good.path, tiny.path, broken.path])
        XCTAssertNotNil(answers[0]["score"] as? Double)
        XCTAssertEqual((answers[0]["top"] as? [Any])?.count, 5)
        XCTAssertTrue(answers[0].keys.contains("icon_type") && answers[0].keys.contains("label"), "\(answers[0])")
        XCTAssertTrue((answers[1]["error"] as? String)?.contains("1 x 1") == true, "\(answers[1])")
        XCTAssertNotNil(answers[2]["error"] as? String)

        run = try runUIDetect(["classify-icons", "--model", folder.appendingPathComponent(IconClassifier.fileName).path, good.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix(good.path), run.stdout)

        run = try runUIDetect(["evaluate-icons", "--model", folder.path, "--json", crops.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let scores = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        XCTAssertEqual(scores["crops"] as? Int, 2)

        // A model file that is not an icon classifier: an error naming it.
        run = try runUIDetect(["classify-icons", "--model", broken.path, good.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains(broken.path), run.stderr)
    }

    /// describe crops each icon from the screenshot and names it; without a classifier it says so once.
    func testDescribeNamesIconsWithTheClassifierAndSaysWhenThereIsNone() throws {
        let dir = try scratchFolder(prefix: "describe-icons")
        let truth = dir.appendingPathComponent("truth")
        var run = try runUIDetect(["synth", "--count", "3", "--seed", "11", "--size", "360x780", "--out", truth.path])
        XCTAssertEqual(run.status, 0, run.stderr)

        // Every crop is a house to this classifier: its logit for home dwarfs the others.
        let home = try XCTUnwrap(IconVocabulary.type(named: "home"))
        let classifier = dir.appendingPathComponent(IconClassifier.fileName)
        try plantedIconClassifier(favouring: home.name).write(to: classifier)

        let named = dir.appendingPathComponent("named")
        run = try runUIDetect(["describe", "--data", truth.path, "--boxes-from-truth", "--no-ocr", "--icon-classifier", classifier.path, "--out", named.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("no icon classifier"), run.stdout)
        let icons = try iconElements(named.appendingPathComponent("description.json"))
        XCTAssertFalse(icons.isEmpty, "synthetic screens have icons")
        XCTAssertTrue(icons.allSatisfy { $0["icon_type"] as? String == "home" }, "\(icons.prefix(3))")
        XCTAssertTrue(icons.contains { ($0["label"] as? String ?? "").contains(home.label ?? "Home") }, "icons without text say their type's label")

        let unnamed = dir.appendingPathComponent("unnamed")
        run = try runUIDetect(["describe", "--data", truth.path, "--boxes-from-truth", "--no-ocr", "--out", unnamed.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.components(separatedBy: "no icon classifier").count, 2, "said once: \(run.stdout)")
        let unnamedIcons = try iconElements(unnamed.appendingPathComponent("description.json"))
        XCTAssertFalse(unnamedIcons.isEmpty, "the icons are still described, unnamed")
        XCTAssertTrue(unnamedIcons.allSatisfy { $0["icon_type"] is NSNull })

        // A classifier file that is not one: an error naming it, nothing written.
        let refused = dir.appendingPathComponent("refused")
        run = try runUIDetect(["describe", "--data", truth.path, "--boxes-from-truth", "--no-ocr", "--icon-classifier", truth.path + "/missing.safetensors", "--out", refused.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("missing.safetensors"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused.path))
    }

    /// Every element of kind icon in a description.json, at any depth.
    func iconElements(_ url: URL) throws -> [[String: Any]] {
        let screens = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        func walk(_ elements: [[String: Any]]) -> [[String: Any]] {
            elements.flatMap { e in (e["kind"] as? String == "icon" ? [e] : []) + walk(e["children"] as? [[String: Any]] ?? []) }
        }
        return screens.flatMap { walk($0["elements"] as? [[String: Any]] ?? []) }
    }
}
