import Boxes
import Evaluation
import Foundation
import TestSupport
import XCTest

/// AP50-95 and AP by size, computed by hand.
final class COCOFiguresTests: XCTestCase {
    func testIoUThresholdsAreNumpysLinspace() {
        // np.linspace(0.5, 0.95, 10), as pycocotools makes them: the ninth is not 0.9.
        XCTAssertEqual(Evaluator.cocoIoUThresholds, [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.8999999999999999, 0.95])
    }

    func testAP50to95AveragesTheTenThresholdsByHand() {
        // IoU 0.92 and 0.62 with two boxes: both true up to 0.6 (AP 1), the first only from 0.65 to 0.9
        // (curve (1, 1/2), (1/2, 1/2): AP 1/2), neither at 0.95 (AP 0). Mean (3 + 6/2 + 0) / 10.
        let input = EvaluationInput(
            classNames: ["a"],
            images: [GroundTruthImage(imageID: "i", boxes: [box(0, 0, 10, 10), box(20, 0, 30, 10)], labels: [0, 0])],
            detections: [Detection(imageID: "i", label: 0, score: 0.9, box: box(0, 0, 10, 9.2)),
                         Detection(imageID: "i", label: 0, score: 0.8, box: box(20, 0, 30, 6.2))])
        let r = Evaluator().evaluate(input)
        XCTAssertEqual(r.classes[0].ap50!, 1, accuracy: 1e-12)
        XCTAssertEqual(r.classes[0].ap50to95!, 0.6, accuracy: 1e-12)
        XCTAssertEqual(r.map50to95!, 0.6, accuracy: 1e-12)
    }

    func testAP50to95TakesTheNextBoxWhereTheBestIsTaken() {
        // Boxes A (10 tall) and C (9 tall) overlap. The first detection is A itself (IoU 1 with A,
        // 0.9 with C) and takes A at every threshold; the second (9.5 tall: 0.95 with A, 0.947 with C)
        // finds A taken and takes C up to 0.9, and nothing at 0.95. AP: 1 at nine thresholds, 1/2 at 0.95.
        let input = EvaluationInput(
            classNames: ["a"],
            images: [GroundTruthImage(imageID: "i", boxes: [box(0, 0, 10, 10), box(0, 0, 10, 9)], labels: [0, 0])],
            detections: [Detection(imageID: "i", label: 0, score: 0.9, box: box(0, 0, 10, 10)),
                         Detection(imageID: "i", label: 0, score: 0.8, box: box(0, 0, 10, 9.5))])
        let c = Evaluator().evaluate(input).classes[0]
        XCTAssertEqual(c.ap50to95!, 0.95, accuracy: 1e-12)
        // With the evaluation's own threshold at 0.3, AP50-95 is still COCO's ten thresholds.
        XCTAssertEqual(Evaluator(iouThreshold: 0.3).evaluate(input).classes[0].ap50to95!, 0.95, accuracy: 1e-12)
    }

    func testAP50to95IsNilWithoutGroundTruthAndZeroWithoutDetections() {
        let input = EvaluationInput(classNames: ["a", "b"],
                                    images: [GroundTruthImage(imageID: "i", boxes: [box(0, 0, 10, 10)], labels: [0])],
                                    detections: [Detection(imageID: "i", label: 1, score: 0.9, box: box(0, 0, 10, 10))])
        let r = Evaluator().evaluate(input)
        XCTAssertEqual(r.classes[0].ap50to95, 0)
        XCTAssertNil(r.classes[1].ap50to95)
        XCTAssertEqual(r.map50to95, 0)
    }

    /// A 100 x 100 screen (area 10,000: small below 50 px², large from 500 px²). Class "a" has one box of
    /// each size; class "b" one large box and no detections.
    func sizeCase() -> EvaluationInput {
        EvaluationInput(
            classNames: ["a", "b"],
            images: [GroundTruthImage(imageID: "s", boxes: [box(0, 0, 5, 5), box(10, 10, 30, 20), box(40, 40, 80, 80), box(0, 0, 100, 50)],
                                      labels: [0, 0, 0, 1], screenArea: 100 * 100)],
            detections: [Detection(imageID: "s", label: 0, score: 0.9, box: box(0, 0, 5, 5)),       // the small box
                         Detection(imageID: "s", label: 0, score: 0.8, box: box(60, 0, 70, 5)),     // 50 px²: exactly 0.5%, medium; no box
                         Detection(imageID: "s", label: 0, score: 0.7, box: box(10, 10, 30, 20)),   // the medium box
                         Detection(imageID: "s", label: 0, score: 0.6, box: box(90, 90, 93, 93)),   // small, no box
                         Detection(imageID: "s", label: 0, score: 0.5, box: box(40, 40, 80, 80)),   // the large box
                         Detection(imageID: "s", label: 0, score: 0.4, box: box(0, 50, 30, 80))])   // large, no box
    }

