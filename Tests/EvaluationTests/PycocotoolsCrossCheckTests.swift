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
        let dir = try scratchFolder(prefix: "uidetect-coco")
        let inURL = dir.appendingPathComponent("in.json"), outURL = dir.appendingPathComponent("out.json")
        try JSONSerialization.data(withJSONObject: ["datasets": datasets]).write(to: inURL)
        let script = Bundle.module.resourceURL!.appendingPathComponent("Scripts/pycocotools_ap.py")
        let python = try runProgram(["python3", script.path, inURL.path, outURL.path])
        XCTAssertEqual(python.status, 0, python.output)
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

    /// AP50-95 and AP50 by size against pycocotools with its area ranges set to our buckets on a
    /// 300 x 500 screen. pycocotools' ranges are closed and ours half-open: areas lie on a 1/4096 grid,
    /// so closing each range 1e-7 below its upper end makes them the same.
    func testAP50to95AndAPBySizeMatchPycocotoolsOnRandomDataSets() throws {
        try requirePython(["pycocotools", "numpy"])
        var g = Generator(state: 77)
        let classes = 3
        let (screenWidth, screenHeight) = (300.0, 500.0)
        let screenArea = screenWidth * screenHeight
        let buckets = SizeBuckets.screenShare
        let ranges: [[Double]] = SizeBucket.allCases.map { b in
            let r = buckets.range(b)
            return [r.lower * screenArea, r.upper.map { $0 * screenArea - 1e-7 } ?? 1e10]
        }
        var inputs: [EvaluationInput] = []
        var datasets: [[String: Any]] = []
        for _ in 0..<200 {
            var images: [GroundTruthImage] = [], dets: [Detection] = []
            var cocoImages: [[String: Any]] = [], cocoAnnotations: [[String: Any]] = [], cocoDets: [[String: Any]] = []
            for i in 0..<(1 + Int(g.next() * 5)) {
                let id = "\(i + 1)"
                var boxes: [Box] = [], labels: [Int] = []
                func addDetection(_ b: Box, _ label: Int) {
                    let score = g.next()
                    dets.append(Detection(imageID: id, label: label, score: score, box: b))
                    cocoDets.append(["image_id": i + 1, "category_id": label + 1, "score": score,
                                     "bbox": [Double(b.xMin), Double(b.yMin), Double(b.width), Double(b.height)]])
                }
                // Sizes from a few pixels to a fifth of the screen: every bucket gets boxes.
                func randomBox() -> Box {
                    let scale = [12.0, 40, 180][Int(g.next() * 3)]
                    let x = g.coordinate(200), y = g.coordinate(400)
                    return Box(xMin: x, yMin: y, xMax: x + 2 + g.coordinate(scale), yMax: y + 2 + g.coordinate(scale * 0.8))
                }
                for _ in 0..<Int(g.next() * 10) {
                    let b = randomBox()
                    let label = Int(g.next() * Double(classes))
                    boxes.append(b)
                    labels.append(label)
                    cocoAnnotations.append(["id": cocoAnnotations.count + 1, "image_id": i + 1, "category_id": label + 1, "iscrowd": 0,
                                            "area": b.area, "bbox": [Double(b.xMin), Double(b.yMin), Double(b.width), Double(b.height)]])
                    // Detections near the box at every IoU from about 0.3 to 1, sometimes two.
                    for _ in 0..<(g.next() < 0.3 ? 2 : 1) where g.next() < 0.85 {
                        let spread = g.next() * 0.6
                        func jitter(_ extent: Float) -> Float { Float((((g.next() - 0.5) * spread * Double(extent)) * 64).rounded() / 64) }
                        let d = Box(xMin: b.xMin + jitter(b.width), yMin: b.yMin + jitter(b.height), xMax: b.xMax + jitter(b.width), yMax: b.yMax + jitter(b.height))
                        if d.isValid { addDetection(d, g.next() < 0.9 ? label : Int(g.next() * Double(classes))) }
                    }
                }
                for _ in 0..<Int(g.next() * 4) { addDetection(randomBox(), Int(g.next() * Double(classes))) }
                images.append(GroundTruthImage(imageID: id, boxes: boxes, labels: labels, screenArea: screenArea))
                cocoImages.append(["id": i + 1, "width": screenWidth, "height": screenHeight])
            }
            inputs.append(EvaluationInput(classNames: (0..<classes).map { "c\($0)" }, images: images, detections: dets))
            datasets.append(["gt": ["images": cocoImages, "annotations": cocoAnnotations,
                                    "categories": (0..<classes).map { ["id": $0 + 1, "name": "c\($0)"] }], "dets": cocoDets])
        }
        let dir = try scratchFolder(prefix: "uidetect-coco")
        let inURL = dir.appendingPathComponent("in.json"), outURL = dir.appendingPathComponent("out.json")
        try JSONSerialization.data(withJSONObject: ["datasets": datasets, "area_ranges": ranges]).write(to: inURL)
        let script = Bundle.module.resourceURL!.appendingPathComponent("Scripts/pycocotools_coco_figures.py")
        let python = try runProgram(["python3", script.path, inURL.path, outURL.path])
        XCTAssertEqual(python.status, 0, python.output)
        let reference = try JSONSerialization.jsonObject(with: Data(contentsOf: outURL)) as! [String: Any]
        let figures = reference["figures"] as! [[String: [String: Any]]]
        var compared = 0, comparedBySize = [0, 0, 0]
        for (n, input) in inputs.enumerated() {
            let ours = Evaluator(interpolation: .coco101).evaluate(input)
            for k in 0..<classes {
                let theirs = figures[n]["\(k + 1)"]!
                let mine = ours.classes[k]
                let t95 = theirs["ap50_95"] as? Double
                XCTAssertEqual(mine.ap50to95 == nil, t95 == nil, "data set \(n) class \(k): AP50-95")
                if let m = mine.ap50to95, let t95 {
                    XCTAssertEqual(m, t95, accuracy: 1e-9, "data set \(n) class \(k): AP50-95")
                    compared += 1
                }
                let bySize = theirs["ap50_by_area"] as! [Any]
                for b in SizeBucket.allCases {
                    let t = bySize[b.rawValue] as? Double
                    XCTAssertEqual(mine.apBySize[b] == nil, t == nil, "data set \(n) class \(k) \(b): ours \(String(describing: mine.apBySize[b])), pycocotools \(String(describing: t))")
                    if let m = mine.apBySize[b], let t {
                        XCTAssertEqual(m, t, accuracy: 1e-9, "data set \(n) class \(k) \(b)")
                        comparedBySize[b.rawValue] += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 400)
        XCTAssertTrue(comparedBySize.allSatisfy { $0 > 80 }, "\(comparedBySize)")
    }
}
