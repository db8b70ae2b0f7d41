import Foundation
@testable import ScreenDescription
import TestSupport
import XCTest

final class BoostedTreesTests: XCTestCase {
    /// x = 1...10, positive from 7 on: 4 of 10.
    let x: [[Double]] = (1...10).map { [Double($0)] }
    let y = (1...10).map { $0 >= 7 }

    func stump(minExamplesPerLeaf: Int) -> BoostedTrees.Parameters {
        var p = BoostedTrees.Parameters()
        p.rounds = 1; p.maxDepth = 1; p.learningRate = 1; p.l2 = 0; p.minExamplesPerLeaf = minExamplesPerLeaf
        return p
    }

    func testASingleStumpRecoversTheThresholdWithNewtonLeaves() throws {
        let model = BoostedTrees.train(features: x, labels: y, parameters: stump(minExamplesPerLeaf: 1))
        // Start: p = 0.4 everywhere, bias log(0.4 / 0.6). g = 0.4 for negatives, -0.6 for positives; h = 0.24.
        XCTAssertEqual(model.bias, log(0.4 / 0.6), accuracy: 1e-12)
        // At 6.5: G_L = 6 x 0.4 = 2.4, H_L = 1.44; G_R = -2.4, H_R = 0.96: gain 4 + 6 = 10, the best.
        guard case .split(let feature, let threshold, 1, 2) = model.trees[0].nodes[0],
              case .leaf(let left) = model.trees[0].nodes[1], case .leaf(let right) = model.trees[0].nodes[2] else {
            return XCTFail("\(model.trees)")
        }
        XCTAssertEqual(feature, 0)
        XCTAssertEqual(threshold, 6.5)
        XCTAssertEqual(left, -2.4 / 1.44, accuracy: 1e-12)
        XCTAssertEqual(right, 2.4 / 0.96, accuracy: 1e-12)
        XCTAssertEqual(model.probability([3]), 1 / (1 + exp(-(log(0.4 / 0.6) - 2.4 / 1.44))), accuracy: 1e-12)
        XCTAssertEqual(model.probability([3]), 0.11184, accuracy: 1e-5)
        XCTAssertEqual(model.probability([8]), 0.89037, accuracy: 1e-5)
    }

    func testASplitLeavesEnoughExamplesOnEachSide() {
        // With at least 5 a side only 5.5 is allowed (6.5 would leave 4 on the right).
        let model = BoostedTrees.train(features: x, labels: y, parameters: stump(minExamplesPerLeaf: 5))
        XCTAssertEqual(model.trees[0].nodes[0], .split(feature: 0, threshold: 5.5, left: 1, right: 2))
        // Left: five negatives, G = 2, H = 1.2; right: one negative and four positives, G = -2, H = 1.2.
        guard case .leaf(let left) = model.trees[0].nodes[1], case .leaf(let right) = model.trees[0].nodes[2] else { return XCTFail() }
        XCTAssertEqual(left, -2 / 1.2, accuracy: 1e-12)
        XCTAssertEqual(right, 2 / 1.2, accuracy: 1e-12)
    }

    func testSeparableDataIsLearnedOnTheFeatureThatSeparatesIt() {
        // Feature 1 decides (>= 0.5); feature 0 is a pattern that does not.
        let features: [[Double]] = (0..<60).map { (i: Int) -> [Double] in
            let pattern = Double((i * 7) % 11), decider = Double(i % 20) / 20
            return [pattern, decider]
        }
        let labels = features.map { $0[1] >= 0.5 }
        let model = BoostedTrees.train(features: features, labels: labels)
        guard case .split(let feature, let threshold, _, _) = model.trees[0].nodes[0] else { return XCTFail() }
        XCTAssertEqual(feature, 1)
        XCTAssertEqual(threshold, 0.475, accuracy: 1e-12, "the midpoint of 0.45 and 0.5")
        XCTAssertTrue(zip(features, labels).allSatisfy { (model.probability($0) >= 0.5) == $1 })
        XCTAssertEqual(BoostedTrees.train(features: features, labels: labels), model, "deterministic")
    }

    func testNoisyLabelsStillOrderTheClassesAndNeverReachCertainty() {
        // Positive from 0.5 on, with four labels flipped (two each way).
        let features = (0..<100).map { [Double($0) / 100] }
        var labels = features.map { $0[0] >= 0.5 }
        for i in [10, 20, 60, 70] { labels[i].toggle() }
        let model = BoostedTrees.train(features: features, labels: labels)
        let low = (0..<50).map { model.probability(features[$0]) }, high = (50..<100).map { model.probability(features[$0]) }
        XCTAssertLessThan(low.reduce(0, +) / 50, 0.3)
        XCTAssertGreaterThan(high.reduce(0, +) / 50, 0.7)
        // Leaves need 5 examples, so no lone flipped label gets a leaf of its own.
        XCTAssertLessThan(model.probability(features[10]), 0.5)
        XCTAssertGreaterThan(model.probability(features[60]), 0.5)
    }
}

final class PrecisionThresholdTests: XCTestCase {
    // Points at each distinct score: 0.9 (P 1, R 1/4), 0.8 after both 0.8s (P 2/3), 0.7 (P 3/4, R 3/4),
    // 0.6 (P 4/5, R 1), 0.5 (P 2/3), 0.4 (P 4/7).
    let scores = [0.9, 0.8, 0.8, 0.7, 0.6, 0.5, 0.4]
    let labels = [true, true, false, true, true, false, false]

