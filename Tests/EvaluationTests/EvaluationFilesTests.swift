import Boxes
import Evaluation
import Foundation
import Images
import Shards
import TestSupport
import XCTest

final class EvaluationFileRoundTripTests: XCTestCase {
    /// The hand case with names a CSV or JSON writer must quote: a comma and quotes, and a line break.
    func awkwardSummary() -> EvaluationSummary {
        var input = handCaseInput()
        input.classNames = [#"tab, "bar""#, "two\nlines"]
        input.images.append(GroundTruthImage(imageID: "i3", boxes: [box(0, 0, 5, 5)], labels: [1]))
        input.detections.append(Detection(imageID: "i3", label: 1, score: 0.4, box: box(0, 0, 5, 5)))
        return Evaluator().summarize(input)
    }

    func testAwkwardClassNamesSurviveEveryFileOfTheFolder() throws {
        let summary = awkwardSummary()
        let dir = try scratchFolder(prefix: "uidetect-eval-names")
        try EvaluationFiles.write(summary, to: dir)
        let folder = try EvaluationFolder(dir)

        XCTAssertEqual(folder.metrics, MetricsFile(summary.result))
        XCTAssertEqual(folder.classes.map(\.name), summary.result.classes.map(\.name))
        XCTAssertEqual(folder.classes.map(\.curve), summary.result.classes.map(\.curve))
        XCTAssertEqual(try folder.thresholds(), ThresholdsFile(summary))
        XCTAssertEqual(try folder.confusion(), summary.confusion)
        // Thresholds picked from the curves read back are those picked from the evaluation itself.
        let picked = folder.classes.map { ThresholdPicker.pick($0.curve, groundTruth: $0.gtCount, strategy: .maxF1) }
        XCTAssertEqual(picked, summary.picks)
        XCTAssertEqual(picked[0]?.threshold, 0.7)

        // The CSV files quote the names as RFC 4180 says.
        let curves = try String(contentsOf: dir.appendingPathComponent(PRCurvesFile.fileName), encoding: .utf8)
        XCTAssertTrue(curves.hasPrefix("class,threshold,precision,recall,tp,fp\n\"tab, \"\"bar\"\"\",0.9,1.0,"), curves)
        let confusion = try String(contentsOf: dir.appendingPathComponent(ConfusionMatrixFile.fileName), encoding: .utf8)
        XCTAssertTrue(confusion.hasPrefix("ground_truth,\"tab, \"\"bar\"\"\",\"two\nlines\",background\n"), confusion)
    }

    func testMetricsAndThresholdsKeepTheirKeysAndNulls() throws {
        var input = handCaseInput()
        input.classNames = ["a", "b"]
        let summary = Evaluator().summarize(input)
        let dir = try scratchFolder(prefix: "uidetect-eval-keys")
        try EvaluationFiles.write(summary, to: dir)
        let metrics = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(MetricsFile.fileName))) as! [String: Any]
        XCTAssertEqual(Set(metrics.keys), ["iou_threshold", "interpolation", "images", "classes", "map50", "map50_weighted", "map_center", "map_center_weighted",
                                             "map50_95", "map50_small", "map50_medium", "map50_large", "size_buckets", "source"])
        XCTAssertEqual(metrics["interpolation"] as? String, "all_point")
        let b = (metrics["classes"] as! [[String: Any]])[1]
        XCTAssertEqual(Set(b.keys), ["name", "gt_count", "detections", "ap50", "ap_center", "ap50_95",
                                     "gt_count_small", "gt_count_medium", "gt_count_large", "ap50_small", "ap50_medium", "ap50_large"])
        XCTAssertTrue(b["ap50"] is NSNull && b["ap_center"] is NSNull, "a class without ground truth has null APs, not missing ones")
        XCTAssertTrue(b["ap50_95"] is NSNull && b["gt_count_small"] is NSNull, "figures not computed are null, not missing")
        XCTAssertEqual(try MetricsFile(contentsOf: dir.appendingPathComponent(MetricsFile.fileName)), MetricsFile(summary.result))
        let sparse = #"{"iou_threshold": 0.5, "interpolation": "voc11", "images": 1, "classes": [{"name": "a", "gt_count": 0, "detections": 0}]}"#
        let read = try JSONDecoder().decode(MetricsFile.self, from: Data(sparse.utf8))
        XCTAssertNil(read.classes[0].ap50, "an absent AP reads as nil, as a null one does")
        XCTAssertNil(read.map50)

