import Boxes
import Checkpoints
import Detection
import Engine
import Foundation
import Layers
import Shards
import Synthesis
import TestSupport
import XCTest
@testable import Training

/// The same tiny screens with another vocabulary: icon and text keep their names, every other box becomes `widget`.
let otherVocabularyData: URL = {
    let dir = processScratchFolder(prefix: "uidetect-vocabulary-tests")
    let names = ["widget", "text", "icon"]
    for part in ["train", "val"] {
        let reader = try! ShardReader(url: tinyData.appendingPathComponent("\(part)/\(part).h5"))
        try! FileManager.default.createDirectory(at: dir.appendingPathComponent(part), withIntermediateDirectories: true)
        let writer = try! ShardWriter(url: dir.appendingPathComponent("\(part)/\(part).h5"), classNames: names, imageSize: reader.imageSize)
        for i in 0..<reader.count {
            var r = try! reader.record(at: i)
            r.labels = r.labels.map { Int32(names.firstIndex(of: reader.classNames[Int($0)]) ?? 0) }
            try! writer.append(r)
        }
        try! writer.finish()
    }
    return dir
}()

func namedValues(_ model: some Module) -> [String: [Float]] {
    Dictionary(uniqueKeysWithValues: model.namedState().map { ($0.name, $0.tensor.scalars) })
}

final class RunFeatureTests: XCTestCase {
    /// Rows of metrics.csv without their timing column.
    func rowsWithoutTiming(_ run: URL) throws -> [String] {
        try String(contentsOf: run.appendingPathComponent("metrics.csv"), encoding: .utf8).split(separator: "\n").map { line in
            var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[5] = ""
            return f.joined(separator: ",")
        }
    }

    func testResumedRunLogsTheSameRowsAsAnUninterruptedOneOnThisMachine() throws {
        var c = tinyConfig()
        c.logInterval = 4
        c.evalInterval = 0
        let straight = try freshRunFolder(), split = try freshRunFolder()
        _ = try Trainer(config: c, folder: straight, resume: false).run()
        var calls = 0
        _ = try Trainer(config: c, folder: split, resume: false).run(shouldStop: { calls += 1; return calls > 3 })
        _ = try Trainer(config: nil, folder: split, resume: true).run()
        // Step 4's row averages steps 1-4 although the run stopped at step 3: the window is in the checkpoint.
        XCTAssertEqual(try rowsWithoutTiming(split), try rowsWithoutTiming(straight))
        XCTAssertEqual(try rowsWithoutTiming(split).dropFirst().map { $0.split(separator: ",")[0] }, ["4", "6"])
    }

