import Boxes
import Detection
import Engine
import Foundation
import Images
import Shards
import TestSupport
import XCTest

/// Issue 28 end to end: real-vocabulary shards described through the built-in map, the interactive
/// truth derived at import, and bad vocabulary maps refused naming the file and the class, nothing written.
final class VocabularyMapCommandTests: XCTestCase {
    static let realClasses = ["BackgroundImage", "Bottom_Navigation", "Card", "CheckedTextView", "Drawer", "EditText", "Icon", "Image", "ImageButton",
                              "List", "Modal", "Multi_Tab", "PageIndicator", "Switch", "Text", "TextButton", "TextImageButton", "Toolbar", "UpperTaskBar"]

    /// One 200 x 400 screen in the real vocabulary: a status bar, a toolbar with an icon, a button, a text.
    func realShard(_ dir: URL) throws -> URL {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("real.h5")
        let writer = try ShardWriter(url: url, classNames: Self.realClasses, imageSize: Size(width: 200, height: 400))
        let named = [("UpperTaskBar", Box(xMin: 0, yMin: 0, xMax: 200, yMax: 12)), ("Toolbar", Box(xMin: 0, yMin: 12, xMax: 200, yMax: 44)),
                     ("Icon", Box(xMin: 170, yMin: 18, xMax: 190, yMax: 38)), ("TextButton", Box(xMin: 40, yMin: 200, xMax: 160, yMax: 230)),
                     ("Text", Box(xMin: 20, yMin: 100, xMax: 180, yMax: 120))]
        try writer.append(ScreenRecord(imageID: "real-1", groupID: "app", image: RGBImage(size: Size(width: 200, height: 400), fill: RGB(255, 255, 255)),
                                       boxes: named.map(\.1), labels: named.map { Int32(Self.realClasses.firstIndex(of: $0.0)!) },
                                       originalSize: Size(width: 200, height: 400), interactive: [-1, -1, 1, 1, -1]))
        try writer.finish()
        return url
    }

