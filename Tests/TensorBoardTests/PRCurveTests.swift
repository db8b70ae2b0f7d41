import TensorBoard
import XCTest

final class PRCurveTests: XCTestCase {
    /// Five thresholds 0, 0.25, 0.5, 0.75, 1; buckets floor(score * 4):
    /// 0.9 TP -> 3, 0.8 FP -> 3, 0.6 TP -> 2, 0.3 FP -> 1, 0.1 TP -> 0; five ground-truth objects.
    func testCountsByHand() throws {
        let curve = try PRCurve(detections: [(0.9, true), (0.8, false), (0.6, true), (0.3, false), (0.1, true)],
                                groundTruthCount: 5, thresholdCount: 5)
        XCTAssertEqual(curve.truePositives, [3, 2, 2, 1, 0])
        XCTAssertEqual(curve.falsePositives, [2, 2, 1, 1, 0])
        XCTAssertEqual(curve.trueNegatives, [0, 0, 1, 1, 2])
        XCTAssertEqual(curve.falseNegatives, [2, 3, 3, 4, 5])
        XCTAssertEqual(curve.precision, [Float(3.0 / 5), 0.5, Float(2.0 / 3), 0.5, 0])
        XCTAssertEqual(curve.recall, [Float(3.0 / 5), Float(2.0 / 5), Float(2.0 / 5), Float(1.0 / 5), 0])
        XCTAssertEqual(curve.thresholdCount, 5)
        XCTAssertEqual(curve.rows, [curve.truePositives, curve.falsePositives, curve.trueNegatives,
                                    curve.falseNegatives, curve.precision, curve.recall])
    }

    /// Scores outside [0, 1] are clamped as the plugin's op does; a score of exactly 1 is the last bucket.
    func testScoresAreClampedAndOneIsTheLastThreshold() throws {
        let curve = try PRCurve(detections: [(1.5, true), (1.0, true), (-0.2, false)], groundTruthCount: 2, thresholdCount: 3)
        XCTAssertEqual(curve.truePositives, [2, 2, 2])
        XCTAssertEqual(curve.falsePositives, [1, 0, 0])
        XCTAssertEqual(curve.trueNegatives, [0, 1, 1])
    }

    /// The bucket is floor of the float32 product: 0.29 as a Float times 100 rounds to exactly 29
    /// (it would be 28.99999... in double precision).
    func testBucketUsesTheFloat32Product() throws {
        let curve = try PRCurve(detections: [(0.29, true)], groundTruthCount: 1, thresholdCount: 101)
        XCTAssertEqual(curve.truePositives[29], 1)
        XCTAssertEqual(curve.truePositives[30], 0)
    }

    func testNoDetectionsGiveZeroPrecisionNotNaN() throws {
        let curve = try PRCurve(detections: [], groundTruthCount: 0, thresholdCount: 2)
        XCTAssertEqual(curve.precision, [0, 0])
        XCTAssertEqual(curve.recall, [0, 0])
    }

    func testInconsistentInputsAreRefused() {
        XCTAssertThrowsError(try PRCurve(detections: [(0.5, true), (0.7, true)], groundTruthCount: 1, thresholdCount: 11)) {
            XCTAssertEqual($0 as? TensorBoardError, .invalidPRCurve(reason: "2 true positives but only 1 ground-truth objects"))
        }
        XCTAssertThrowsError(try PRCurve(detections: [(.nan, true)], groundTruthCount: 1))
        XCTAssertThrowsError(try PRCurve(detections: [], groundTruthCount: 0, thresholdCount: 1))
        XCTAssertThrowsError(try PRCurve(truePositives: [1, 0], falsePositives: [1, 0], trueNegatives: [0, 1],
                                         falseNegatives: [0, 1], precision: [0.5, 0], recall: [1]))
    }
}