    func testFineTuningWithAnotherVocabularyKeepsTheSharedClassRows() throws {
        let source = try freshRunFolder()
        _ = try Trainer(config: tinyConfig(steps: 2), folder: source, resume: false).run()
        let (trained, trainedNames, _) = try DetectorWeights.read(try ModelFiles(resolving: source.path).detector)
        var c = tinyConfig(steps: 1)
        c.data.train = [otherVocabularyData.appendingPathComponent("train").path]
        c.data.val = [otherVocabularyData.appendingPathComponent("val").path]
        c.model.numClasses = 3
        c.initFrom = source.path
        let setup = try TrainingSetup(config: c)
        let report = try XCTUnwrap(setup.transfer)
        XCTAssertEqual(report.reinitialised, ["class_head.out.weight", "class_head.out.bias"])
        XCTAssertEqual(report.keptClasses, ["text", "icon"])
        XCTAssertTrue(report.dropped.isEmpty)
        let mine = namedValues(setup.model), theirs = namedValues(trained)
        for name in mine.keys where !name.hasPrefix("class_head.out") { XCTAssertEqual(mine[name], theirs[name], "\(name) transfers") }
        // Channels are (anchor, class): the shared classes' rows come from the checkpoint, widget's stay fresh.
        let a = c.model.anchorsPerLocation, k0 = trainedNames.count
        let bias = mine["class_head.out.bias"]!, trainedBias = theirs["class_head.out.bias"]!
        var fresh = SeededGenerator(seed: c.seed)
        let freshBias = namedValues(SSDModel(config: c.model, generator: &fresh))["class_head.out.bias"]!
        for anchor in 0..<a {
            XCTAssertEqual(bias[anchor * 3 + 1], trainedBias[anchor * k0 + trainedNames.firstIndex(of: "text")!])
            XCTAssertEqual(bias[anchor * 3 + 2], trainedBias[anchor * k0 + trainedNames.firstIndex(of: "icon")!])
            XCTAssertEqual(bias[anchor * 3 + 0], freshBias[anchor * 3 + 0], "widget keeps the spec's initialisation")
        }
        // The run says what it did.
        let run = try freshRunFolder()
        _ = try Trainer(config: c, folder: run, resume: false).run()
        let log = try String(contentsOf: run.appendingPathComponent("train.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("init_from \(try ModelFiles(resolving: source.path).detector.path)"), log)
        XCTAssertTrue(log.contains("keeping the rows of 2 shared classes (text, icon)"), log)
        XCTAssertTrue(log.contains("OpenBLAS \(BLASKernels.current) kernels"), "the log names the GEMM kernels: \(log)")
        // A network that cannot take the weights is refused, naming the tensor.
        var wider = c
        wider.model.fpnDepth = 16
        XCTAssertThrowsError(try TrainingSetup(config: wider)) { e in
            XCTAssertEqual((e as? ConfigError)?.key, "init_from")
            XCTAssertTrue("\(e)".contains("tensor 'fpn.lateral3.weight'"), "\(e)")
        }

        // Resumed, the run takes its weights from its own checkpoint: the weights it started from may be gone.
        let moved = source.deletingLastPathComponent().appendingPathComponent(source.lastPathComponent + "-moved")
        try FileManager.default.moveItem(at: source, to: moved)
        addTeardownBlock { try? FileManager.default.removeItem(at: moved) }
        var longer = c
        longer.steps = 2
        let resumed = try Trainer(config: longer, folder: run, resume: true)
        XCTAssertNil(resumed.setup.transfer, "init_from is not read again on resume")
        _ = try resumed.run()
    }

    func testFrozenBackboneStaysFixedWithItsRunningStatistics() throws {
        var c = tinyConfig(steps: 3)
        c.freeze = ["backbone"]
        let trainer = try Trainer(config: c, folder: try freshRunFolder(), resume: false)
        let setup = trainer.setup
        let before = namedValues(setup.model)
        _ = try trainer.run()
        let after = namedValues(trainer.model)
        for (name, values) in before where name.hasPrefix("backbone.") { XCTAssertEqual(after[name], values, "\(name) is frozen") }
        XCTAssertNotEqual(after["fpn.lateral3.weight"], before["fpn.lateral3.weight"], "the rest trains")
        let trainable = setup.model.namedParameters().filter { !$0.name.hasPrefix("backbone.") }.count
        XCTAssertEqual(setup.optimizer.allParameters.count, trainable, "frozen parameters have no optimizer state")
        XCTAssertThrowsError(try TrainingSetup(config: { var x = c; x.freeze = ["backbone.b99"]; return x }())) { e in
            XCTAssertEqual((e as? ConfigError)?.key, "freeze", "\(e)")
        }
    }

    func testEMAWeightsAreValidatedSavedAndResumedBitForBitOnThisMachine() throws {
        var c = tinyConfig()
        c.ema.enabled = true
        c.ema.warmupSteps = 2
        let straight = try freshRunFolder(), split = try freshRunFolder()
        let whole = try Trainer(config: c, folder: straight, resume: false)
        _ = try whole.run()
        var calls = 0
        _ = try Trainer(config: c, folder: split, resume: false).run(shouldStop: { calls += 1; return calls > 3 })
        let resumed = try Trainer(config: nil, folder: split, resume: true)
        XCTAssertEqual(resumed.setup.ema?.updates, 3)
        _ = try resumed.run()
        XCTAssertEqual(namedValues(resumed.model), namedValues(whole.model), "raw weights")
        XCTAssertEqual(namedValues(try XCTUnwrap(resumed.setup.emaModel)), namedValues(try XCTUnwrap(whole.setup.emaModel)), "averaged weights")
        XCTAssertNotEqual(namedValues(whole.model)["fpn.lateral3.weight"], namedValues(whole.setup.emaModel!)["fpn.lateral3.weight"])
        // The checkpoint's model file holds the average and says so; validation said which weights it used.
        let (_, metadata) = try Safetensors.read(split.appendingPathComponent("checkpoints/last/model.safetensors"))
        XCTAssertTrue(metadata["weights"]?.hasPrefix("ema") ?? false, "\(metadata)")
        let (saved, _, _) = try DetectorWeights.read(split.appendingPathComponent("checkpoints/last/model.safetensors"))
        XCTAssertEqual(namedValues(saved), namedValues(whole.setup.emaModel!))
        let log = try String(contentsOf: split.appendingPathComponent("train.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("EMA of the weights"), log)
    }

    /// With every part frozen the validation figures cannot change, on any machine: patience 2
    /// ends the run at the third validation; a resume with more steps goes on and stops again.
    func testEarlyStoppingEndsTheRunAndAResumeWithMoreStepsExtendsIt() throws {
        var c = tinyConfig(steps: 20)
        c.freeze = ["backbone", "fpn", "class_head", "box_head"]
        c.evalInterval = 2
        c.patience = 2
        let run = try freshRunFolder()
        let outcome = try Trainer(config: c, folder: run, resume: false).run()
        XCTAssertEqual(outcome.step, 6, "validations at 2 (best), 4 and 6 (no better): patience spent")
        XCTAssertEqual(outcome.bestStep, 2)
        var log = try String(contentsOf: run.appendingPathComponent("train.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("stopped early at step 6"), log)
        XCTAssertEqual(try Trainer(config: nil, folder: run, resume: true).run().step, 6, "a stopped run stays stopped")
        var longer = c
        longer.steps = 30
        let extended = try Trainer(config: longer, folder: run, resume: true)
        XCTAssertEqual(try extended.run().step, 10, "patience restored: stops again two validations later")
        log = try String(contentsOf: run.appendingPathComponent("train.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("extended from 20 to 30 steps"), log)
        XCTAssertEqual(try ConfigLoader.load(run.appendingPathComponent("config.yaml")).steps, 30)
        var changed = longer
        changed.optimizer.learningRate = 0.5
        XCTAssertThrowsError(try Trainer(config: changed, folder: run, resume: true)) { e in
            XCTAssertTrue("\(e)".contains("optimizer.learning_rate"), "\(e)")
        }
    }

    func testRunPageShowsTheCurvesAndTheLatestValidation() throws {
        let run = try freshRunFolder()
        _ = try Trainer(config: tinyConfig(), folder: run, resume: false).run()
        let page = try String(contentsOf: run.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<h1>Run "), page)
        XCTAssertEqual(page.components(separatedBy: "<polyline").count - 1 >= 4, true, "loss, its parts and the learning rate are drawn")
        XCTAssertTrue(page.contains("Validation mAP (%)") && page.contains("Latest validation (step 6)") && page.contains("Confusion matrix"))
        XCTAssertTrue(page.contains("raw weights"))
    }

    func testResolvedConfigWritesNumbersAsAPersonWould() throws {
        let text = try ConfigLoader.yaml(RunConfig())
        for expected in ["learning_rate: 0.04", "bn_momentum: 0.1", "bn_epsilon: 0.001", "weight_decay: 4e-05", "alpha: 0.5", "beta: 0.999", "smooth_l1_beta: 0.11111111"] {
            XCTAssertTrue(text.contains(expected), "\(expected) in\n\(text)")
        }
        XCTAssertEqual(try ConfigLoader.load(yaml: text, source: "x"), RunConfig(), "and they read back to the same config")
        // Rates whose 15-digit expansion Yams rounds differently from the float's own (0.004 was written 0.0040000001899898).
        for (rate, written) in [(Float(0.004), "0.004"), (0.002, "0.002"), (0.006, "0.006"), (0.0003, "0.0003"), (0.07, "0.07"), (1e-05, "1e-05")] {
            var config = RunConfig()
            config.optimizer.learningRate = rate
            let yaml = try ConfigLoader.yaml(config)
            XCTAssertTrue(yaml.contains("learning_rate: \(written)\n"), "learning_rate \(rate) written as \(written) in\n\(yaml)")
            XCTAssertEqual(try ConfigLoader.load(yaml: yaml, source: "x"), config)
        }
        var config = RunConfig()
        config.ema.decay = 0.9998
        XCTAssertTrue(try ConfigLoader.yaml(config).contains("decay: 0.9998\n"), "a double field keeps its own digits")
    }
}

final class TensorBoardLogTests: XCTestCase {
    /// TensorBoard's own reader on a run's event files: what it shows, as TensorBoard would.
    func tensorBoardView(_ run: URL) throws -> [String: Any] {
        let script = """
        import json, sys
        from tensorboard.backend.event_processing import event_accumulator
        from tensorboard.util import tensor_util
        acc = event_accumulator.EventAccumulator(sys.argv[1], size_guidance={k: 0 for k in [
            event_accumulator.SCALARS, event_accumulator.IMAGES, event_accumulator.TENSORS, event_accumulator.HISTOGRAMS,
            event_accumulator.COMPRESSED_HISTOGRAMS, event_accumulator.AUDIO]})
        acc.Reload()
        tags = acc.Tags()
        out = {"scalars": {t: [[e.step, e.value] for e in acc.Scalars(t)] for t in tags["scalars"]},
               "images": {t: [[e.step, e.width, e.height] for e in acc.Images(t)] for t in tags["images"]},
               "tensors": {t: [[e.step, tensor_util.make_ndarray(e.tensor_proto).tolist()] for e in acc.Tensors(t)] for t in tags["tensors"]}}
        print(json.dumps(out))
        """
        let python = try runProgram(["python3", "-c", script, run.appendingPathComponent("tensorboard").path])
        XCTAssertEqual(python.status, 0, python.output)
        return try JSONSerialization.jsonObject(with: Data(python.stdout.split(separator: "\n").last.map(String.init)?.utf8 ?? "{}".utf8)) as! [String: Any]
    }

    func testTensorBoardReadsTheRunsLossesValidationCurvesAndScreens() throws {
        try requirePython(["tensorboard", "numpy"])
        let run = try freshRunFolder()
        addTeardownBlock { try? FileManager.default.removeItem(at: run) }
        // Stopped after 4 steps and resumed: TensorBoard must show each step once.
        var calls = 0
        _ = try Trainer(config: tinyConfig(), folder: run, resume: false).run(shouldStop: { calls += 1; return calls > 4 })
        _ = try Trainer(config: nil, folder: run, resume: true).run()
        let view = try tensorBoardView(run)
        let scalars = view["scalars"] as! [String: [[Double]]]
        let rows = try String(contentsOf: run.appendingPathComponent("metrics.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) } }
        XCTAssertEqual(scalars["train/loss"]!.map { Int($0[0]) }, [1, 2, 3, 4, 5, 6], "every logged step once, the redone ones not twice")
        for (point, row) in zip(scalars["train/loss"]!, rows) {
            XCTAssertEqual(point[1], row[1]!, accuracy: 1e-6 * max(1, row[1]!), "train/loss at step \(point[0]) is metrics.csv's (6 decimals)")
        }
        let map50 = try XCTUnwrap(scalars["val/map50"])
        XCTAssertEqual(map50.map { Int($0[0]) }, [3, 6])
        XCTAssertEqual(map50[1][1], rows[5][9]!, accuracy: 1e-6, "val/map50 is the fraction metrics.csv holds")
        XCTAssertNotNil(scalars["val/loss"])
        XCTAssertTrue(scalars.keys.contains { $0.hasPrefix("val_ap50/") })
        let tensors = view["tensors"] as! [String: [[Any]]]
        let curve = try XCTUnwrap(tensors.first { $0.key.hasPrefix("pr_curves/") }?.value.last)
        let data = curve[1] as! [[Double]]
        XCTAssertEqual(data.count, 6, "TP, FP, TN, FN, precision, recall")
        XCTAssertEqual(data[0].count, 201)
        let images = view["images"] as! [String: [[Int]]]
        XCTAssertEqual(images["val_screens/0"]?.last?[0], 6)
        XCTAssertGreaterThan(images["val_screens/0"]?.last?[1] ?? 0, 100, "a screen, drawn at twice its size")
    }
}
