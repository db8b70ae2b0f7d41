import Boxes
import Evaluation
import Foundation
import SeededRandom
import TestSupport
import XCTest

/// A hand-made case where every error kind and every reason for a miss occurs, at 0.5 for both classes
/// (no picks): class a (0) and b (1) on screen s1, one true positive of b on s2.
///
/// True boxes of s1: G0 a, G1 a, G2 b, G3 a, G4 a, G5 b, G6 a, G7 a (G7 inside G6). Detections, by
/// what they are at 0.5: D0 a 0.9 takes G0; D1 a 0.8 on G0 again (duplicate); D2 a 0.85 on G1 at IoU 0.4
/// (poor localisation); D3 a 0.95 on G2 (wrong class, G2 is b); D4 b 0.75 on nothing (background);
/// D5 a 0.3 on G4 (below the threshold: not kept); D6 b 0.6 on G5 at IoU 0.4 (poor localisation);
/// D7 a 0.7 takes G6 and covers G7; D8 b 0.2 half over G3 (not kept); D9 b 0.9 takes s2's G8.
func everyKindInput() -> EvaluationInput {
    EvaluationInput(
        classNames: ["a", "b"],
        images: [GroundTruthImage(imageID: "s1",
                                  boxes: [box(0, 0, 10, 10), box(20, 0, 30, 10), box(40, 0, 50, 10), box(60, 0, 70, 10), box(80, 0, 90, 10),
                                          box(100, 0, 110, 10), box(140, 0, 150, 10), box(140, 0, 150, 9)],
                                  labels: [0, 0, 1, 0, 0, 1, 0, 0]),
                 GroundTruthImage(imageID: "s2", boxes: [box(0, 0, 10, 10)], labels: [1])],
        detections: [Detection(imageID: "s1", label: 0, score: 0.9, box: box(0, 0, 10, 10)),
                     Detection(imageID: "s1", label: 0, score: 0.8, box: box(0, 0, 10, 10.5)),
                     Detection(imageID: "s1", label: 0, score: 0.85, box: box(20, 0, 30, 4)),
                     Detection(imageID: "s1", label: 0, score: 0.95, box: box(40, 0, 50, 10)),
                     Detection(imageID: "s1", label: 1, score: 0.75, box: box(200, 200, 210, 210)),
                     Detection(imageID: "s1", label: 0, score: 0.3, box: box(80, 0, 90, 10)),
                     Detection(imageID: "s1", label: 1, score: 0.6, box: box(100, 0, 110, 4)),
                     Detection(imageID: "s1", label: 0, score: 0.7, box: box(140, 0, 150, 10)),
                     Detection(imageID: "s1", label: 1, score: 0.2, box: box(60, 0, 70, 5)),
                     Detection(imageID: "s2", label: 1, score: 0.9, box: box(1, 0, 10, 10))])
}

final class ErrorAnalysisTests: XCTestCase {
    let noPicks: [PickedThreshold?] = [nil, nil]

