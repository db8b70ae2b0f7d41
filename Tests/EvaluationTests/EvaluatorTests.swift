import Boxes
@testable import Evaluation
import Images
import Shards
import Foundation
import TestSupport
import XCTest


/// Class 0: three boxes on two images; detections TP, FP, TP, FP in score order.
func handCaseInput() -> EvaluationInput {
    EvaluationInput(
        classNames: ["a", "b"],
        images: [GroundTruthImage(imageID: "i1", boxes: [box(0, 0, 10, 10), box(20, 20, 30, 30)], labels: [0, 0]),
                 GroundTruthImage(imageID: "i2", boxes: [box(0, 0, 10, 10)], labels: [0])],
        detections: [Detection(imageID: "i1", label: 0, score: 0.9, box: box(0, 0, 10, 10)),
                     Detection(imageID: "i2", label: 0, score: 0.8, box: box(50, 50, 60, 60)),
                     Detection(imageID: "i2", label: 0, score: 0.7, box: box(0, 0, 10, 11)),
                     Detection(imageID: "i1", label: 0, score: 0.6, box: box(40, 0, 45, 5))])
}


final class EvaluatorTests: XCTestCase {
    func handCase() -> EvaluationInput { handCaseInput() }

    func testEachInterpolationByHand() {
        // Curve (P, R): (1, 1/3) (1/2, 1/3) (2/3, 2/3) (1/2, 2/3); interpolated P: 1, 2/3, 2/3, 1/2.
        let ap = { (i: Interpolation) in Evaluator(interpolation: i).evaluate(self.handCase()).classes[0].ap50! }
        XCTAssertEqual(ap(.allPoint), 1.0 / 3 + (1.0 / 3) * (2.0 / 3), accuracy: 1e-12)   // 5/9
        XCTAssertEqual(ap(.coco101), (34 + 33 * 2.0 / 3) / 101, accuracy: 1e-12)           // r_0..r_33 reach 1/3, r_34..r_66 reach 2/3
        XCTAssertEqual(ap(.voc11), (4 + 3 * 2.0 / 3) / 11, accuracy: 1e-12)                // 0, .1, .2, .3 -> 1; .4, .5, .6 -> 2/3
        let r = Evaluator().evaluate(handCase())
        XCTAssertEqual(r.classes[0].curve.map(\.tp), [1, 1, 2, 2])
        XCTAssertEqual(r.classes[0].curve.map(\.fp), [0, 1, 1, 2])
        XCTAssertNil(r.classes[1].ap50, "a class without ground truth has no AP")
        XCTAssertEqual(r.map50!, 5.0 / 9, accuracy: 1e-12, "the mean leaves out classes without ground truth")
    }

    func testCoco101ThresholdsAreLinspaceValues() {
        // Recall exactly 0.35 does not reach r_35 = 0.35000000000000003.
        var images: [GroundTruthImage] = []
        var dets: [Detection] = []
        for i in 0..<20 {
            images.append(GroundTruthImage(imageID: "\(i)", boxes: [box(0, 0, 10, 10)], labels: [0]))
            if i < 7 { dets.append(Detection(imageID: "\(i)", label: 0, score: 1 - Double(i) * 0.01, box: box(0, 0, 10, 10))) }
        }
        let ap = Evaluator(interpolation: .coco101).evaluate(EvaluationInput(classNames: ["a"], images: images, detections: dets)).classes[0].ap50!
        XCTAssertEqual(ap, 35.0 / 101, accuracy: 1e-12)  // r_0 ... r_34 only
    }

    func testTiesKeepInputOrder() {
        // Two detections of equal score on one box: the first in input order takes it.
        let input = EvaluationInput(classNames: ["a"], images: [GroundTruthImage(imageID: "x", boxes: [box(0, 0, 10, 10)], labels: [0])],
                                    detections: [Detection(imageID: "x", label: 0, score: 0.5, box: box(0, 0, 10, 20)),   // IoU 0.5
                                                 Detection(imageID: "x", label: 0, score: 0.5, box: box(0, 0, 10, 10))])  // IoU 1
        let c = Evaluator().evaluate(input).classes[0]
        XCTAssertEqual(c.curve.map(\.tp), [1, 1])
        XCTAssertEqual(c.ap50!, 1, accuracy: 1e-12)
    }

