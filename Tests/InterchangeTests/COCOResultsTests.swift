import Boxes
import Evaluation
import Foundation
import Images
import Interchange
import SeededRandom
import Shards
import TestSupport
import XCTest

/// Detections written as COCO results: read back exactly, told apart from our format, and scored by
/// pycocotools against our exported instances as our coco101 scores them.
final class COCOResultsTests: XCTestCase {
    /// 40 screens of 300 x 500 with up to 8 boxes of 3 classes at arbitrary float32 coordinates, and
    /// detections: most boxes jittered (a tenth with another class) plus false alarms, every score distinct.
    func dataSet(in dir: URL) throws -> (ShardSet, [Detection]) {
        var g = SeededGenerator(seed: 7)
        let classes = ["button", "text", "icon"]
        let writer = try ShardWriter(url: dir.appendingPathComponent("gt.h5"), classNames: classes, imageSize: Size(width: 300, height: 500))
        var detections: [Detection] = []
        for i in 0..<40 {
            let id = "screen-\(i)"
            var boxes: [Box] = [], labels: [Int32] = []
            for _ in 0..<Int(g.nextUnitDouble() * 9) {
                let x = Float(g.nextUnitDouble() * 240), y = Float(g.nextUnitDouble() * 450)
                let b = Box(xMin: x, yMin: y, xMax: x + 4 + Float(g.nextUnitDouble() * 50), yMax: y + 4 + Float(g.nextUnitDouble() * 40))
                let label = Int(g.nextUnitDouble() * 3)
                boxes.append(b)
                labels.append(Int32(label))
                if g.nextUnitDouble() < 0.8 {
                    let jx = Float((g.nextUnitDouble() - 0.5) * 0.4) * b.width, jy = Float((g.nextUnitDouble() - 0.5) * 0.4) * b.height
                    let d = Box(xMin: b.xMin + jx, yMin: b.yMin + jy, xMax: b.xMax + jx + Float(g.nextUnitDouble() - 0.5) * 6, yMax: b.yMax + jy)
                    if d.isValid { detections.append(Detection(imageID: id, label: g.nextUnitDouble() < 0.9 ? label : Int(g.nextUnitDouble() * 3), score: g.nextUnitDouble(), box: d)) }
                }
            }
            for _ in 0..<Int(g.nextUnitDouble() * 4) {
                let x = Float(g.nextUnitDouble() * 250), y = Float(g.nextUnitDouble() * 450)
                detections.append(Detection(imageID: id, label: Int(g.nextUnitDouble() * 3), score: g.nextUnitDouble(),
                                            box: Box(xMin: x, yMin: y, xMax: x + 3 + Float(g.nextUnitDouble() * 40), yMax: y + 3 + Float(g.nextUnitDouble() * 40))))
            }
            try writer.append(ScreenRecord(imageID: id, groupID: id, image: RGBImage(size: Size(width: 300, height: 500)), boxes: boxes, labels: labels))
        }
        try writer.finish()
        return (try ShardSet([dir.appendingPathComponent("gt.h5").path]), detections)
    }