    func testEveryKindAndReasonByHand() {
        let errors = Evaluator().errors(everyKindInput(), picks: noPicks)
        let r = errors.records
        // s1's kept detections in input order (D5 and D8 are below 0.5), then its missed boxes, then s2.
        XCTAssertEqual(r.map(\.kind), [.truePositive, .duplicate, .poorLocalization, .wrongClass, .background, .poorLocalization, .truePositive,
                                       .missed, .missed, .missed, .missed, .missed, .missed, .truePositive])
        XCTAssertEqual(r.map(\.imageID), [String](repeating: "s1", count: 13) + ["s2"])
        XCTAssertEqual(r.map(\.score), [0.9, 0.8, 0.85, 0.95, 0.75, 0.6, 0.7, nil, nil, nil, nil, nil, nil, 0.9])
        // What each relates to: a true positive its box, the duplicate G0, poor localisations their boxes,
        // the wrong class G2 (of class b), background nothing.
        XCTAssertEqual(r[0].other, RelatedBox(box: box(0, 0, 10, 10), label: 0, score: nil, iou: 1))
        XCTAssertEqual(r[1].other?.box, box(0, 0, 10, 10))
        XCTAssertEqual(r[1].other?.iou ?? 0, 100.0 / 105, accuracy: 1e-12)
        XCTAssertEqual(r[2].other?.box, box(20, 0, 30, 10))
        XCTAssertEqual(r[2].other?.iou ?? 0, 0.4, accuracy: 1e-12)
        XCTAssertEqual(r[3].other?.label, 1, "a wrong class names the true class")
        XCTAssertEqual(r[3].other?.box, box(40, 0, 50, 10))
        XCTAssertNil(r[4].other)
        XCTAssertEqual(r[5].other?.box, box(100, 0, 110, 10))
        // The missed boxes G1, G2, G3, G4, G5, G7 with why and the detection that comes nearest to matching.
        let missed = Array(r[7..<13])
        XCTAssertEqual(missed.map(\.box), [box(20, 0, 30, 10), box(40, 0, 50, 10), box(60, 0, 70, 10), box(80, 0, 90, 10), box(100, 0, 110, 10), box(140, 0, 150, 9)])
        XCTAssertEqual(missed.map(\.reason), [.poorLocalization, .wrongClass, .notDetected, .belowThreshold, .poorLocalization, .takenByAnother])
        XCTAssertEqual(missed.map { $0.other?.score }, [0.85, 0.95, 0.2, 0.3, 0.6, 0.7])
        XCTAssertEqual(missed.map { $0.other?.label }, [0, 0, 1, 0, 1, 0])
        XCTAssertEqual(missed[2].other?.iou ?? 0, 0.5, accuracy: 1e-12, "the nearest detection of any class and score")
        XCTAssertTrue(r.allSatisfy { ($0.kind == .missed) == ($0.reason != nil) }, "a reason for misses only")

        var a = ErrorCounts()
        (a.truePositive, a.duplicate, a.poorLocalization, a.wrongClass, a.missed) = (2, 1, 1, 1, 4)
        var b = ErrorCounts()
        (b.truePositive, b.background, b.poorLocalization, b.missed) = (1, 1, 1, 2)
        XCTAssertEqual(errors.classes.map(\.counts), [a, b])
        XCTAssertEqual(errors.classes.map(\.threshold), [0.5, 0.5])
        XCTAssertEqual(errors.classes.map(\.thresholdPicked), [false, false])
    }

    func testKindsAddUpToDetectionsKeptAndTrueBoxes() {
        let input = everyKindInput()
        let errors = Evaluator().errors(input, picks: noPicks)
        for (c, e) in errors.classes.enumerated() {
            let kept = input.detections.filter { $0.label == c && $0.score >= 0.5 }.count
            let truth = input.images.flatMap(\.labels).filter { $0 == c }.count
            XCTAssertEqual(e.counts.keptDetections, kept, e.name)
            XCTAssertEqual(e.counts.truePositive + e.counts.missed, truth, e.name)
            XCTAssertEqual(ErrorKind.allCases.map { e.counts[$0] }.reduce(0, +), kept + truth - e.counts.truePositive,
                           "one record per kept detection and per missed box: a true positive stands for its pair")
        }
        XCTAssertEqual(errors.records.count, 14)
    }