    func testADetectionWhoseBestBoxIsTakenTakesTheNextOne() {
        let gt = GroundTruthImage(imageID: "x", boxes: [box(0, 0, 10, 10), box(2, 0, 12, 10)], labels: [0, 0])
        let input = EvaluationInput(classNames: ["a"], images: [gt],
                                    detections: [Detection(imageID: "x", label: 0, score: 0.9, box: box(0, 0, 10, 10)),
                                                 Detection(imageID: "x", label: 0, score: 0.8, box: box(0, 0, 10, 10))])
        // The second's best box (IoU 1) is taken; the other has IoU 80/120 >= 0.5: a true positive.
        XCTAssertEqual(Evaluator().evaluate(input).classes[0].curve.map(\.tp), [1, 2])
    }

    func testIoUOfExactlyOneHalfMatchesAndNoDetectionsGiveZero() {
        let input = EvaluationInput(classNames: ["a", "b"],
                                    images: [GroundTruthImage(imageID: "x", boxes: [box(0, 0, 2, 1), box(5, 5, 6, 6)], labels: [0, 1])],
                                    detections: [Detection(imageID: "x", label: 0, score: 0.3, box: box(0, 0, 1, 1))])
        let r = Evaluator().evaluate(input)
        XCTAssertEqual(r.classes[0].ap50, 1)
        XCTAssertEqual(r.classes[1].ap50, 0, "a class with ground truth and no detections has AP 0")
        XCTAssertEqual(r.classes[1].curve, [])
    }

    func testCenterOnABoxEdgeCountsForAPCenterOnly() {
        let input = EvaluationInput(classNames: ["a"], images: [GroundTruthImage(imageID: "x", boxes: [box(0, 0, 10, 10)], labels: [0])],
                                    detections: [Detection(imageID: "x", label: 0, score: 0.9, box: box(5, 5, 15, 15))])  // centre (10, 10)
        let c = Evaluator().evaluate(input).classes[0]
        XCTAssertEqual(c.ap50, 0)
        XCTAssertEqual(c.apCenter, 1)
    }

    func testWeightedMeans() {
        var input = handCase()
        input.images.append(GroundTruthImage(imageID: "i3", boxes: [box(0, 0, 5, 5)], labels: [1]))
        input.detections.append(Detection(imageID: "i3", label: 1, score: 0.5, box: box(0, 0, 5, 5)))
        let r = Evaluator().evaluate(input)
        XCTAssertEqual(r.map50!, (5.0 / 9 + 1) / 2, accuracy: 1e-12)
        XCTAssertEqual(r.map50Weighted!, (3 * 5.0 / 9 + 1) / 4, accuracy: 1e-12)
    }