    func testCOCOResultsReadBackExactlyAndPycocotoolsAgreesWithCoco101() throws {
        let dir = try scratchFolder(prefix: "uidetect-coco-results")
        let (set, detections) = try dataSet(in: dir)
        let instances = dir.appendingPathComponent("instances.json")
        _ = try COCOExport.write(set, to: instances, imagesFolder: nil)
        let ids = try COCOIDMap(contentsOf: instances)
        XCTAssertEqual(ids, COCOIDMap(numbering: set.readers.flatMap(\.imageIDs), classNames: set.classNames), "export-data coco's numbering")
        let results = dir.appendingPathComponent(COCOResultsFile.fileName)
        XCTAssertEqual(try COCOResultsFile.write(detections, classNames: set.classNames, ids: ids, to: results), COCOResultsFile.LeftOut())

        let (names, truth) = try EvaluationLoader.groundTruth(set, classMap: nil)
        let imageIDs = Set(truth.map(\.imageID))
        XCTAssertTrue(COCOResultsFile.isCOCOResults(results))
        let back = try EvaluationLoader.detections(results, classNames: names, imageIDs: imageIDs, classMap: nil, cocoIDs: ids)
        XCTAssertEqual(back, detections, "image ids, classes, scores and float32 boxes come back exactly")
        XCTAssertThrowsError(try EvaluationLoader.detections(results, classNames: names, imageIDs: imageIDs, classMap: nil)) {
            XCTAssertTrue("\($0)".contains("--coco-instances"), "\($0)")
        }
        // Our own format is still read by our parser.
        let ours = dir.appendingPathComponent("detections.json")
        try DetectionsFile.write(detections, classNames: names, to: ours)
        XCTAssertFalse(COCOResultsFile.isCOCOResults(ours))
        XCTAssertEqual(try EvaluationLoader.detections(ours, classNames: names, imageIDs: imageIDs, classMap: nil, cocoIDs: ids), detections)

        let summary = Evaluator(interpolation: .coco101).evaluate(EvaluationInput(classNames: names, images: truth, detections: back))
        try requirePython(["pycocotools", "numpy"])
        let out = dir.appendingPathComponent("pycocotools.json")
        let script = Bundle.module.resourceURL!.appendingPathComponent("Scripts/coco_files_ap.py")
        let python = try runProgram(["python3", script.path, instances.path, results.path, out.path])
        XCTAssertEqual(python.status, 0, python.output)
        let theirs = try JSONDecoder().decode([String: Double?].self, from: Data(contentsOf: out))
        XCTAssertEqual(theirs.keys.sorted(), names.sorted())
        for c in summary.classes {
            let ap = try XCTUnwrap(c.ap50, c.name)
            XCTAssertGreaterThan(ap, 0.2, "\(c.name): a test that could not fail on a wrong mapping")
            XCTAssertEqual(ap, try XCTUnwrap(theirs[c.name] ?? nil, c.name), accuracy: 1e-9, c.name)
        }
    }

    func testBadCOCOResultsNameTheRecord() throws {
        let dir = try scratchFolder(prefix: "uidetect-coco-results-bad")
        let (set, _) = try dataSet(in: dir)
        let ids = COCOIDMap(numbering: set.readers.flatMap(\.imageIDs), classNames: set.classNames)
        let (names, truth) = try EvaluationLoader.groundTruth(set, classMap: nil)
        let url = dir.appendingPathComponent("results.json")
        func problem(_ json: String) -> String {
            try? json.write(to: url, atomically: true, encoding: .utf8)
            do { _ = try EvaluationLoader.detections(url, classNames: names, imageIDs: Set(truth.map(\.imageID)), classMap: nil, cocoIDs: ids) } catch { return "\(error)" }
            return "no error"
        }
        let good = #"{"image_id": 1, "category_id": 2, "bbox": [1, 2, 3, 4], "score": 0.5}"#
        XCTAssertTrue(problem("[\(good), {\"image_id\": 99, \"category_id\": 2, \"bbox\": [1, 2, 3, 4], \"score\": 0.5}]").contains("detection 1: image_id 99 is not an image"))
        XCTAssertTrue(problem("[\(good), {\"image_id\": 1, \"category_id\": 7, \"bbox\": [1, 2, 3, 4], \"score\": 0.5}]").contains("detection 1: category_id 7"))
        XCTAssertTrue(problem("[\(good), {\"image_id\": 1, \"category_id\": 2, \"bbox\": [1, 2, 3], \"score\": 0.5}]").contains("detection 1: 'bbox' must be 4 numbers"))
        XCTAssertTrue(problem("[\(good), {\"image_id\": 1, \"category_id\": 2, \"bbox\": [1, 2, 3, 4]}]").contains("detection 1: score: is missing"))
        XCTAssertEqual(problem("[\(good)]"), "no error")
    }
}