    func testAtThePickedThresholdsTheCountsAreThePicksOwn() {
        // Random screens: at each class's pick, its true and false positives are the pick's tp and fp.
        var generator = SeededGenerator(seed: 91)
        for _ in 0..<20 {
            var images: [GroundTruthImage] = [], detections: [Detection] = []
            for i in 0..<6 {
                var boxes: [Box] = [], labels: [Int] = []
                for _ in 0..<Int.random(in: 0...5, using: &generator) {
                    let x = Float(Int.random(in: 0...80, using: &generator)), y = Float(Int.random(in: 0...80, using: &generator))
                    boxes.append(box(x, y, x + Float(Int.random(in: 4...20, using: &generator)), y + Float(Int.random(in: 4...20, using: &generator))))
                    labels.append(Int.random(in: 0...2, using: &generator))
                }
                images.append(GroundTruthImage(imageID: "i\(i)", boxes: boxes, labels: labels))
                for _ in 0..<Int.random(in: 0...8, using: &generator) {
                    let x = Float(Int.random(in: 0...80, using: &generator)), y = Float(Int.random(in: 0...80, using: &generator))
                    detections.append(Detection(imageID: "i\(i)", label: Int.random(in: 0...2, using: &generator),
                                                score: Double(Int.random(in: 1...20, using: &generator)) / 20,
                                                box: box(x, y, x + Float(Int.random(in: 4...20, using: &generator)), y + Float(Int.random(in: 4...20, using: &generator)))))
                }
            }
            let input = EvaluationInput(classNames: ["x", "y", "z"], images: images, detections: detections)
            let summary = Evaluator().summarize(input)
            let errors = Evaluator().errors(input, picks: summary.picks)
            for (c, e) in errors.classes.enumerated() {
                let truth = labelsCount(input, c)
                XCTAssertEqual(e.counts.truePositive + e.counts.missed, truth)
                XCTAssertEqual(e.counts.keptDetections, input.detections.filter { $0.label == c && $0.score >= e.threshold }.count)
                if let pick = summary.picks[c] {
                    XCTAssertEqual(e.counts.truePositive, pick.tp)
                    XCTAssertEqual(e.counts.falsePositives, pick.fp)
                }
                // With nothing fixed the cost measure is the class's own AP50, so every gain is >= 0.
                if let gains = e.gains {
                    for k in APGains.kinds { XCTAssertGreaterThanOrEqual(gains[k]!, -1e-12, "\(k)") }
                } else {
                    XCTAssertEqual(truth, 0)
                }
            }
        }
    }

    private func labelsCount(_ input: EvaluationInput, _ c: Int) -> Int { input.images.flatMap(\.labels).filter { $0 == c }.count }

