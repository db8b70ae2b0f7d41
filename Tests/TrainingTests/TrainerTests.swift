import Boxes
import Checkpoints
import Detection
import Engine
import Foundation
import TestSupport
import Shards
import Synthesis
import XCTest
@testable import Training

/// Synthetic screens in a temporary folder, made once for all tests.
let tinyData: URL = {
    let dir = processScratchFolder(prefix: "uidetect-training-tests")
    for (name, range) in [("train", 0..<12), ("val", 12..<16)] {
        try! writeSyntheticShard(to: dir.appendingPathComponent(name).appendingPathComponent("\(name).h5"), screens: range, size: Size(width: 128, height: 256),
                                 seed: 3, apps: 3)
    }
    return dir
}()

/// A tiny network (64 x 128 input: the screens are letterboxed into it) and a short run.
func tinyConfig(steps: Int = 6) -> RunConfig {
    var c = RunConfig()
    c.name = "tiny"
    c.seed = 11
    c.threads = 2
    c.data.train = [tinyData.appendingPathComponent("train").path]
    c.data.val = [tinyData.appendingPathComponent("val").path]
    c.model.inputWidth = 64
    c.model.inputHeight = 128
    c.model.alpha = 0.25
    c.model.fpnDepth = 8
    c.model.headLayers = 1
    c.batchSize = 2
    c.steps = steps
    c.evalInterval = 3
    c.checkpointInterval = 2
    c.logInterval = 1
    c.schedule.warmupSteps = min(2, steps - 1)
    c.optimizer.name = .adamw
    c.optimizer.learningRate = 0.01
    return c
}

extension XCTestCase {
    /// A run folder that does not exist yet, in a scratch folder removed when the test ends.
    func freshRunFolder() throws -> URL { try scratchFolder(prefix: "uidetect-run").appendingPathComponent("run") }
}

func weights(_ trainer: Trainer) -> [String: [Float]] {
    var out: [String: [Float]] = [:]
    for (name, t) in trainer.model.namedState() { out[name] = t.scalars }
    return out
}

final class TrainerTests: XCTestCase {
    func testInterruptedAndResumedRunEndsBitIdenticalOnThisMachine() throws {
        let straightFolder = try freshRunFolder(), splitFolder = try freshRunFolder()
        defer { try? FileManager.default.removeItem(at: straightFolder); try? FileManager.default.removeItem(at: splitFolder) }

        let straight = try Trainer(config: tinyConfig(), folder: straightFolder, resume: false)
        let whole = try straight.run()
        XCTAssertEqual(whole.step, 6)
        XCTAssertFalse(whole.interrupted)

        // Stop after 3 steps (as Ctrl-C does): last is written at step 3, between the interval checkpoints.
        var calls = 0
        let first = try Trainer(config: tinyConfig(), folder: splitFolder, resume: false)
        let part = try first.run(shouldStop: { calls += 1; return calls > 3 })
        XCTAssertTrue(part.interrupted)
        XCTAssertEqual(part.step, 3)
        XCTAssertThrowsError(try Trainer(config: tinyConfig(), folder: splitFolder, resume: false)) { e in
            XCTAssertTrue("\(e)".contains("--resume"), "\(e)")
        }
        let resumed = try Trainer(config: nil, folder: splitFolder, resume: true)
        XCTAssertEqual(resumed.state.step, 3)
        let rest = try resumed.run()
        XCTAssertEqual(rest.step, 6)

        let a = weights(straight), b = weights(resumed)
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted())
        for (name, values) in a { XCTAssertEqual(values, b[name]!, "\(name) differs after resume") }
        XCTAssertNotEqual(a["class_head.out.bias"], weights(try Trainer(config: tinyConfig(), folder: try freshRunFolder(), resume: false))["class_head.out.bias"],
                          "training changed nothing")

