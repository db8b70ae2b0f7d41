import Foundation
import IconRecognition
import IconVocabulary
import XCTest

/// The scores of icon-recognition.md on hand-made predictions.
final class IconEvaluationTests: XCTestCase {
    func type(_ name: String) -> IconType { IconVocabulary.type(named: name)! }

    /// A prediction whose top type is `name` with probability `p` (the rest spread evenly).
    func predicted(_ name: String, _ p: Float) -> IconPrediction {
        let k = IconVocabulary.types.count
        var probabilities = [Float](repeating: (1 - p) / Float(k - 1), count: k)
        probabilities[type(name).index] = p
        return IconClassifier.prediction(probabilities, threshold: 0.5)
    }

    func testAccuracyPrecisionAndCoverageByHand() {
        // back right (0.9), close named menu (0.8, wrong), home right but below 0.5, other left unnamed,
        // an `other` icon named search (0.7: a wrong label).
        let predictions = [predicted("back", 0.9), predicted("menu", 0.8), predicted("home", 0.4), predicted("other", 0.6), predicted("search", 0.7)]
        let truths = [type("back"), type("close"), type("home"), type("add"), type("other")]
        let e = IconEvaluation(predictions: predictions, truths: truths, threshold: 0.5)
        XCTAssertEqual(e.vocabularyCrops, 4)
        XCTAssertEqual(e.top1Accuracy, 2.0 / 4, "back and home are right at top-1; the threshold is ignored")
        XCTAssertEqual(e.labelsGiven, 3, "back, menu and search pass 0.5 and are not other")
        XCTAssertEqual(e.labelPrecision, 1.0 / 3)
        XCTAssertEqual(e.coverage, 2.0 / 4, "labels on back and close, of 4 vocabulary crops")
        XCTAssertEqual(e.confusion[type("close").index][type("menu").index], 1)
        XCTAssertEqual(e.worstConfusions(3).map(\.truth), [type("close"), type("add"), type("other")], "ties in vocabulary order")
        XCTAssertNil(predictions[2].type, "below the threshold nothing is named")
        XCTAssertNil(predictions[3].type, "other is never named")
        XCTAssertEqual(predictions[0].label, "Back")
        XCTAssertEqual(predictions[0].top.count, 5)
    }

    func testThresholdKeepsTheTargetPrecisionWithTheMostCoverage() {
        // Scores 0.9 right, 0.8 right, 0.7 wrong, 0.6 right: precision 1, 1, 2/3, 3/4.
        let predictions = [predicted("back", 0.9), predicted("home", 0.8), predicted("menu", 0.7), predicted("add", 0.6)]
        let truths = [type("back"), type("home"), type("close"), type("add")]
        XCTAssertEqual(IconEvaluation.threshold(predictions: predictions, truths: truths, precision: 0.95), 0.8)
        XCTAssertEqual(IconEvaluation.threshold(predictions: predictions, truths: truths, precision: 0.75), 0.6)
        XCTAssertEqual(IconEvaluation.threshold(predictions: [predicted("menu", 0.9)], truths: [type("close")], precision: 0.95), 1,
                       "no score reaches the precision: nothing is named")
    }

    func testWithConfidenceThePrecisionsLowerBoundMustReachTheTarget() {
        // All right at one score: the Wilson lower bound is n / (n + z^2), z = 1.6449 at 95%: it
        // reaches 0.95 from n = 52 (51: 0.94962, 52: 0.95054).
        func right(_ n: Int, at score: Float) -> (p: [IconPrediction], t: [IconType]) {
            (Array(repeating: predicted("back", score), count: n), Array(repeating: type("back"), count: n))
        }
        let (p51, t51) = right(51, at: 0.9), (p52, t52) = right(52, at: 0.9)
        XCTAssertEqual(IconEvaluation.threshold(predictions: p51, truths: t51, precision: 0.95, confidence: 0.95), 1)
        XCTAssertEqual(IconEvaluation.threshold(predictions: p52, truths: t52, precision: 0.95, confidence: 0.95), 0.9)
        XCTAssertEqual(IconEvaluation.threshold(predictions: p51, truths: t51, precision: 0.95), 0.9, "without confidence the share is 1")
        // 80 right at 0.9 and one wrong at 0.8: the share 80/81 = 0.988 passes alone, its bound 0.9465 does not.
        let (p80, t80) = right(80, at: 0.9)
        let (p, t) = (p80 + [predicted("menu", 0.8)], t80 + [type("close")])
        XCTAssertEqual(IconEvaluation.threshold(predictions: p, truths: t, precision: 0.95), 0.8)
        XCTAssertEqual(IconEvaluation.threshold(predictions: p, truths: t, precision: 0.95, confidence: 0.95), 0.9)
        XCTAssertEqual(IconEvaluation.wilsonLowerBound(right: 100, of: 102, z: 1.6448536269514715), 0.94246809114, accuracy: 1e-9)
        XCTAssertEqual(IconEvaluation.wilsonLowerBound(right: 3, of: 4, z: 0), 0.75)
    }
}