        // uidetect thresholds adds the strategy per class; it reads back as written.
        let a = try XCTUnwrap(summary.picks[0])
        let perClass = ThresholdsFile(strategy: .minRecall(0.5), classes: ["a": .init(a, strategy: .minPrecision(0.95)), "b": nil])
        let url = dir.appendingPathComponent("t.json")
        try perClass.write(to: url)
        XCTAssertEqual(try ThresholdsFile(contentsOf: url), perClass)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        XCTAssertEqual(object["strategy"] as? String, "min_recall 0.5")
        XCTAssertEqual(((object["classes"] as! [String: Any])["a"] as! [String: Any])["strategy"] as? String, "min_precision 0.95")
        XCTAssertTrue((object["classes"] as! [String: Any])["b"] is NSNull)
        XCTAssertEqual(try ThresholdsFile(contentsOf: url).thresholdsByClass, ["a": Float(a.threshold)], "a null class has no threshold to apply")
    }

    func testBadFilesNameTheFileTheLineAndTheField() throws {
        let dir = try scratchFolder(prefix: "uidetect-eval-bad")
        try EvaluationFiles.write(Evaluator().summarize(handCaseInput()), to: dir)
        let curvesURL = dir.appendingPathComponent(PRCurvesFile.fileName)
        var lines = try String(contentsOf: curvesURL, encoding: .utf8).components(separatedBy: "\n")
        lines[2] = "a,0.8,0.5,high,1,1"
        try lines.joined(separator: "\n").write(to: curvesURL, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try EvaluationFolder(dir)) {
            let e = $0 as? EvaluationInputError
            XCTAssertEqual(e?.path, curvesURL.path)
            XCTAssertEqual(e?.position, "line 3")
            XCTAssertTrue(e?.problem.contains("recall 'high'") ?? false, "\(String(describing: e))")
        }
        let metricsURL = dir.appendingPathComponent(MetricsFile.fileName)
        let text = try String(contentsOf: metricsURL, encoding: .utf8)
        try text.replacingOccurrences(of: "\"gt_count\"", with: "\"gt\"").write(to: metricsURL, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try EvaluationFolder(dir)) {
            let e = $0 as? EvaluationInputError
            XCTAssertEqual(e?.path, metricsURL.path)
            XCTAssertEqual(e?.position, "classes[0].gt_count")
        }
    }
}

final class DetectionsFileTests: XCTestCase {
    func testAnyImageIDGivesValidJSONThatReadsBack() throws {
        let ids = ["line\nbreak", "tab\there", #"quote"d"#, #"back\slash"#, "écran-画面-🙂", "bell\u{07}and\u{1F}unit\r", "plain"]
        let names = ["icon", "te\"x\tt"]
        var detections: [Detection] = []
        for (i, id) in ids.enumerated() {
            detections.append(Detection(imageID: id, label: i % 2, score: 1 / Double(i + 3), box: box(Float(i), 2.5, 30.25, 40 + Float(i) / 8)))
        }
        let url = try scratchFolder(prefix: "uidetect-dets").appendingPathComponent(DetectionsFile.fileName)
        try DetectionsFile.write(detections, classNames: names, to: url)

        let data = try Data(contentsOf: url)
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "must be a JSON array of objects")
        XCTAssertEqual(parsed.map { $0["image_id"] as? String }, ids)
        XCTAssertEqual(parsed.map { $0["class"] as? String }, detections.map { names[$0.label] })
        XCTAssertEqual(String(decoding: data, as: UTF8.self).split(separator: "\n").count, ids.count + 2, "one record per line")

        let back = try EvaluationLoader.detectionsJSON(url, classNames: names, imageIDs: Set(ids), classMap: nil)
        XCTAssertEqual(back, detections)
    }