    func testWhatEachKindCostsByHand() throws {
        // Class a's curve (G = 6): D3 F, D0 T, D2 F, D1 F, D7 T, D5 T: AP 1/4 (precision 1/2 at recalls 1/6, 2/6, 3/6).
        // Fixing duplicates drops D1: F T F T T, 3/6 x 3/5 = 0.3. Fixing localisation makes D2 take G1:
        // F T T F T T, 4/6 x 2/3 = 4/9. Fixing class confusion moves D3 to b and brings b's D8 (wrong class
        // on G3) in at 0.2: T F F T T T, 1/6 + 3/6 x 2/3 = 1/2. Fixing misses drops G7 (nothing took it, and
        // no poorly localised or wrong-class detection could): G = 5, 3/5 x 1/2 = 0.3.
        // Class b's curve (G = 3): D9 T, D4 F, D6 F, D8 F: AP 1/3. Background: the same; localisation:
        // T F T F, 1/3 + 1/3 x 2/3 = 5/9; class confusion: D3 comes in at 0.95 on G2, D8 leaves: T T F F, 2/3.
        let errors = Evaluator().errors(everyKindInput(), picks: noPicks)
        let a = try XCTUnwrap(errors.classes[0].gains), b = try XCTUnwrap(errors.classes[1].gains)
        XCTAssertEqual(a.background, 0, accuracy: 1e-12)
        XCTAssertEqual(a.duplicate, 0.3 - 0.25, accuracy: 1e-12)
        XCTAssertEqual(a.poorLocalization, 4.0 / 9 - 0.25, accuracy: 1e-12)
        XCTAssertEqual(a.wrongClass, 0.5 - 0.25, accuracy: 1e-12)
        XCTAssertEqual(a.missed, 0.3 - 0.25, accuracy: 1e-12)
        XCTAssertEqual(b.background, 0, accuracy: 1e-12)
        XCTAssertEqual(b.duplicate, 0, accuracy: 1e-12)
        XCTAssertEqual(b.poorLocalization, 5.0 / 9 - 1.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(b.wrongClass, 2.0 / 3 - 1.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(b.missed, 0, accuracy: 1e-12)
        let mean = try XCTUnwrap(errors.meanGains)
        XCTAssertEqual(mean.poorLocalization, (a.poorLocalization + b.poorLocalization) / 2, accuracy: 1e-12)
        XCTAssertEqual(mean.wrongClass, (0.25 + 1.0 / 3) / 2, accuracy: 1e-12)
        // With nothing fixed, the measure is the evaluator's AP50 (bit for bit: the same function on the same steps).
        let ap = Evaluator().evaluate(everyKindInput()).classes.map(\.ap50)
        XCTAssertEqual(ap[0]!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(ap[1]!, 1.0 / 3, accuracy: 1e-12)
    }

    func testAClassWithoutGroundTruthHasCountsButNoGains() {
        var input = everyKindInput()
        input.classNames.append("c")
        input.detections.append(Detection(imageID: "s2", label: 2, score: 0.99, box: box(0, 0, 10, 10)))
        let errors = Evaluator().errors(input, picks: [nil, nil, nil])
        XCTAssertNil(errors.classes[2].gains)
        XCTAssertEqual(errors.classes[2].counts.wrongClass, 1, "on s2's b box")
        XCTAssertEqual(errors.classes.count, 3)
    }
}

final class ErrorsFileTests: XCTestCase {
    func testOneRecordPerLineWithEveryKey() throws {
        var input = everyKindInput()
        input.images[1].imageID = "s\"2\n"
        input.detections[9].imageID = "s\"2\n"
        let summary = Evaluator().summarize(input)
        let errors = Evaluator().errors(input, picks: [nil, nil])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("errors-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        var withErrors = summary
        withErrors.errors = errors
        try EvaluationFiles.write(withErrors, to: dir)
        let data = try Data(contentsOf: dir.appendingPathComponent(ErrorsFile.fileName))
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(text.split(separator: "\n").count, errors.records.count + 2, "one record per line between [ and ]")
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        XCTAssertEqual(parsed.count, 14)
        for record in parsed { XCTAssertEqual(Set(record.keys), ["image_id", "class", "score", "box", "kind", "reason", "other"]) }
        XCTAssertEqual(parsed.map { $0["kind"] as? String }, errors.records.map(\.kind.rawValue))
        XCTAssertEqual(parsed[13]["image_id"] as? String, "s\"2\n")
        // The wrong class: its detection, and the true box it is on with the true class.
        let wrong = parsed[3]
        XCTAssertEqual(wrong["class"] as? String, "a")
        XCTAssertEqual(wrong["score"] as? Double, 0.95)
        XCTAssertEqual(wrong["box"] as? [Double], [40, 0, 50, 10])
        XCTAssertTrue(wrong["reason"] is NSNull)
        let other = try XCTUnwrap(wrong["other"] as? [String: Any])
        XCTAssertEqual(Set(other.keys), ["class", "score", "box", "iou"])
        XCTAssertEqual(other["class"] as? String, "b")
        XCTAssertTrue(other["score"] is NSNull, "a true box has no score")
        XCTAssertEqual(other["iou"] as? Double, 1)
        // A miss: no score, why, and its nearest detection.
        let miss = parsed[9]
        XCTAssertTrue(miss["score"] is NSNull)
        XCTAssertEqual(miss["reason"] as? String, "not_detected")
        XCTAssertEqual((miss["other"] as? [String: Any])?["score"] as? Double, 0.2)
        XCTAssertTrue(parsed[4]["other"] is NSNull, "background relates to nothing")

        // metrics.json gains the counts and the gains beside its keys; a summary without errors writes none of them.
        let metrics = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(MetricsFile.fileName))) as! [String: Any]
        let a = (metrics["classes"] as! [[String: Any]])[0]
        XCTAssertEqual((a["errors"] as? [String: Any])?["wrong_class"] as? Int, 1)
        XCTAssertEqual((a["errors"] as? [String: Any])?["threshold_picked"] as? Bool, false, "analysed at 0.5, not at a pick")
        XCTAssertNotNil(a["ap50_gain"] as? [String: Any])
        XCTAssertNotNil(metrics["map50_gain"] as? [String: Any])
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("errors-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: plain) }
        try EvaluationFiles.write(summary, to: plain)
        XCTAssertFalse(FileManager.default.fileExists(atPath: plain.appendingPathComponent(ErrorsFile.fileName).path))
        let before = try String(contentsOf: plain.appendingPathComponent(MetricsFile.fileName), encoding: .utf8)
        XCTAssertFalse(before.contains("gain") || before.contains("\"errors\""), before)
    }
}