    func testTheLowestThresholdKeepingThePrecisionIsPicked() {
        let p75 = PrecisionThreshold.pick(scores: scores, labels: labels, minPrecision: 0.75)
        XCTAssertEqual(p75, PrecisionThreshold(threshold: 0.6, precision: 0.8, recall: 1, truePositives: 4, falsePositives: 1, positives: 4))
        XCTAssertEqual(PrecisionThreshold.pick(scores: scores, labels: labels, minPrecision: 0.8)?.threshold, 0.6, "exactly 0.8 is enough")
        XCTAssertEqual(PrecisionThreshold.pick(scores: scores, labels: labels, minPrecision: 0.9)?.threshold, 0.9)
        XCTAssertEqual(PrecisionThreshold.pick(scores: scores, labels: labels, minPrecision: 0.9)?.recall, 0.25)
        // 0.8 alone would give 2/2 after its first example, but equal scores go together: 2/3.
        XCTAssertEqual(PrecisionThreshold.operatingPoints(scores: scores, labels: labels).map(\.threshold), [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
        XCTAssertEqual(PrecisionThreshold.operatingPoints(scores: scores, labels: labels)[1].precision, 2.0 / 3)
    }

    func testNoPickWithoutPositivesOrWhenNoPointReachesThePrecision() {
        XCTAssertNil(PrecisionThreshold.pick(scores: [0.9, 0.1], labels: [false, false], minPrecision: 0.5))
        XCTAssertNil(PrecisionThreshold.pick(scores: [0.9, 0.1], labels: [false, true], minPrecision: 0.6))
    }
}

final class IconInteractivityModelTests: XCTestCase {
    /// Icons in the top bar are buttons; the rest are not, with `flipped` of them buttons after all.
    func examples(_ count: Int, flipped: Set<Int> = []) -> [IconExample] {
        (0..<count).map { i in
            let inTopBar = i % 3 == 0
            var values = [Double](repeating: 0, count: IconFeatures.names.count)
            values[0] = Double(i % 10) / 10
            values[7] = inTopBar ? 1 : 0
            return IconExample(features: IconFeatures(values: values), interactive: inTopBar || flipped.contains(i))
        }
    }

    func testTrainingPicksTheThresholdOnValidationAndReportsItsRecall() throws {
        let model = try IconInteractivityModel.train(training: examples(90), validation: examples(30))
        XCTAssertEqual(model.validation.precision, 1)
        XCTAssertEqual(model.validation.recall, 1)
        XCTAssertEqual(model.validation.positives, 10)
        XCTAssertEqual(model.threshold, model.validation.threshold)
        XCTAssertTrue(model.isButton(examples(1)[0].features))
        XCTAssertFalse(model.isButton(examples(2)[1].features))
    }

    func testATargetNoThresholdReachesIsRefused() {
        // Identical features, half the labels true: every score is the same, precision 0.5.
        let same = (0..<10).map { IconExample(features: IconFeatures(values: [Double](repeating: 0, count: IconFeatures.names.count)), interactive: $0 % 2 == 0) }
        XCTAssertThrowsError(try IconInteractivityModel.train(training: same, validation: same)) { error in
            XCTAssertEqual(error as? IconModelError, .precisionNotReached(target: 0.9, best: 0.5))
        }
        XCTAssertThrowsError(try IconInteractivityModel.train(training: [], validation: same)) { error in
            XCTAssertEqual(error as? IconModelError, .noExamples(set: "training"))
        }
    }

    func testTheModelSurvivesAWriteAndARead() throws {
        let model = try IconInteractivityModel.train(training: examples(90), validation: examples(30))
        let url = try scratchFolder(prefix: "uidetect-icon-model").appendingPathComponent("model.json")
        try model.write(to: url)
        XCTAssertEqual(try IconInteractivityModel(contentsOf: url), model)
    }

    func testAFileThatIsNotAModelIsAClearError() throws {
        func failure(_ json: String) -> DescriptionFileError? {
            do { _ = try IconInteractivityModel.decode(Data(json.utf8), path: "m.json"); return nil } catch { return error as? DescriptionFileError }
        }
        XCTAssertEqual(failure("[1, 2]"), DescriptionFileError(path: "m.json", position: "file", problem: "not an icon-interactivity model (not a JSON object)"))
        XCTAssertEqual(failure("{\"image_id\": \"x\"}")?.problem, "not an icon-interactivity model (no format, expected \"uidetect-icon-interactivity\")")
        XCTAssertEqual(failure("{\"format\": \"onnx\"}")?.position, "format")

        let model = try IconInteractivityModel.train(training: examples(90), validation: examples(30))
        var text = String(decoding: try JSONCoding.encode(model, path: "m.json"), as: UTF8.self)
        XCTAssertEqual(failure(text.replacingOccurrences(of: "\"target_precision\"", with: "\"aim\""))?.position, "target_precision")
        XCTAssertEqual(failure(text.replacingOccurrences(of: "\"threshold\"", with: "\"cut\""))?.position, "booster.trees[0].nodes[0].threshold")
        text = text.replacingOccurrences(of: "\"feature\" : 7", with: "\"feature\" : 40")
        XCTAssertEqual(failure(text)?.position, "booster")
        XCTAssertTrue(failure(text)?.problem.contains("feature 40 is not one of the 11 features") ?? false, failure(text)?.problem ?? "")
    }
}
