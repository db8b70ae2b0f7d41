import Checkpoints
import Detection
import Engine
import Foundation
import TestSupport
import Shards
import XCTest
@testable import Training

/// Configs, checkpoints and run folders that once crashed, exhausted memory or escaped: each is
/// refused with an error naming the file and the key, quickly, and nothing is lost.
final class HostileInputTests: XCTestCase {
    func refusal(_ overrides: [String]) -> ConfigError? {
        do { _ = try ConfigLoader.load(nil, overrides: overrides); return nil } catch { return error as? ConfigError }
    }

    func testImpossibleModelValuesAreRefusedNamingTheKey() {
        for (set, key) in [("model.max_level=64", "model.max_level"), ("model.alpha=.inf", "model.alpha"), ("model.alpha=.nan", "model.alpha"),
                           ("model.anchor_scale=-4", "model.anchor_scale"), ("model.bn_momentum=.nan", "model.bn_momentum"),
                           ("model.input_width=1000000000", "model.input_width"), ("model.fpn_depth=1000000", "model.fpn_depth"),
                           ("optimizer.learning_rate=.inf", "optimizer.learning_rate"), ("augmentation.brightness=.nan", "augmentation.brightness"),
                           ("batch_size=20000", "batch_size"), ("name=../../x", "name"), ("optimizer.clip_grad_norm=.inf", "optimizer.clip_grad_norm"),
                           ("data.cache_mb=-1", "data.cache_mb")] {
            XCTAssertEqual(refusal([set])?.key, key, set)
        }
    }

    /// The screen cache takes what it is given, but never more than a quarter of what the process may
    /// use, nor more than half of what the activations leave under the three quarters `checkMemory` allows.
    func testTheScreenCacheStaysWithinTheMemoryLimit() {
        let limits = MemoryLimits(physical: 64 << 30, cgroup: .init(bytes: 4 << 30, what: "a 4 GiB cgroup"))
        XCTAssertEqual(TrainingSetup.screenCacheBytes(requested: 512, activationBytes: 0, limits: limits), 512 << 20)
        XCTAssertEqual(TrainingSetup.screenCacheBytes(requested: 8192, activationBytes: 0, limits: limits), 1 << 30)
        XCTAssertEqual(TrainingSetup.screenCacheBytes(requested: 0, activationBytes: 0, limits: limits), 0)
        // 3 GiB allowed, 2.5 taken by activations: half of the 0.5 GiB left.
        XCTAssertEqual(TrainingSetup.screenCacheBytes(requested: 8192, activationBytes: 2.5 * Double(1 << 30), limits: limits), 256 << 20)
        XCTAssertEqual(TrainingSetup.screenCacheBytes(requested: 8192, activationBytes: 4 * Double(1 << 30), limits: limits), 0)
        // Two processes share it; a request past any machine's memory is the limit's quarter, not an overflow.
        XCTAssertEqual(TrainingSetup.screenCacheBytes(requested: 8192, activationBytes: 0, processes: 2, limits: limits), 512 << 20)
        XCTAssertEqual(TrainingSetup.screenCacheBytes(requested: Int.max, activationBytes: 0, limits: limits), 1 << 30)
    }

    func testASecondTrainerOnARunIsToldWhichProcessHoldsIt() throws {
        let run = try freshRunFolder()
        let first = try Trainer(config: tinyConfig(steps: 2), folder: run, resume: false)
        XCTAssertThrowsError(try Trainer(config: nil, folder: run, resume: true)) { e in
            XCTAssertTrue("\(e)".contains("in use by process \(getpid())"), "\(e)")
        }
        XCTAssertThrowsError(try Trainer(config: tinyConfig(steps: 2), folder: run, resume: false)) { e in
            XCTAssertTrue("\(e)".contains("in use by process"), "\(e)")
        }
        _ = try first.run()
    }

    /// A run killed before its first checkpoint starts again from step 0 when resumed; started anew
    /// over it, it is refused (a run folder is never cleared).
    func testARunWithoutACheckpointStartsAgainWhenResumed() throws {
        let run = try freshRunFolder()
        do { _ = try Trainer(config: tinyConfig(steps: 2), folder: run, resume: false) }  // created, never trained: as if killed
        XCTAssertThrowsError(try Trainer(config: tinyConfig(steps: 2), folder: run, resume: false)) { e in
            XCTAssertTrue("\(e)".contains("--resume"), "\(e)")
        }
        let resumed = try Trainer(config: nil, folder: run, resume: true)
        XCTAssertEqual(resumed.state.step, 0)
        XCTAssertEqual(try resumed.run().step, 2)
        // A run that has a checkpoint is refused without --resume too.
        XCTAssertThrowsError(try Trainer(config: tinyConfig(steps: 2), folder: run, resume: false)) { e in
            XCTAssertTrue("\(e)".contains("--resume"), "\(e)")
        }
    }

    func testACheckpointWithANaNWeightIsRefusedNamingTheTensor() throws {
        let dir = try freshRunFolder()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var g = SeededGenerator(seed: 1)
        let model = SSDModel(config: tinyConfig().model, generator: &g)
        model.classHead.final.bias!.assign([Float](repeating: .nan, count: model.classHead.final.bias!.count))
        let url = dir.appendingPathComponent("nan.safetensors")
        try DetectorWeights.write(model, classNames: defaultClassNames, step: 1, to: url)
        XCTAssertThrowsError(try DetectorWeights.read(url)) { e in
            XCTAssertTrue("\(e)".contains("class_head.out.bias") && "\(e)".contains("nan"), "\(e)")
        }
    }
}
