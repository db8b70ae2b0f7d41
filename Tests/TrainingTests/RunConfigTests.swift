import Detection
import Engine
import Foundation
import TestSupport
import XCTest
@testable import Training

final class RunConfigTests: XCTestCase {
    func write(_ yaml: String) throws -> URL {
        let url = try scratchFolder(prefix: "uidetect-config").appendingPathComponent("run.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func refusal(_ yaml: String, overrides: [String] = []) throws -> ConfigError {
        let url = try write(yaml)
        do {
            _ = try ConfigLoader.load(url, overrides: overrides)
        } catch let e as ConfigError {
            return e
        }
        XCTFail("config accepted:\n\(yaml)")
        return ConfigError(source: "", key: "", problem: "")
    }

    func testDefaultsAreTheSpecsAndRoundTrip() throws {
        let c = try ConfigLoader.load(nil)
        XCTAssertEqual(c, RunConfig())
        XCTAssertEqual(c.model, SSDConfig.bench)
        let again = try ConfigLoader.load(yaml: try ConfigLoader.yaml(c), source: "saved")
        XCTAssertEqual(again, c)
    }

    func testFileOverDefaultsThenSet() throws {
        let url = try write("""
        name: tiny
        model: {alpha: 0.25, fpn_depth: 16}
        optimizer:
          name: adamw
          learning_rate: 0.001
        augmentation:
          repeat_factor_threshold: null
        steps: 100
        """)
        let c = try ConfigLoader.load(url, overrides: ["steps=7", "schedule.warmup_steps=2", "data.train=[a.h5, b/]", "loss.class_balance=none"])
        XCTAssertEqual(c.name, "tiny")
        XCTAssertEqual(c.model.alpha, 0.25)
        XCTAssertEqual(c.model.fpnDepth, 16)
        XCTAssertEqual(c.model.headLayers, 2, "untouched keys keep their defaults")
        XCTAssertEqual(c.optimizer.name, .adamw)
        XCTAssertEqual(c.optimizer.learningRate, 0.001)
        XCTAssertNil(c.augmentation.repeatFactorThreshold)
        XCTAssertEqual(c.steps, 7)
        XCTAssertEqual(c.data.train, ["a.h5", "b/"])
        XCTAssertEqual(c.loss.classBalance, LossConfig.Balance.none)
        // A null survives the resolved config a run folder keeps.
        XCTAssertEqual(try ConfigLoader.load(yaml: try ConfigLoader.yaml(c), source: "saved"), c)
    }

    /// Run configs' own checks, each naming its key (how unknown keys, wrong types and `--set`
    /// arguments are reported is StrictConfig's, tested in ConfigFilesTests).
    func testImpossibleValuesAndUnknownWordsNameTheKey() throws {
        var e = try refusal("model:\n  alpha: 0.5\n  widht: 3\n")
        XCTAssertEqual(e.key, "model.widht")
        XCTAssertTrue(e.problem.contains("input_width"), "the model section's keys are offered: \(e)")

        e = try refusal("optimizer: {name: adam}\n")
        XCTAssertEqual(e.key, "optimizer.name")
        XCTAssertTrue(e.problem.contains("sgd, adamw"), e.description)

        e = try refusal("model: {input_width: 200}\n")
        XCTAssertEqual(e.key, "model.input_width")
        XCTAssertTrue(e.problem.contains("2^max_level = 64"), e.description)

        e = try refusal("loss: {class_balance: explicit, class_weights: [1, 2, 3]}\n")
        XCTAssertEqual(e.key, "loss.class_weights")
        XCTAssertTrue(e.problem.contains("3 weights") && e.problem.contains("13"), e.description)

        e = try refusal("loss: {class_weights: [1, 2]}\n")
        XCTAssertEqual(e.key, "loss.class_weights")

        e = try refusal("steps: 100\nschedule: {warmup_steps: 100}\n")
        XCTAssertEqual(e.key, "schedule.warmup_steps")

        e = try refusal("data: {train: []}\n")
        XCTAssertEqual(e.key, "data.train")

        e = try refusal("", overrides: ["optimizer.learning_rate=-1"])
        XCTAssertEqual(e.key, "optimizer.learning_rate")
        XCTAssertEqual(e.source, "--set optimizer.learning_rate=-1", "a value from --set is blamed on it, not on the file")
    }

    func testShippedConfigsLoad() throws {
        let configs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Configs")
        let files = try FileManager.default.contentsOfDirectory(atPath: configs.path).filter { $0.hasSuffix(".yaml") }
        XCTAssertTrue(files.contains("quickstart.yaml") && files.contains("bench.yaml") && files.contains("paper-size.yaml") && files.contains("real-ui.yaml"))
        for f in files { XCTAssertNoThrow(try ConfigLoader.load(configs.appendingPathComponent(f)), f) }
        XCTAssertEqual(try ConfigLoader.load(configs.appendingPathComponent("bench.yaml")).model, SSDConfig.bench)
        XCTAssertEqual(try ConfigLoader.load(configs.appendingPathComponent("paper-size.yaml")).model, SSDConfig.paperSize)
    }
}

final class OptimizerSetupTests: XCTestCase {
    /// Weight decay reaches conv weights only: with zero gradients, one step shrinks every conv
    /// weight by lr x weight_decay and leaves biases and batch-norm scale and shift as they were.
    func testWeightDecayOnConvWeightsOnly() {
        var c = RunConfig().model
        c.inputWidth = 64; c.inputHeight = 128; c.alpha = 0.25; c.fpnDepth = 8; c.headLayers = 1
        var g = SeededGenerator(seed: 2)
        let model = SSDModel(config: c, generator: &g)
        for name in [OptimizerConfig.Kind.sgd, .adamw] {
            var o = OptimizerConfig()
            o.name = name
            o.weightDecay = 0.1
            let optimizer = TrainingSetup.optimizer(o, model: model)
            let before = model.namedParameters().map { ($0.name, $0.tensor.shape.count, $0.tensor.scalars) }
            for p in model.parameters { p.zeroGrad(); p.scaled(by: 0).sum().backward() }  // zero gradients
            optimizer.step(learningRate: 0.5)
            for ((name, rank, old), (_, t)) in zip(before, model.namedParameters()) {
                if rank == 4 {
                    XCTAssertEqual(t.scalars[0], old[0] * (1 - 0.5 * 0.1), accuracy: 1e-6, "\(name) is decayed")
                } else {
                    XCTAssertEqual(t.scalars, old, "\(name) is not decayed")
                }
            }
        }
    }
}
