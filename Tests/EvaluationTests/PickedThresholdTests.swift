import Boxes
import Evaluation
import Foundation
import TestSupport
import XCTest

/// A class whose best F1 is 0 gets no picked threshold.
final class PickedThresholdTests: XCTestCase {
    /// Class "slider": two boxes and only false alarms (as a slider with 2 boxes and 2,151 detections did);
    /// class "icon": one box, found.
    func noTruePositives() -> EvaluationInput {
        var dets = (0..<40).map { Detection(imageID: "x", label: 0, score: 0.9 - Double($0) * 0.01, box: box(200, Float($0) * 10, 220, Float($0) * 10 + 8)) }
        dets.append(Detection(imageID: "x", label: 1, score: 0.7, box: box(0, 0, 10, 10)))
        return EvaluationInput(classNames: ["slider", "icon"],
                               images: [GroundTruthImage(imageID: "x", boxes: [box(0, 100, 100, 110), box(0, 200, 100, 210), box(0, 0, 10, 10)], labels: [0, 0, 1])],
                               detections: dets)
    }

    func testABestF1OfZeroPicksNoThreshold() throws {
        let summary = Evaluator().summarize(noTruePositives())
        XCTAssertNil(summary.picks[0])
        XCTAssertEqual(summary.picks[1]?.threshold, 0.7)
        // The other strategies still answer what they are asked.
        let curve = summary.result.classes[0].curve
        XCTAssertNil(ThresholdPicker.pick(curve, groundTruth: 2, strategy: .minPrecision(0.1)))
        XCTAssertEqual(ThresholdPicker.pick(curve, groundTruth: 2, strategy: .minRecall(0))?.threshold, 0.9)
        // thresholds.json holds null for it, and the confusion matrix counts its false alarms at 0.5.
        let file = ThresholdsFile(summary)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(file)) as! [String: Any]
        let classes = json["classes"] as! [String: Any]
        XCTAssertTrue(classes["slider"] is NSNull)
        XCTAssertNotNil(classes["icon"] as? [String: Any])
        XCTAssertEqual(summary.confusion.counts[2][0], 40, "0.9 ... 0.51: forty false alarms at or above 0.5")
    }
}
