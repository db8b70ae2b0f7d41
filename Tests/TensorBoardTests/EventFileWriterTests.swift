import Boxes
import Foundation
import Images
import TensorBoard
import TestSupport
import XCTest

final class EventFileWriterTests: XCTestCase {
    /// A non-square image whose pixels all differ, so a swapped width and height would show.
    func testImage() -> RGBImage {
        let size = Size(width: 37, height: 20)
        var pixels: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width { pixels += [UInt8(x * 6), UInt8(y * 12), UInt8((y * size.width + x) % 251)] }
        }
        return RGBImage(size: size, pixels: pixels)
    }

    /// Scores on a 1/100 grid (0.29, 0.57 and 0.58 among them: their float32 and float64
    /// buckets differ) and labels, deterministic.
    let pluginDetections: [(score: Float, isTruePositive: Bool)] = (0..<80).map { (i: Int) -> (score: Float, isTruePositive: Bool) in
        let hundredths = Float((i * 37) % 101)
        return (hundredths / 100, i % 3 != 0)
    }

    func testFileNameAndClosedWriter() throws {
        let run = try scratchFolder(prefix: "uidetect-tensorboard").appendingPathComponent("nested/run")
        let writer = try EventFileWriter(folder: run, now: Date(timeIntervalSince1970: 1_700_000_000.75), hostname: "box")
        XCTAssertEqual(writer.url.lastPathComponent, "events.out.tfevents.1700000000.box")
        // A run resumed within the same second gets its own file, sorting after the first.
        let second = try EventFileWriter(folder: run, now: Date(timeIntervalSince1970: 1_700_000_000), hostname: "box")
        XCTAssertEqual(second.url.lastPathComponent, "events.out.tfevents.1700000000.box.1")
        try second.close()
        try writer.close()
        try writer.close()
        XCTAssertThrowsError(try writer.addScalar(tag: "loss", value: 1, step: 1)) {
            XCTAssertEqual($0 as? TensorBoardError, .closed(path: writer.url.path))
        }
        // The file-version event alone: a 16-byte frame around Event{wall_time, file_version}.
        let bytes = try Data(contentsOf: writer.url)
        XCTAssertEqual(bytes.count, 16 + 9 + 2 + EventFileWriter.fileVersion.utf8.count)
    }

    func testTensorBoardReadsScalarsImagesAndPRCurves() throws {
        try requirePython(["tensorboard", "numpy"])
        let root = try scratchFolder(prefix: "uidetect-tensorboard")
        let run = root.appendingPathComponent("run-a")
        let start = Date(timeIntervalSince1970: 1_700_000_000.25)
        let writer = try EventFileWriter(folder: run, now: start, hostname: "testhost")

        let losses: [(step: Int, value: Float)] = [(0, 2.7182817), (10, 1e-8), (20, -3.5), (30, .pi), (1_000_000, 0.1)]
        for (step, value) in losses {
            try writer.addScalar(tag: "loss/total", value: value, step: step, wallTime: start.addingTimeInterval(Double(step)))
        }
        try writer.add([.scalar(tag: "lr", value: 0.01), .scalar(tag: "images_per_second", value: 123.456)], step: 30)
        let image = testImage()
        try writer.addImage(tag: "overlay/validation", image: image, step: 20)
        try writer.flush()

        let groundTruth = pluginDetections.filter(\.isTruePositive).count
        let pluginCurve = try PRCurve(detections: pluginDetections, groundTruthCount: groundTruth, thresholdCount: 101)
        try writer.addPRCurve(tag: "pr/plugin", curve: pluginCurve, step: 30)
        // Seven objects no detection found: false negatives the plugin's own op cannot express.
        let detectionCurve = try PRCurve(detections: pluginDetections, groundTruthCount: groundTruth + 7, thresholdCount: 11)
        try writer.addPRCurve(tag: "pr/detections", curve: detectionCurve, step: 30)
        try writer.close()

        // A copy cut inside its last record, as a crash mid-write leaves it.
        let cut = root.appendingPathComponent("run-cut")
        try FileManager.default.createDirectory(at: cut, withIntermediateDirectories: true)
        let whole = try Data(contentsOf: writer.url)
        let scalarsEnd = try scalarEventsEnd(of: writer.url, events: 1 + losses.count)
        try whole.prefix(scalarsEnd - 5).write(to: cut.appendingPathComponent(writer.url.lastPathComponent))

        let spec = ["plugin_curves": ["pr/plugin": ["score_bits": pluginDetections.map { Int($0.score.bitPattern) },
                                                    "labels": pluginDetections.map(\.isTruePositive), "num_thresholds": 101] as [String: Any]]]
        let specURL = root.appendingPathComponent("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specURL)
        let script = Bundle.module.resourceURL!.appendingPathComponent("Scripts/read_events.py")
        let python = try runProgram(["python3", script.path, run.path, specURL.path, cut.path])
        XCTAssertEqual(python.status, 0, python.output)
        let read = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((python.stdout.split(separator: "\n").last ?? "").utf8)) as? [String: Any], python.output)

        XCTAssertEqual(read["files"] as? [String], ["events.out.tfevents.1700000000.testhost"])
        XCTAssertEqual(read["records"] as? Int, 1 + losses.count + 1 + 1 + 2)
        let first = read["first_event"] as! [String: Any]
        XCTAssertEqual(first["file_version"] as? String, "brain.Event:2")
        XCTAssertEqual(first["wall_time"] as? Double, start.timeIntervalSince1970)
        XCTAssertEqual(read["file_version"] as? Double, 2)
        let tags = read["tags"] as! [String: [String]]
        XCTAssertEqual(tags["scalars"], ["images_per_second", "loss/total", "lr"])
        XCTAssertEqual(tags["images"], ["overlay/validation"])
        XCTAssertEqual(tags["tensors"], ["pr/detections", "pr/plugin"])
        XCTAssertEqual(read["pr_curves_plugin_tags"] as? [String], ["pr/detections", "pr/plugin"])

        let scalars = read["scalars"] as! [String: [[Double]]]
        XCTAssertEqual(scalars["loss/total"]?.map { Int($0[0]) }, losses.map(\.step))
        XCTAssertEqual(scalars["loss/total"]?.map { Float($0[1]) }, losses.map(\.value))
        XCTAssertEqual(scalars["loss/total"]?.map { $0[2] }, losses.map { start.timeIntervalSince1970 + Double($0.step) })
        XCTAssertEqual(scalars["lr"]?.map { Float($0[1]) }, [0.01])
        XCTAssertEqual(scalars["images_per_second"]?.map { Int($0[0]) }, [30])
        XCTAssertEqual(scalars["images_per_second"]?.map { Float($0[1]) }, [123.456])

        let images = (read["images"] as! [String: [[String: Any]]])["overlay/validation"]!
        XCTAssertEqual(images.count, 1)
        XCTAssertEqual(images[0]["step"] as? Int, 20)
        XCTAssertEqual(images[0]["width"] as? Int, 37)
        XCTAssertEqual(images[0]["height"] as? Int, 20)
        let png = try XCTUnwrap(Data(base64Encoded: images[0]["png"] as! String))
        XCTAssertEqual(try ImageCodec.decode(png, path: "overlay/validation"), image)

        let tensors = read["tensors"] as! [String: [[String: Any]]]
        for (tag, curve) in [("pr/plugin", pluginCurve), ("pr/detections", detectionCurve)] {
            let t = try XCTUnwrap(tensors[tag]?.first, tag)
            XCTAssertEqual(t["step"] as? Int, 30)
            XCTAssertEqual(t["dtype"] as? String, "float32")
            XCTAssertEqual(t["shape"] as? [Int], [6, curve.thresholdCount])
            XCTAssertEqual((t["values"] as? [[Double]])?.map { $0.map(Float.init) }, curve.rows, tag)
        }
        XCTAssertEqual(detectionCurve.falseNegatives.last, Float(groundTruth + 7))
        let comparison = (read["plugin_comparison"] as! [String: [String: Any]])["pr/plugin"]!
        XCTAssertEqual(comparison["equal"] as? Bool, true, "the plugin computes \(comparison["plugin_values"] ?? "?")")
        XCTAssertEqual(comparison["metadata_content_equal"] as? Bool, true)

        // The cut file still gives every scalar event before the torn one.
        XCTAssertEqual((read["cut_scalars"] as? [String: [Int]])?["loss/total"], losses.dropLast().map(\.step))

        let inspection = try runProgram(["python3", "-m", "tensorboard.main", "--logdir", root.path, "--inspect"])
        let inspected = inspection.output
        XCTAssertEqual(inspection.status, 0, inspected)
        for expected in ["run-a", "loss/total", "overlay/validation", "pr/plugin"] {
            XCTAssertTrue(inspected.contains(expected), "tensorboard --inspect does not list \(expected):\n\(inspected)")
        }
    }

    /// The byte offset just past the first `events` records of a TFRecord file.
    func scalarEventsEnd(of url: URL, events: Int) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: url))
        var offset = 0
        for _ in 0..<events {
            let length = (0..<8).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            offset += 16 + length
        }
        return offset
    }
}