    func testNonFiniteNumbersAreRefusedNamingTheDetection() throws {
        let url = try scratchFolder(prefix: "uidetect-dets").appendingPathComponent(DetectionsFile.fileName)
        let good = Detection(imageID: "a", label: 0, score: 0.5, box: box(0, 0, 1, 1))
        var bad = good
        bad.box = box(0, .nan, 1, 1)
        XCTAssertThrowsError(try DetectionsFile.write([good, bad], classNames: ["icon"], to: url)) {
            XCTAssertEqual(($0 as? EvaluationInputError)?.position, "detection 1")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing is written")
    }
}

final class CSVTests: XCTestCase {
    func records(_ text: String) throws -> [CSV.Record] { try CSV.records(Data(text.utf8), path: "t.csv") }

    func testQuotedFieldsWithCommasQuotesAndLineBreaks() throws {
        let text = "name,n\n\"a, b\",1\n\"say \"\"hi\"\"\",2\r\n\"two\nlines\",3\n\nlast,\n"
        XCTAssertEqual(try records(text), [
            CSV.Record(line: 1, fields: ["name", "n"]),
            CSV.Record(line: 2, fields: ["a, b", "1"]),
            CSV.Record(line: 3, fields: [#"say "hi""#, "2"]),
            CSV.Record(line: 4, fields: ["two\nlines", "3"]),
            CSV.Record(line: 7, fields: ["last", ""]),
        ])
        let rows = [["plain", "a,b", #"q"uote"#, "cr\r\nlf", ""], ["x", "", "", "", "y"]]
        XCTAssertEqual(try records(CSV.text(rows)).map(\.fields), rows)
        XCTAssertEqual(CSV.text([["a", "b"]]), "a,b\n", "plain fields are written as they are")
    }

    func testMalformedLinesAreReportedWithTheirNumber() throws {
        let cases: [(String, String)] = [
            ("a,b\nc,d\ne,f\"g\n", "line 3"),          // a quote inside an unquoted field
            ("a,b\n\"c\"d,e\n", "line 2"),             // text after a closing quote
            ("a,b\n\"c\nd\"x,e\n", "line 3"),          // ... found on the field's second line
            ("a,b\nc,d\n\"open,\nnever closed\n", "line 3"),  // an unclosed quote: the line it opens on
        ]
        for (text, position) in cases {
            XCTAssertThrowsError(try records(text), text.debugDescription) {
                let e = $0 as? EvaluationInputError
                XCTAssertEqual(e?.path, "t.csv")
                XCTAssertEqual(e?.position, position, text.debugDescription)
            }
        }
    }
}

final class GroundTruthShardTests: XCTestCase {
    func shard(_ dir: URL, _ name: String, ids: [String]) throws {
        let writer = try ShardWriter(url: dir.appendingPathComponent(name), classNames: ["icon"], imageSize: Size(width: 8, height: 8))
        for id in ids {
            try writer.append(ScreenRecord(imageID: id, groupID: id, image: RGBImage(size: Size(width: 8, height: 8)), boxes: [box(0, 0, 4, 4)], labels: [0]))
        }
        try writer.finish()
    }

    func testAnImageIDInTwoShardsIsRefusedNamingBoth() throws {
        let dir = try scratchFolder(prefix: "uidetect-dup-shards")
        try shard(dir, "one.h5", ids: ["s1", "s2"])
        try shard(dir, "two.h5", ids: ["s3", "s2"])
        XCTAssertThrowsError(try EvaluationLoader.groundTruth(ShardSet([dir.path]), classMap: nil)) {
            let e = $0 as? EvaluationInputError
            XCTAssertEqual(e?.path, dir.appendingPathComponent("two.h5").path)
            XCTAssertEqual(e?.position, "image_ids entry 1")
            XCTAssertTrue(e?.problem.contains("'s2'") ?? false, "\(String(describing: e))")
            XCTAssertTrue(e?.problem.contains(dir.appendingPathComponent("one.h5").path) ?? false, "\(String(describing: e))")
        }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("two.h5"))
        XCTAssertEqual(try EvaluationLoader.groundTruth(ShardSet([dir.path]), classMap: nil).images.map(\.imageID), ["s1", "s2"])
    }
}
