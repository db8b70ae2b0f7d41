import Boxes
import Detection
import Foundation
import Images
import TestSupport
import XCTest

/// `uidetect predict` end to end with the planted detector.
final class PredictCommandTests: XCTestCase {
    /// The planted detector's boxes are its anchors, so every box predict writes must be an anchor
    /// mapped back through the letterbox: divided by the scale and clipped to the screenshot.
    func testPredictMapsDetectionsBackToEachScreenshotsPixels() throws {
        let dir = try scratchFolder(prefix: "uidetect-predict-cli")
        let checkpoint = try plantedCheckpoint(in: dir)
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        // 384 x 768 is the input (64 x 128) scaled by 6; 300 x 400 fits by width and leaves padding below.
        let sizes = ["tall": Size(width: 384, height: 768), "wide": Size(width: 300, height: 400)]
        for (name, size) in sizes {
            var image = RGBImage(size: size, fill: RGB(240, 240, 240))
            image.fill(Box(xMin: 20, yMin: 30, xMax: 200, yMax: 90), color: RGB(20, 20, 20))
            try ImageCodec.writePNG(image, to: shots.appendingPathComponent("\(name).png"))
        }
        try Data("not an image".utf8).write(to: shots.appendingPathComponent("broken.png"))
        let thresholds = dir.appendingPathComponent("thresholds.json")
        try #"{"strategy": "max_f1", "classes": {"text": {"threshold": 0.5, "precision": 1, "recall": 1, "f1": 1}}}"#
            .write(to: thresholds, atomically: true, encoding: .utf8)
        let predicted = dir.appendingPathComponent("predicted")
        let run = try runUIDetect(["predict", "--checkpoint", checkpoint.path, "--thresholds", thresholds.path, "--score-threshold", "0.999",
                                   shots.path, "--out", predicted.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("skipped \(shots.appendingPathComponent("broken.png").path)"), run.stdout)
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: predicted.appendingPathComponent("detections.json"))) as! [[String: Any]]
        let config = try plantedConfig()
        let anchors = AnchorGenerator(config: config).anchors().map { $0.clipped(to: config.inputSize) }
        for (name, size) in sizes {
            XCTAssertTrue(FileManager.default.fileExists(atPath: predicted.appendingPathComponent("\(name).png").path), "overlay of \(name)")
            let mine = records.filter { $0["image_id"] as? String == name }
            XCTAssertGreaterThan(mine.count, 10, "\(name): the planted detector fires everywhere")
            let scale = min(Float(config.inputWidth) / Float(size.width), Float(config.inputHeight) / Float(size.height))
            for r in mine {
                XCTAssertEqual(r["class"] as? String, "text")
                let b = (r["box"] as! [Double]).map { Float($0) }
                let box = Box(xMin: b[0], yMin: b[1], xMax: b[2], yMax: b[3])
                XCTAssertTrue(box.xMin >= 0 && box.yMin >= 0 && box.xMax <= Float(size.width) && box.yMax <= Float(size.height), "\(box) outside \(size)")
                let matches = anchors.contains { a in
                    let back = Box(xMin: a.xMin / scale, yMin: a.yMin / scale, xMax: a.xMax / scale, yMax: a.yMax / scale)
                        .clipped(to: size)
                    return abs(back.xMin - box.xMin) < 0.01 && abs(back.yMin - box.yMin) < 0.01 && abs(back.xMax - box.xMax) < 0.01 && abs(back.yMax - box.yMax) < 0.01
                }
                XCTAssertTrue(matches, "\(name): \(box) is no anchor mapped back by 1 / \(scale)")
            }
        }
        // index.html beside the overlays links each of them, with its size and what was found.
        let index = try String(contentsOf: predicted.appendingPathComponent("index.html"), encoding: .utf8)
        for (name, size) in sizes {
            XCTAssertTrue(index.contains("<a href=\"\(name).png\"><img src=\"\(name).png\""), "\(name) in index.html")
            XCTAssertTrue(index.contains("\(size.width) &times; \(size.height)"), index)
        }
        XCTAssertTrue(index.contains("1 files could not be read as images and are not shown"), index)
        XCTAssertTrue(run.stdout.contains("index.html"), run.stdout)
    }
}
