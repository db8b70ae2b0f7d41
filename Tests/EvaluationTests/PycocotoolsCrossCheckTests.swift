import Boxes
import Evaluation
import Foundation
import TestSupport
import XCTest

/// coco101 AP equals pycocotools' AP at IoU 0.5 on random data sets (evaluation.md, step 4).
final class PycocotoolsCrossCheckTests: XCTestCase {
    struct Generator {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) * 0x1.0p-53
        }
        /// A coordinate on a 1/64 grid: exact in float32, so both sides see the same box.
        mutating func coordinate(_ range: Double) -> Float { Float((next() * range * 64).rounded(.down) / 64) }
    }


    func testCoco101MatchesPycocotoolsOnRandomDataSets() throws {
        try requirePython(["pycocotools", "numpy"])
        var g = Generator(state: 2024)
        let classes = 3
        var inputs: [EvaluationInput] = []
        var datasets: [[String: Any]] = []
        for _ in 0..<300 {
            var images: [GroundTruthImage] = [], dets: [Detection] = []
            var cocoImages: [[String: Any]] = [], cocoAnnotations: [[String: Any]] = [], cocoDets: [[String: Any]] = []
            for i in 0..<(1 + Int(g.next() * 6)) {
                let id = "\(i + 1)"
                var boxes: [Box] = [], labels: [Int] = []
                func addDetection(_ b: Box, _ label: Int) {
                    let score = g.next()
                    dets.append(Detection(imageID: id, label: label, score: score, box: b))
                    cocoDets.append(["image_id": i + 1, "category_id": label + 1, "score": score,
                                     "bbox": [Double(b.xMin), Double(b.yMin), Double(b.width), Double(b.height)]])
                }
                for _ in 0..<Int(g.next() * 9) {
                    let x = g.coordinate(200), y = g.coordinate(400)
                    let b = Box(xMin: x, yMin: y, xMax: x + 4 + g.coordinate(60), yMax: y + 4 + g.coordinate(40))
                    let label = Int(g.next() * Double(classes))
                    boxes.append(b)
                    labels.append(label)
                    cocoAnnotations.append(["id": cocoAnnotations.count + 1, "image_id": i + 1, "category_id": label + 1, "iscrowd": 0,
                                            "area": Double(b.width) * Double(b.height),
                                            "bbox": [Double(b.xMin), Double(b.yMin), Double(b.width), Double(b.height)]])
                    if g.next() < 0.8 {
                        let jx = (g.next() - 0.5) * 0.4 * Double(b.width), jy = (g.next() - 0.5) * 0.4 * Double(b.height)
                        let d = Box(xMin: b.xMin + Float((jx * 64).rounded() / 64), yMin: b.yMin + Float((jy * 64).rounded() / 64),
                                    xMax: b.xMax + Float(((jx + (g.next() - 0.5) * 8) * 64).rounded() / 64), yMax: b.yMax + Float((jy * 64).rounded() / 64))
                        if d.isValid { addDetection(d, g.next() < 0.9 ? label : Int(g.next() * Double(classes))) }
                    }
                }
                for _ in 0..<Int(g.next() * 4) {
                    let x = g.coordinate(200), y = g.coordinate(400)
                    addDetection(Box(xMin: x, yMin: y, xMax: x + 3 + g.coordinate(50), yMax: y + 3 + g.coordinate(50)), Int(g.next() * Double(classes)))
                }
                images.append(GroundTruthImage(imageID: id, boxes: boxes, labels: labels))
                cocoImages.append(["id": i + 1, "width": 300, "height": 500])
            }
            inputs.append(EvaluationInput(classNames: (0..<classes).map { "c\($0)" }, images: images, detections: dets))
            datasets.append(["gt": ["images": cocoImages, "annotations": cocoAnnotations,
                                    "categories": (0..<classes).map { ["id": $0 + 1, "name": "c\($0)"] }], "dets": cocoDets])
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-coco-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("in.json"), outURL = dir.appendingPathComponent("out.json")
        try JSONSerialization.data(withJSONObject: ["datasets": datasets]).write(to: inURL)
        let script = Bundle.module.resourceURL!.appendingPathComponent("Scripts/pycocotools_ap.py")
        let (status, log) = try runCommand(["python3", script.path, inURL.path, outURL.path])
        XCTAssertEqual(status, 0, log)
        let reference = try JSONSerialization.jsonObject(with: Data(contentsOf: outURL)) as! [String: Any]
        let aps = reference["aps"] as! [[String: Any]]
        var compared = 0
        for (n, input) in inputs.enumerated() {
            let ours = Evaluator(interpolation: .coco101).evaluate(input)
            for k in 0..<classes {
                let theirs = aps[n]["\(k + 1)"] as? Double
                let mine = ours.classes[k].ap50
                XCTAssertEqual(mine == nil, theirs == nil, "data set \(n) class \(k): ours \(String(describing: mine)), pycocotools \(String(describing: theirs))")
                if let mine, let theirs {
                    XCTAssertEqual(mine, theirs, accuracy: 1e-9, "data set \(n) class \(k)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 600)
    }
}
