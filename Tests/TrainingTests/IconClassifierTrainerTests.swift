import Foundation
import IconRecognition
import Logging
import TestSupport
import XCTest
@testable import Training

final class IconClassifierTrainerTests: XCTestCase {
    /// A classifier run small enough for a test: 16 x 16 ink maps, width 4, batches of 8.
    func tinyIconConfig(steps: Int = 6) -> IconRunConfig {
        var c = IconRunConfig()
        (c.name, c.steps, c.batchSize) = ("tiny", steps, 8)
        (c.evalInterval, c.checkpointInterval, c.logInterval) = (3, 2, 1)
        (c.data.validationSamples, c.model.inputSide, c.model.width, c.schedule.warmupSteps) = (100, 16, 4, 1)
        return c
    }

    /// With `ema.enabled` the average is what validates and what the files hold; checkpoints keep the
    /// trained weights beside it, so a run stopped and resumed ends with the same two sets of weights.
    func testEMAWeightsAreValidatedWrittenAndResumedBitForBitOnThisMachine() throws {
        var c = tinyIconConfig()
        c.ema.enabled = true
        c.ema.warmupSteps = 2
        (c.data.families, c.data.heldOutFamilies) = (["material", "font-awesome"], ["bootstrap"])
        let logger = Logger(label: "test")
        let straight = try freshRunFolder(), split = try freshRunFolder()
        let whole = try IconClassifierTrainer(config: c, folder: straight, resume: false, logger: logger)
        let outcome = try whole.run()
        XCTAssertEqual(outcome.heldOut?.threshold, outcome.threshold, "held-out families are scored at validation's threshold")
        var calls = 0
        _ = try IconClassifierTrainer(config: c, folder: split, resume: false, logger: logger).run(shouldStop: { calls += 1; return calls > 3 })
        let resumed = try IconClassifierTrainer(config: nil, folder: split, resume: true, logger: logger)
        XCTAssertEqual(resumed.ema?.updates, 3)
        _ = try resumed.run()
        func last(_ run: URL, _ file: String) -> URL { run.appendingPathComponent("checkpoints/last/\(file)") }
        let averageWhole = try IconClassifier(contentsOf: last(straight, IconClassifier.fileName)).network
        let averageSplit = try IconClassifier(contentsOf: last(split, IconClassifier.fileName)).network
        XCTAssertEqual(namedValues(resumed.network), namedValues(whole.network), "trained weights")
        XCTAssertEqual(namedValues(averageSplit), namedValues(averageWhole), "averaged weights")
        XCTAssertNotEqual(namedValues(whole.network)["classifier.weight"], namedValues(averageWhole)["classifier.weight"], "the file holds the average, not the weights")
        let state = try TrainingState.read(last(straight, CheckpointStore.stateFile))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: state.rawWeights.map { ($0.name, $0.values) }), namedValues(whole.network), "the state holds the weights")
        XCTAssertEqual(state.emaUpdates, 6)
        // The written classifier is the best validated average, the same in both runs.
        let (bestResumed, bestWhole): (IconNet, IconNet) = (try XCTUnwrap(resumed.average), try XCTUnwrap(whole.average))
        XCTAssertEqual(namedValues(bestResumed), namedValues(bestWhole))
        let written = try IconClassifier(contentsOf: straight.appendingPathComponent(IconClassifier.fileName))
        let best = try IconClassifier(contentsOf: straight.appendingPathComponent("checkpoints/best/\(IconClassifier.fileName)"))
        XCTAssertEqual(namedValues(written.network), namedValues(best.network), "the file written holds the best checkpoint's average")
        XCTAssertEqual(namedValues(written.network), namedValues(bestWhole))
        XCTAssertEqual(written.step, try TrainingState.read(last(straight, CheckpointStore.stateFile)).bestStep)

        let problems = { (c: IconRunConfig) in c.problems().map(\.key) }
        var bad = tinyIconConfig()
        bad.ema.decay = 1
        XCTAssertEqual(problems(bad), ["ema.decay"])
    }
}