    func testAPBySizeFollowsCOCOsAreaRangesByHand() {
        let r = Evaluator().evaluate(sizeCase())
        let a = r.classes[0], b = r.classes[1]
        XCTAssertEqual(r.sizeBuckets, .screenShare)
        XCTAssertEqual(a.gtCountBySize, BySize(small: 1, medium: 1, large: 1))
        XCTAssertEqual(b.gtCountBySize, BySize(small: 0, medium: 0, large: 1))
        // Small: the first detection is true, the small unmatched one false; the others, matched to boxes of
        // other sizes or unmatched and of another size, are ignored. Curve (1, 1) (1/2, 1): AP 1.
        XCTAssertEqual(a.apBySize.small!, 1, accuracy: 1e-12)
        // Medium: the unmatched 50 px² detection comes first (false), then the medium box: (0, 0) (1/2, 1): AP 1/2.
        XCTAssertEqual(a.apBySize.medium!, 0.5, accuracy: 1e-12)
        // Large: true, then false: AP 1.
        XCTAssertEqual(a.apBySize.large!, 1, accuracy: 1e-12)
        XCTAssertNil(b.apBySize.small)
        XCTAssertNil(b.apBySize.medium)
        XCTAssertEqual(b.apBySize.large, 0)
        // Means over the classes with boxes of that size.
        XCTAssertEqual(r.map50BySize.small!, 1, accuracy: 1e-12)
        XCTAssertEqual(r.map50BySize.medium!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.map50BySize.large!, 0.5, accuracy: 1e-12)
        // Over all sizes: T F T F T F with 3 boxes: 1/3 (1 + 2/3 + 3/5).
        XCTAssertEqual(a.ap50!, (1 + 2.0 / 3 + 0.6) / 3, accuracy: 1e-12)
    }

    func testADetectionMatchingBoxesOfTwoSizesCountsInEach() {
        // One detection overlapping a small box (IoU 0.6) and a medium box (IoU 0.8) on a 100 x 100 screen:
        // over all sizes it takes the medium box; by size, each bucket's own box first, so it is true in both.
        let input = EvaluationInput(
            classNames: ["a"],
            images: [GroundTruthImage(imageID: "s", boxes: [box(0, 0, 6, 6), box(0, 0, 10, 8)], labels: [0, 0], screenArea: 10_000)],
            detections: [Detection(imageID: "s", label: 0, score: 0.9, box: box(0, 0, 10, 6.4))])
        let c = Evaluator().evaluate(input).classes[0]
        XCTAssertEqual(c.gtCountBySize, BySize(small: 1, medium: 1, large: 0))
        XCTAssertEqual(c.apBySize.small!, 1, accuracy: 1e-12)
        XCTAssertEqual(c.apBySize.medium!, 1, accuracy: 1e-12)
        XCTAssertNil(c.apBySize.large)
        XCTAssertEqual(c.ap50!, 0.5, accuracy: 1e-12)
    }

    func testBucketsAreHalfOpenAndStatedInMetricsJSON() throws {
        let b = SizeBuckets.screenShare
        XCTAssertEqual(b.bucket(share: 0.00499), .small)
        XCTAssertEqual(b.bucket(share: 0.005), .medium)
        XCTAssertEqual(b.bucket(share: 0.04999), .medium)
        XCTAssertEqual(b.bucket(share: 0.05), .large)
        XCTAssertEqual(b.bucket(share: 1), .large)
        let metrics = MetricsFile(Evaluator().evaluate(sizeCase()))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metrics)) as! [String: Any]
        let buckets = json["size_buckets"] as! [String: Any]
        XCTAssertEqual(buckets["small"] as! [Double], [0, 0.005])
        XCTAssertEqual(buckets["medium"] as! [Double], [0.005, 0.05])
        XCTAssertEqual((buckets["large"] as! [Any]).count, 2)
        XCTAssertTrue((buckets["large"] as! [Any])[1] is NSNull)
        XCTAssertEqual(json["map50_medium"] as! Double, 0.5, accuracy: 1e-12)
        let a = (json["classes"] as! [[String: Any]])[0]
        XCTAssertEqual(a["gt_count_small"] as? Int, 1)
        XCTAssertEqual(a["ap50_medium"] as! Double, 0.5, accuracy: 1e-12)
        XCTAssertNotNil(a["ap50_95"] as? Double)
        let bClass = (json["classes"] as! [[String: Any]])[1]
        XCTAssertTrue(bClass["ap50_small"] is NSNull, "a bucket without boxes is null, not left out")
        XCTAssertEqual(try JSONDecoder().decode(MetricsFile.self, from: JSONEncoder().encode(metrics)), metrics)
    }

    func testWithoutScreenSizesThereAreNoFiguresBySize() throws {
        let r = Evaluator().evaluate(handCaseInput())
        XCTAssertNil(r.sizeBuckets)
        XCTAssertNil(r.classes[0].gtCountBySize)
        XCTAssertNil(r.classes[0].apBySize.small)
        XCTAssertNil(r.map50BySize.large)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(MetricsFile(r))) as! [String: Any]
        XCTAssertTrue(json["size_buckets"] is NSNull)
        XCTAssertNotNil(json["map50_95"] as? Double)
    }
}