    func testThresholdStrategies() {
        // G = 3; points after each distinct score: 0.9 (1,0), 0.8 (1,1), 0.7 (2,1), 0.6 (2,2).
        let c = Evaluator().evaluate(handCase()).classes[0]
        let f1 = ThresholdPicker.pick(c.curve, groundTruth: 3, strategy: .maxF1)!
        // F1 = 2TP / (TP + FP + G): 2/4, 2/5, 4/6, 4/7 -> 0.7 wins.
        XCTAssertEqual(f1.threshold, 0.7)
        XCTAssertEqual(f1.f1, 2.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(ThresholdPicker.pick(c.curve, groundTruth: 3, strategy: .minPrecision(0.6))!.threshold, 0.7)  // lowest with P >= .6
        XCTAssertEqual(ThresholdPicker.pick(c.curve, groundTruth: 3, strategy: .minPrecision(1))!.threshold, 0.9)
        XCTAssertEqual(ThresholdPicker.pick(c.curve, groundTruth: 3, strategy: .minRecall(0.5))!.threshold, 0.7)      // highest with R >= .5
        XCTAssertNil(ThresholdPicker.pick(c.curve, groundTruth: 3, strategy: .minRecall(0.9)))
        XCTAssertNil(ThresholdPicker.pick([], groundTruth: 0, strategy: .maxF1))
    }

    func testMaxF1TieTakesTheHigherThresholdAndEqualScoresMoveTogether() {
        // Scores 0.9 (TP), 0.5 (FP), 0.5 (TP), G = 2: points 0.9 (1,0): F1 2/3; 0.5 (2,1): F1 4/5.
        let input = EvaluationInput(classNames: ["a"],
                                    images: [GroundTruthImage(imageID: "x", boxes: [box(0, 0, 10, 10), box(20, 0, 30, 10)], labels: [0, 0])],
                                    detections: [Detection(imageID: "x", label: 0, score: 0.9, box: box(0, 0, 10, 10)),
                                                 Detection(imageID: "x", label: 0, score: 0.5, box: box(50, 0, 60, 10)),
                                                 Detection(imageID: "x", label: 0, score: 0.5, box: box(20, 0, 30, 10))])
        let pick = ThresholdPicker.pick(Evaluator().evaluate(input).classes[0].curve, groundTruth: 2, strategy: .maxF1)!
        XCTAssertEqual(pick.threshold, 0.5)
        XCTAssertEqual(pick.tp, 2)
        XCTAssertEqual(pick.fp, 1)
        // Equal F1 (2/3 and 4/6) at two thresholds: the higher one is kept.
        let tie = [PRPoint(threshold: 0.8, precision: 1, recall: 0.5, tp: 1, fp: 0), PRPoint(threshold: 0.3, precision: 0.5, recall: 1, tp: 2, fp: 2)]
        XCTAssertEqual(ThresholdPicker.pick(tie, groundTruth: 2, strategy: .maxF1)!.threshold, 0.8)  // 2/3 vs 4/6
    }

    func testConfusionMatrixPairsByDecreasingIoU() {
        // One screen: icon box I, text box T; detections: text over I (IoU .81), icon over I (IoU 1), a false alarm.
        let input = EvaluationInput(classNames: ["icon", "text"],
                                    images: [GroundTruthImage(imageID: "x", boxes: [box(0, 0, 10, 10), box(20, 0, 40, 10)], labels: [0, 1])],
                                    detections: [Detection(imageID: "x", label: 1, score: 0.9, box: box(0, 0, 9, 9)),
                                                 Detection(imageID: "x", label: 0, score: 0.8, box: box(0, 0, 10, 10)),
                                                 Detection(imageID: "x", label: 0, score: 0.9, box: box(60, 60, 70, 70)),
                                                 Detection(imageID: "x", label: 1, score: 0.1, box: box(20, 0, 40, 10))])  // below 0.5: dropped
        let m = ConfusionMatrix(input, thresholds: [nil, nil])
        // icon->icon (IoU 1 first); the text detection on I is left over (false alarm); T is missed; the far icon is a false alarm.
        XCTAssertEqual(m.counts, [[1, 0, 0], [0, 0, 1], [1, 1, 0]])
        XCTAssertEqual(CSV.text(ConfusionMatrixFile.rows(m)), "ground_truth,icon,text,background\nicon,1,0,0\ntext,0,0,1\nbackground,1,1,0\n")
        let lower = ConfusionMatrix(input, thresholds: [nil, 0.05])
        XCTAssertEqual(lower.counts[1][1], 1, "a per-class threshold keeps the low-scored text detection")
    }
}

final class EvaluationInputTests: XCTestCase {
    func write(_ text: String) throws -> URL {
        let url = try scratchFolder(prefix: "uidetect-dets").appendingPathComponent("dets.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func load(_ text: String) throws -> [Detection] {
        try EvaluationLoader.detectionsJSON(try write(text), classNames: ["icon", "text"], imageIDs: ["a", "b"], classMap: nil)
    }

    func testReadsNamesAndIndices() throws {
        let d = try load(#" [ {"image_id": "a", "extra": {"k": [1, true, null, "x\"y"]}, "class": "text", "score": 0.5, "box": [1, 2, 3, 4]},{"image_id":"b","class":0,"score":1,"box":[0,0,1,1.5e0]} ] "#)
        XCTAssertEqual(d, [Detection(imageID: "a", label: 1, score: 0.5, box: box(1, 2, 3, 4)), Detection(imageID: "b", label: 0, score: 1, box: box(0, 0, 1, 1.5))])
    }

    /// Once a crash: a value nested 200,000 deep in a key the schema skips, and surrogate escapes without their pair.
    func testDeepNestingAndLoneSurrogatesNeitherCrashNorPass() throws {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let d = try load(#"[{"image_id": "a", "extra": "# + deep + #", "class": "text", "score": 0.5, "box": [1, 2, 3, 4]}]"#)
        XCTAssertEqual(d.count, 1)
        let unclosed = String(repeating: "[", count: 200_000)
        XCTAssertThrowsError(try load(#"[{"image_id": "a", "extra": "# + unclosed)) { e in XCTAssertTrue("\(e)".contains("truncated"), "\(e)") }
        // \uD800 followed by a letter's escape, a lone low surrogate, and a proper pair.
        let url = try write(#"[{"image_id": "a\uD800\u0041\uDC00\uD83D\uDE00", "class": "text", "score": 0.5, "box": [1, 2, 3, 4]}]"#)
        XCTAssertThrowsError(try EvaluationLoader.detectionsJSON(url, classNames: ["text"], imageIDs: ["a"], classMap: nil)) { e in
            XCTAssertTrue("\(e)".contains("a\u{FFFD}A\u{FFFD}\u{1F600}"), "the id reads as U+FFFD, A, U+FFFD, 😀: \(e)")
        }
    }

    func testBadRecordsNameTheirPosition() throws {
        let cases: [(String, String)] = [
            (#"[{"image_id": "a", "class": "text", "score": 0.5, "box": [1, 2, 3, 4]}, {"image_id": "zz", "class": "text", "score": 0.5, "box": [1, 2, 3, 4]}]"#, "detection 1"),
            (#"[{"image_id": "a", "class": "slider", "score": 0.5, "box": [1, 2, 3, 4]}]"#, "detection 0"),
            (#"[{"image_id": "a", "class": 7, "score": 0.5, "box": [1, 2, 3, 4]}]"#, "detection 0"),
            (#"[{"image_id": "a", "class": "text", "score": 1e999, "box": [1, 2, 3, 4]}]"#, "detection 0"),
            (#"[{"image_id": "a", "class": "text", "score": 0.5, "box": [1, 2, 1e999, 4]}]"#, "detection 0"),
            (#"[{"image_id": "a", "class": "text", "score": 0.5, "box": [1, 2, 3]}]"#, "detection 0"),
            // Inverted: x_max below x_min (it scored AP-center 1 before), then y_max below y_min.
            (#"[{"image_id": "a", "class": "text", "score": 0.5, "box": [1, 2, 3, 4]}, {"image_id": "a", "class": "text", "score": 0.5, "box": [30, 2, 3, 4]}]"#, "detection 1"),
            (#"[{"image_id": "a", "class": "text", "score": 0.5, "box": [1, 40, 3, 4]}]"#, "detection 0"),
        ]
        for (text, position) in cases {
            XCTAssertThrowsError(try load(text), text) { XCTAssertEqual(($0 as? EvaluationInputError)?.position, position, text) }
        }
        XCTAssertThrowsError(try load("")) { XCTAssertTrue(($0 as? EvaluationInputError)?.problem.contains("empty") ?? false) }
        XCTAssertThrowsError(try load(#"[{"image_id": "a", "class": "text", "score": 0.5, "box": [1, 2, 3, 4]}, {"image_id": "a", "class": "te"#)) {
            let e = $0 as? EvaluationInputError
            XCTAssertTrue(e?.problem.contains("truncated") ?? false, "\(String(describing: e))")
            XCTAssertTrue(e?.position.hasPrefix("detection 1") ?? false, "\(String(describing: e))")
        }
        XCTAssertThrowsError(try load(#"{"image_id": "a"}"#)) { XCTAssertEqual(($0 as? EvaluationInputError)?.position, "byte 0") }
    }
}

final class DetectionNumberTests: XCTestCase {
    /// Scores parse to exactly the correctly rounded double, whichever path the parser takes.
    func testNumbersParseExactly() throws {
        var texts = ["0", "1", "-0.5", "0.1", "0.30000000000000004", "123456789012345678", "9007199254740993", "1e22", "1e23",
                     "1.5e-7", "-2.5E+3", "0.000001", "3.141592653589793", "1e-22", "4.9e-324", "1.7976931348623157e308", "12.0625"]
        var state: UInt64 = 99
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let v = Double(state >> 11) * 0x1.0p-53 * pow(10, Double(Int(state % 13)) - 6)
            texts += [String(v), String(format: "%.6f", v), String(format: "%.3e", v), String(Float(v))]
        }
        // 16-19 significant digits, past Clinger's fast path: a float score printed as a double, and halfway cases.
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            texts += [String(Double(Float(bitPattern: UInt32(truncatingIfNeeded: state >> 33) & 0x3F7F_FFFF))), "0." + String(state % 10_000_000_000_000_000_000)]
        }
        texts += ["9007199254740993.0", "0.50000000000000011102230246251565", "1.00000000000000011102230246251565404",
                  "0.1000000000000000055511151231257827", "4503599627370497.5", "0.9999999999999999444888487687421729"]
        let json = "[" + texts.map { #"{"image_id": "a", "class": "icon", "score": \#($0), "box": [0, 0, 1, 1]}"# }.joined(separator: ",") + "]"
        let url = try scratchFolder(prefix: "uidetect-numbers").appendingPathComponent("numbers.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        let dets = try EvaluationLoader.detectionsJSON(url, classNames: ["icon"], imageIDs: ["a"], classMap: nil)
        for (d, t) in zip(dets, texts) { XCTAssertEqual(d.score, Double(t)!, "\(t)") }
    }
}

final class DecimalToDoubleTests: XCTestCase {
    /// m / 10^e is the correctly rounded double, or nil (left to strtod), for mantissas past 2^53.
    func testQuotientsAreCorrectlyRounded() {
        var state: UInt64 = 7
        var checked = 0
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let m = state >> UInt64(state % 11)  // 53 to 64 bits
            let e = Int(state >> 40) % 23
            guard let q = DecimalToDouble.quotient(m, e) else { continue }
            XCTAssertEqual(q, Double("\(m)e-\(e)")!, "\(m)e-\(e)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 150_000, "most of them take the exact path")
        // Halfway between two doubles: ties go to the even significand, both ways.
        XCTAssertEqual(DecimalToDouble.quotient(9_007_199_254_740_993, 0), 9_007_199_254_740_992)
        XCTAssertEqual(DecimalToDouble.quotient(9_007_199_254_740_995, 0), 9_007_199_254_740_996)
        XCTAssertEqual(DecimalToDouble.quotient(90_071_992_547_409_930, 1), 9_007_199_254_740_992)
    }
}

/// Files over 1 MiB are parsed in two halves at once; the result must be the one-pass result.
final class DetectionHalvesTests: XCTestCase {
    /// `count` records; record i is on image "img-<i / 7>" unless `imageID` says otherwise.
    func file(_ count: Int, imageID: (Int) -> String = { "img-\($0 / 7)" }, record: (Int) -> String? = { _ in nil }) throws -> URL {
        let body = (0..<count).map { i in
            record(i) ?? #"{"image_id": "\#(imageID(i))", "class": "\#(i % 3 == 0 ? "icon" : "text")", "score": \#(Double(i % 1000) / 1000), "box": [\#(i % 50), 1, \#(i % 50 + 3), 4.5]}"#
        }
        let url = try scratchFolder(prefix: "uidetect-halves").appendingPathComponent("halves.json")
        try ("[\n" + body.joined(separator: ",\n") + "\n]\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func load(_ url: URL, ids: Set<String>) throws -> [Detection] {
        try EvaluationLoader.detectionsJSON(url, classNames: ["icon", "text"], imageIDs: ids, classMap: nil)
    }

    func testBothHalvesTogetherAreTheWholeFileInOrder() throws {
        let n = 20_000  // about 1.9 MB
        let url = try file(n)
        defer { try? FileManager.default.removeItem(at: url) }
        let dets = try load(url, ids: Set((0..<n).map { "img-\($0 / 7)" }))
        XCTAssertEqual(dets.count, n)
        for (i, d) in dets.enumerated() {
            XCTAssertEqual(d.imageID, "img-\(i / 7)")
            XCTAssertEqual(d.label, i % 3 == 0 ? 0 : 1)
            XCTAssertEqual(d.score, Double(i % 1000) / 1000)
            XCTAssertEqual(d.box.xMin, Float(i % 50))
        }
    }

    /// Image ids full of "}, {" fool the guess of where the second half starts: the first half
    /// finds out and parses the whole file, with the same result.
    func testABoundaryGuessedInsideAStringIsCaughtAndTheFileStillReadsWhole() throws {
        let n = 20_000
        let id = { (i: Int) in "x}, {\(i / 7)}, {" + String(repeating: "}, {", count: 20) }
        let url = try file(n, imageID: id)
        defer { try? FileManager.default.removeItem(at: url) }
        let dets = try load(url, ids: Set((0..<n).map(id)))
        XCTAssertEqual(dets.count, n)
        XCTAssertEqual(dets.map(\.imageID), (0..<n).map(id))
    }

    func testErrorsInTheSecondHalfNameTheirRecordInTheWholeFile() throws {
        let n = 20_000
        let ids = Set((0..<n).map { "img-\($0 / 7)" })
        let badSchema = try file(n, record: { $0 == 17_001 ? #"{"image_id": "img-1", "class": "icon", "box": [0, 0, 1, 1]}"# : nil })
        defer { try? FileManager.default.removeItem(at: badSchema) }
        XCTAssertThrowsError(try load(badSchema, ids: ids)) { XCTAssertEqual(($0 as? EvaluationInputError)?.position, "detection 17001") }
        let badSyntax = try file(n, record: { $0 == 16_002 ? #"{"image_id": "img-1", "class": "icon", "score": 0.5, "box": [0, 0, 1, 1]"# : nil })
        defer { try? FileManager.default.removeItem(at: badSyntax) }
        XCTAssertThrowsError(try load(badSyntax, ids: ids)) { XCTAssertTrue((($0 as? EvaluationInputError)?.position ?? "").hasPrefix("detection 16002 (byte ")) }
        // An error in each half: the first in the file is reported.
        let both = try file(n, record: { [100, 19_000].contains($0) ? #"{"image_id": "nowhere", "class": "icon", "score": 0.5, "box": [0, 0, 1, 1]}"# : nil })
        defer { try? FileManager.default.removeItem(at: both) }
        XCTAssertThrowsError(try load(both, ids: ids)) { XCTAssertEqual(($0 as? EvaluationInputError)?.position, "detection 100") }
    }
}

final class EvaluationFolderTests: XCTestCase {
    func testFilesReadBackExactlyAndThresholdStrategiesParse() throws {
        let input = handCaseInput()
        let result = Evaluator().evaluate(input)
        let picks = result.classes.map { ThresholdPicker.pick($0.curve, groundTruth: $0.gtCount, strategy: .maxF1) }
        let dir = try scratchFolder(prefix: "uidetect-eval").appendingPathComponent("eval")
        let summary = EvaluationSummary(result: result, strategy: .maxF1, picks: picks, confusion: ConfusionMatrix(input, thresholds: [nil, nil]))
        try EvaluationFiles.write(summary, to: dir)
        let folder = try EvaluationFolder(dir)
        XCTAssertEqual(folder.classes.map(\.name), ["a", "b"])
        XCTAssertEqual(folder.classes[0].curve, result.classes[0].curve)
        XCTAssertEqual(folder.classes[0].gtCount, 3)
        XCTAssertNil(folder.classes[1].ap50)
        XCTAssertEqual(folder.map50, result.map50)
        let thresholds = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("thresholds.json"))) as! [String: Any]
        XCTAssertEqual(thresholds["strategy"] as? String, "max_f1")
        XCTAssertEqual(((thresholds["classes"] as! [String: Any])["a"] as! [String: Any])["threshold"] as? Double, 0.7)
        XCTAssertTrue((thresholds["classes"] as! [String: Any])["b"] is NSNull)
        XCTAssertEqual(ThresholdStrategy(parsing: "min_precision:0.95"), .minPrecision(0.95))
        XCTAssertEqual(ThresholdStrategy(parsing: "min_recall=0.8"), .minRecall(0.8))
        XCTAssertNil(ThresholdStrategy(parsing: "min_recall:2"))
        XCTAssertNil(ThresholdStrategy(parsing: "best"))
    }
}

final class CrossVocabularyTests: XCTestCase {
    func testClassMapRenamesBothSidesOntoCommonClasses() throws {
        let dir = try scratchFolder(prefix: "uidetect-xvocab")
        // Ground truth in another vocabulary: Text, Icon, Switch, List.
        let writer = try ShardWriter(url: dir.appendingPathComponent("gt.h5"), classNames: ["Text", "Icon", "Switch", "List"], imageSize: Size(width: 8, height: 8))
        try writer.append(ScreenRecord(imageID: "s", groupID: "s", image: RGBImage(size: Size(width: 8, height: 8)),
                                       boxes: [box(0, 0, 4, 2), box(5, 5, 7, 7), box(0, 4, 3, 6), box(0, 0, 8, 8)], labels: [0, 1, 2, 3]))
        try writer.finish()
        let mapURL = dir.appendingPathComponent("map.yaml")
        try """
        common_classes: [text, icon, toggle]
        source: {Text: text, Icon: icon, Switch: toggle}
        default_vocabulary: {text: text, icon: icon, toggle_selected: toggle, toggle_unselected: toggle}
        """.write(to: mapURL, atomically: true, encoding: .utf8)
        let map = try ClassMap(contentsOf: mapURL)
        let (names, images) = try EvaluationLoader.groundTruth(ShardSet([dir.path]), classMap: map)
        XCTAssertEqual(names, ["text", "icon", "toggle"])
        XCTAssertEqual(images[0].labels, [0, 1, 2], "List maps to nothing and is dropped")
        // Detections in the default vocabulary, by name and by index (11 = toggle_unselected); slider maps to nothing.
        let dets = #"[{"image_id": "s", "class": "text", "score": 0.9, "box": [0, 0, 4, 2]}, {"image_id": "s", "class": 11, "score": 0.8, "box": [0, 4, 3, 6]}, {"image_id": "s", "class": "slider", "score": 0.7, "box": [0, 0, 8, 8]}]"#
        let detsURL = dir.appendingPathComponent("d.json")
        try dets.write(to: detsURL, atomically: true, encoding: .utf8)
        let loaded = try EvaluationLoader.detectionsJSON(detsURL, classNames: names, imageIDs: ["s"], classMap: map)
        XCTAssertEqual(loaded.map(\.label), [0, 2])
        let r = Evaluator().evaluate(EvaluationInput(classNames: names, images: images, detections: loaded))
        XCTAssertEqual(r.classes.map(\.ap50), [1, 0, 1])
    }
}