        // The run folder: config, log, metrics, checkpoints, validation.
        let fm = FileManager.default
        for file in ["config.yaml", "train.log", "metrics.csv", "report.html", "checkpoints/last/model.safetensors", "checkpoints/last/training_state.safetensors",
                     "checkpoints/best/model.safetensors", "validation/metrics.json", "validation/report.html", "validation/detections.json",
                     "validation/step-00000003/metrics.json", "validation/step-00000006/report.html"] {
            XCTAssertTrue(fm.fileExists(atPath: splitFolder.appendingPathComponent(file).path), file)
        }
        let rows = try String(contentsOf: splitFolder.appendingPathComponent("metrics.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.first, "step,loss,classification_loss,box_loss,learning_rate,images_per_second,val_loss,val_classification_loss,val_box_loss,val_map50_fraction,val_map_center_fraction")
        XCTAssertEqual(rows.dropFirst().map { Int($0.split(separator: ",")[0])! }, [1, 2, 3, 4, 5, 6], "one row per step, none repeated after resume")
        XCTAssertEqual(rows[3].split(separator: ",", omittingEmptySubsequences: false).count, 11)
        XCTAssertFalse(rows[3].hasSuffix(",,"), "step 3 was validated: \(rows[3])")

        // The saved weights rebuild the same network.
        let (model, names, step) = try DetectorWeights.read(try ModelFiles(resolving: splitFolder.path).detector)
        XCTAssertEqual(names, defaultClassNames)
        XCTAssertEqual(model.config, tinyConfig().model)
        XCTAssertNotNil(step)
        let resumedAgain = try Trainer(config: nil, folder: splitFolder, resume: true)
        XCTAssertEqual(try resumedAgain.run().step, 6, "a finished run resumes as finished")
    }

    func testDataParallelRunsSayWhenCtrlCNeedsALongerGraceThanOpenMPIGives() throws {
        XCTAssertNil(InterruptGraceHook.advice(perStep: 0.4, grace: 1), "a 0.4 s step and its checkpoint fit in Open MPI's default second")
        let advice = try XCTUnwrap(InterruptGraceHook.advice(perStep: 1.3, grace: 1))
        XCTAssertTrue(advice.contains("a step takes 1.3 s") && advice.contains("kills the ranks 1 s after"), advice)
        XCTAssertTrue(advice.contains("--mca odls_base_sigkill_timeout 6 (Ctrl-C then takes about 12 s)"), advice)
        XCTAssertNil(InterruptGraceHook.advice(perStep: 1.3, grace: 6))
    }

    func testResumeRefusesAChangedConfig() throws {
        let folder = try freshRunFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Trainer(config: tinyConfig(steps: 2), folder: folder, resume: false).run()
        var other = tinyConfig(steps: 2)
        other.optimizer.learningRate = 0.5
        XCTAssertThrowsError(try Trainer(config: other, folder: folder, resume: true)) { e in
            XCTAssertTrue("\(e)".contains("optimizer.learning_rate"), "\(e)")
        }
        XCTAssertThrowsError(try Trainer(config: nil, folder: try freshRunFolder(), resume: true)) { e in
            XCTAssertTrue("\(e)".contains("not a run folder"), "\(e)")
        }
    }

    func testNonFiniteLossStopsNamingTheStepAndKeepsTheLastGoodCheckpoint() throws {
        let folder = try freshRunFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var c = tinyConfig(steps: 50)
        c.optimizer.name = .sgd
        c.optimizer.learningRate = 1e30
        c.optimizer.clipGradNorm = nil
        c.schedule.name = .constant
        c.schedule.warmupSteps = 0
        c.checkpointInterval = 1
        c.evalInterval = 0
        let trainer = try Trainer(config: c, folder: folder, resume: false)
        var stoppedAt = 0
        XCTAssertThrowsError(try trainer.run()) { e in
            guard case TrainingError.nonFinite(let step, _, let last, _) = e else { return XCTFail("\(e)") }
            stoppedAt = step
            XCTAssertEqual(last, step - 1)
            XCTAssertTrue("\(e)".contains("step \(step):"), "\(e)")
        }
        XCTAssertGreaterThan(stoppedAt, 1)
        let (state, url) = try XCTUnwrap(CheckpointStore(folder: folder.appendingPathComponent("checkpoints")).loadLast())
        XCTAssertEqual(state.step, stoppedAt - 1)
        let (model, _, _) = try DetectorWeights.read(url)
        XCTAssertTrue(model.namedState().allSatisfy { $0.tensor.scalars.allSatisfy(\.isFinite) }, "the kept checkpoint holds the last good (finite) weights")
        let log = try String(contentsOf: folder.appendingPathComponent("train.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("error: step \(stoppedAt)"), log)
    }

    func testDataProblemsAreFoundBeforeAnyWork() throws {
        var c = tinyConfig()
        c.data.train = ["/nonexistent/shards"]
        XCTAssertThrowsError(try Trainer(config: c, folder: try freshRunFolder(), resume: false)) { e in
            XCTAssertEqual((e as? ConfigError)?.key, "data.train", "\(e)")
        }
        c = tinyConfig()
        c.model.numClasses = 19
        XCTAssertThrowsError(try Trainer(config: c, folder: try freshRunFolder(), resume: false)) { e in
            XCTAssertEqual((e as? ConfigError)?.key, "model.num_classes", "\(e)")
            XCTAssertTrue("\(e)".contains("13 classes"), "\(e)")
        }
    }
}

final class CheckpointTests: XCTestCase {
    func testACrashLeavesLastPointingAtACompleteCheckpoint() throws {
        let folder = try freshRunFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var g = SeededGenerator(seed: 1)
        let model = SSDModel(config: tinyConfig().model, generator: &g)
        let store = CheckpointStore(folder: folder)
        try store.save(model: model, classNames: defaultClassNames, state: TrainingState(step: 2, bestScore: 0.5, bestStep: 2, optimizer: ["m.0": [1, 2]]), isBest: true)
        // A crash half-way through writing step 4: a partial folder with a truncated weights file.
        let partial = folder.appendingPathComponent(".step-00000004.partial-999999")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: partial.appendingPathComponent(CheckpointStore.modelFile))
        let (state, url) = try XCTUnwrap(store.loadLast())
        XCTAssertEqual(state, TrainingState(step: 2, bestScore: 0.5, bestStep: 2, optimizer: ["m.0": [1, 2]]))
        XCTAssertNoThrow(try DetectorWeights.read(url))
        // The next save clears the leftover and moves last on; best stays.
        try store.save(model: model, classNames: defaultClassNames, state: TrainingState(step: 6, bestScore: 0.5, bestStep: 2, optimizer: [:]), isBest: false)
        let items = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(items, ["best", "last", "step-00000002", "step-00000006"])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: store.best.path), "step-00000002")
        XCTAssertEqual(try store.loadLast()?.state.step, 6)
    }

    func testWeightsThatDoNotFitTheirConfigAreRefused() throws {
        let folder = try freshRunFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var g = SeededGenerator(seed: 1)
        let model = SSDModel(config: tinyConfig().model, generator: &g)
        let url = folder.appendingPathComponent("w.safetensors")
        var wrong = tinyConfig().model
        wrong.fpnDepth = 16
        let tensors = model.namedState().map { NamedTensor(name: $0.name, shape: $0.tensor.shape, values: $0.tensor.scalars) }
        try Safetensors.write(tensors, metadata: DetectorWeights.metadata(config: wrong, classNames: defaultClassNames, step: 1), to: url)
        XCTAssertThrowsError(try DetectorWeights.read(url)) { e in
            XCTAssertTrue("\(e)".contains("do not fit the config") && "\(e)".contains(url.path), "\(e)")
        }
        try Safetensors.write(tensors, to: url)
        XCTAssertThrowsError(try DetectorWeights.read(url)) { e in
            XCTAssertTrue("\(e)".contains("not a UIDetect detector checkpoint"), "\(e)")
        }
        XCTAssertThrowsError(try ModelFiles(resolving: folder.appendingPathComponent("missing").path))
    }
}