    func testRealScreensAreDescribedThroughTheBuiltInMap() throws {
        let dir = try scratchFolder(prefix: "real-vocabulary")
        let shard = try realShard(dir.appendingPathComponent("data"))
        let out = dir.appendingPathComponent("described")
        var run = try runUIDetect(["describe", "--boxes-from-truth", "--no-ocr", "--data", shard.path, "--out", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let screens = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("description.json"))) as! [[String: Any]]
        let bar = try XCTUnwrap(screens[0]["status_bar"] as? [String: Any], "the status bar stands apart")
        XCTAssertEqual(bar["kind"] as? String, "status_bar")
        let elements = screens[0]["elements"] as! [[String: Any]]
        XCTAssertFalse(elements.contains { $0["kind"] as? String == "status_bar" })
        XCTAssertEqual(elements.filter { $0["interactive"] as? Bool == true }.map { $0["kind"] as! String }.sorted(), ["button", "icon"],
                       "the button by its class, the toolbar's icon by its bar")
        let scored = dir.appendingPathComponent("scored")
        run = try runUIDetect(["evaluate-description", "--data", shard.path, "--description", out.appendingPathComponent("description.json").path, "--out", scored.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("interactive elements recall") && run.stdout.contains("100.0%"), run.stdout)
    }

    func testBadVocabularyMapsAreNamedAndNothingIsWritten() throws {
        let dir = try scratchFolder(prefix: "bad-vocabulary")
        let shard = try realShard(dir.appendingPathComponent("data"))
        let cases: [(String, String, String)] = [
            ("unknown-kind.yaml", "classes:\n  Text: txt\n", "class 'Text' has the unknown kind 'txt'"),
            ("twice.yaml", "classes:\n  Text: text\n  Text: button\n", "class 'Text' is mapped twice"),
            ("missing.yaml", "classes:\n  Text: text\n", "class 'BackgroundImage' is a class of the shards"),
        ]
        for (name, text, message) in cases {
            let map = dir.appendingPathComponent(name)
            try Data(text.utf8).write(to: map)
            let out = dir.appendingPathComponent("out-\(name)")
            let run = try runUIDetect(["describe", "--boxes-from-truth", "--no-ocr", "--data", shard.path, "--vocabulary-map", map.path, "--out", out.path])
            XCTAssertNotEqual(run.status, 0, name)
            XCTAssertTrue(run.stderr.contains(map.path) && run.stderr.contains(message), "\(name): \(run.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(name): nothing written")
        }
    }

    func testADetectorWhoseVocabularyHasNoMapIsRefused() throws {
        let dir = try scratchFolder(prefix: "unknown-detector")
        var g = SeededGenerator(seed: 5)
        let model = SSDModel(config: try plantedConfig(), generator: &g)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let weights = dir.appendingPathComponent("widgets.safetensors")
        try DetectorWeights.write(model, classNames: (0..<13).map { "widget\($0)" }, step: 0, to: weights)
        let shot = dir.appendingPathComponent("shot.png")
        try ImageCodec.writePNG(RGBImage(size: Size(width: 64, height: 128), fill: RGB(255, 255, 255)), to: shot)
        let out = dir.appendingPathComponent("out")
        let run = try runUIDetect(["describe", "--checkpoint", weights.path, "--no-ocr", shot.path, "--out", out.path])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("class 'widget0'") && run.stderr.contains(weights.path) && run.stderr.contains("--vocabulary-map"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    /// A planted detector of the real-screen vocabulary that finds `Text` at every location: describe finds its
    /// map by its class names, and says which in index.html.
    func testADetectorOfTheRealVocabularyIsDescribedThroughItsMap() throws {
        let dir = try scratchFolder(prefix: "real-detector")
        var c = try plantedConfig()
        c.numClasses = Self.realClasses.count
        var g = SeededGenerator(seed: 5)
        let model = SSDModel(config: c, generator: &g)
        let text = Self.realClasses.firstIndex(of: "Text")!
        model.classHead.final.weight.assign([Float](repeating: 0, count: model.classHead.final.weight.count))
        model.classHead.final.bias!.assign((0..<(c.anchorsPerLocation * c.numClasses)).map { $0 == text ? 6 : -12 })
        model.boxHead.final.weight.assign([Float](repeating: 0, count: model.boxHead.final.weight.count))
        model.boxHead.final.bias!.assign([Float](repeating: 0, count: c.anchorsPerLocation * 4))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let weights = dir.appendingPathComponent("real.safetensors")
        try DetectorWeights.write(model, classNames: Self.realClasses, step: 0, to: weights)
        let shot = dir.appendingPathComponent("shot.png")
        try ImageCodec.writePNG(RGBImage(size: Size(width: 64, height: 128), fill: RGB(255, 255, 255)), to: shot)
        let out = dir.appendingPathComponent("out")
        let run = try runUIDetect(["describe", "--checkpoint", weights.path, "--no-ocr", shot.path, "--out", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let screens = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("description.json"))) as! [[String: Any]]
        let kinds = Set((screens[0]["elements"] as! [[String: Any]]).flatMap { e in [e["kind"] as! String] + ((e["children"] as? [[String: Any]]) ?? []).map { $0["kind"] as! String } })
        XCTAssertTrue(kinds.isSubset(of: ["text", "group"]) && !kinds.isEmpty, "the detector's Text boxes became texts: \(kinds)")
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(index.contains("built-in real-ui (19 classes)"), index)
    }

    func testImportDerivesTheInteractiveTruth() throws {
        let dir = try scratchFolder(prefix: "import-interactive")
        let source = dir.appendingPathComponent("yolo")
        try FileManager.default.createDirectory(at: source.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: source.appendingPathComponent("labels"), withIntermediateDirectories: true)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 100, height: 200), fill: RGB(255, 255, 255)), to: source.appendingPathComponent("images/a.png"))
        let index = { (name: String) in Self.realClasses.firstIndex(of: name)! }
        // A toolbar with an icon in it, an icon elsewhere, a TextButton, a Text.
        try Data("""
        \(index("Toolbar")) 0.5 0.05 1.0 0.1
        \(index("Icon")) 0.9 0.05 0.1 0.05
        \(index("Icon")) 0.2 0.5 0.1 0.05
        \(index("TextButton")) 0.5 0.7 0.5 0.05
        \(index("Text")) 0.5 0.3 0.5 0.05

        """.utf8).write(to: source.appendingPathComponent("labels/a.txt"))
        try Data(("names: [" + Self.realClasses.joined(separator: ", ") + "]\n").utf8).write(to: source.appendingPathComponent("data.yaml"))
        let out = dir.appendingPathComponent("shards")
        let run = try runUIDetect(["import", "yolo", source.path, "--out", out.path, "--size", "100x200", "--interactive-truth"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let record = try ShardSet([out.path]).record(at: 0, withImage: false)
        XCTAssertEqual(record.interactive, [-1, 1, -1, 1, -1])
    }
}
