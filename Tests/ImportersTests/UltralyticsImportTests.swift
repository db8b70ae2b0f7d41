import Boxes
import Foundation
import Images
import Importers
import Interchange
import Shards
import TestSupport
import XCTest

/// Ultralytics data sets laid out as Ultralytics writes them, made here: data.yaml with `names` as a
/// mapping and a `path`, splits as a folder, a list of folders and a .txt list of images.
final class UltralyticsImportTests: XCTestCase {
    let fm = FileManager.default

    func write(_ text: String, _ url: URL) throws {
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// A 40 x 80 PNG (written under any extension: images are decoded by their first bytes).
    func image(_ url: URL, shade: UInt8) throws {
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 40, height: 80), fill: RGB(shade, shade, shade)), to: url)
    }

    /// root/config/data.yaml pointing at root/ds (`path: ../ds`, relative to the YAML's folder).
    func dataSet() throws -> (yaml: URL, ds: URL) {
        let root = try scratchFolder(prefix: "uidetect-ultralytics")
        let ds = root.appendingPathComponent("ds")
        let yaml = root.appendingPathComponent("config/data.yaml")
        try write("""
        # as Ultralytics writes it
        path: ../ds
        train: images/train
        val: [images/val, extra/val2]
        test: test.txt
        names:
          0: button
          1: text
        download: |
          print("not for us")
        """, yaml)
        try image(ds.appendingPathComponent("images/train/a.png"), shade: 10)
        try write("0 0.5 0.25 0.5 0.25\n1 0.25 0.75 0.5 0.1\n", ds.appendingPathComponent("labels/train/a.txt"))
        try image(ds.appendingPathComponent("images/train/b.png"), shade: 20)
        try image(ds.appendingPathComponent("images/train/b.jpg"), shade: 30)
        try write("1 0.5 0.5 1 1\n", ds.appendingPathComponent("labels/train/b.txt"))
        try image(ds.appendingPathComponent("images/train/sub/c.png"), shade: 40)
        try write("0 0.5 0.5 0.5 0.5\n", ds.appendingPathComponent("labels/train/sub/c.txt"))
        try image(ds.appendingPathComponent("images/val/d.png"), shade: 50)
        try image(ds.appendingPathComponent("extra/val2/e.png"), shade: 60)
        try write("1 0.1 0.1 0.2 0.2\n", ds.appendingPathComponent("extra/val2/e.txt"))  // no /images/ in the path: beside the image
        try image(ds.appendingPathComponent("images/test/f.png"), shade: 70)
        try write("0 0.5 0.5 0.5 0.5\n", ds.appendingPathComponent("labels/test/f.txt"))
        try write("./images/test/f.png\n\n", ds.appendingPathComponent("test.txt"))
        return (yaml, ds)
    }

    func testEverySplitOfAnUltralyticsDataSetImportsEndToEnd() throws {
        let (yaml, ds) = try dataSet()
        let dataset = try UltralyticsDataset(yaml: yaml)
        XCTAssertEqual(dataset.classNames, ["button", "text"])
        XCTAssertEqual(dataset.root.path, ds.path)
        XCTAssertEqual(dataset.splits.map(\.name), ["train", "val", "test"])
        XCTAssertEqual(dataset.splits.map { $0.source.screens.map(\.imageID) }, [["a", "b", "b-2", "c"], ["d", "e"], ["f"]])
        let renamed = dataset.splits[0].source.screens.flatMap(\.problems).filter { $0.kind == .renamed }
        XCTAssertEqual(renamed.map(\.file), ["b.png"], "in path order b.jpg comes first and keeps 'b'")
        let out = try scratchFolder(prefix: "uidetect-ultralytics-out")
        var boxes: [String: [Box]] = [:]
        for split in dataset.splits {
            let report = try DatasetImporter(sourceClasses: dataset.classNames, classMap: nil, size: Size(width: 40, height: 80), prefix: "yolo")
                .run(split.source.screens, into: out.appendingPathComponent(split.name))
            XCTAssertEqual(report.screens, split.source.screens.count)
            let set = try ShardSet([out.appendingPathComponent(split.name).path])
            for k in 0..<set.count { let r = try set.record(at: k); boxes[r.imageID] = r.boxes }
        }
        func assertBoxes(_ id: String, _ expected: [Box], _ message: String = "", line: UInt = #line) {
            let found = boxes[id] ?? []
            XCTAssertEqual(found.count, expected.count, "\(id): \(found) \(message)", line: line)
            for (b, e) in zip(found, expected) {
                for (x, y) in [(b.xMin, e.xMin), (b.yMin, e.yMin), (b.xMax, e.xMax), (b.yMax, e.yMax)] {
                    XCTAssertEqual(x, y, accuracy: 1e-4, "\(id): \(b) vs \(e) \(message)", line: line)
                }
            }
        }
        assertBoxes("a", [Box(xMin: 10, yMin: 10, xMax: 30, yMax: 30), Box(xMin: 0, yMin: 56, xMax: 20, yMax: 64)])
        assertBoxes("b", [Box(xMin: 0, yMin: 0, xMax: 40, yMax: 80)])
        assertBoxes("b-2", [Box(xMin: 0, yMin: 0, xMax: 40, yMax: 80)], "both files of stem b have labels/train/b.txt, as in Ultralytics")
        assertBoxes("c", [Box(xMin: 10, yMin: 20, xMax: 30, yMax: 60)], "a subfolder's labels are in the same subfolder")
        XCTAssertEqual(boxes["d"], [], "no label file: a background screen")
        assertBoxes("e", [Box(xMin: 0, yMin: 0, xMax: 8, yMax: 16)], "beside the image")
        assertBoxes("f", [Box(xMin: 10, yMin: 20, xMax: 30, yMax: 60)])
    }

    func testTheLabelFileIsFoundTheUltralyticsWay() {
        XCTAssertEqual(YOLOSource.labelURL(forImage: URL(fileURLWithPath: "/d/images/x/images/train/a.b.png")).path, "/d/images/x/labels/train/a.b.txt")
        XCTAssertEqual(YOLOSource.labelURL(forImage: URL(fileURLWithPath: "/d/val/a.jpg")).path, "/d/val/a.txt")
    }

    func testPathsAndLinksLeadingOutOfTheDataSetAreRefused() throws {
        var (yaml, ds) = try dataSet()
        let outside = try scratchFolder(prefix: "uidetect-outside")
        try write("0 0.5 0.5 0.1 0.1\n", outside.appendingPathComponent("secret.txt"))
        let label = ds.appendingPathComponent("labels/train/a.txt")
        try fm.removeItem(at: label)
        try fm.createSymbolicLink(at: label, withDestinationURL: outside.appendingPathComponent("secret.txt"))
        XCTAssertThrowsError(try UltralyticsDataset(yaml: yaml)) {
            XCTAssertTrue("\($0)".hasPrefix(label.path + ": label file refused: it is a symbolic link to"), "\($0)")
        }
        // A link that stays inside the data set is fine.
        try fm.removeItem(at: label)
        try fm.createSymbolicLink(at: label, withDestinationURL: ds.appendingPathComponent("labels/train/b.txt"))
        XCTAssertNoThrow(try UltralyticsDataset(yaml: yaml))

        try write("train: ../../elsewhere\nnames: [a]\npath: ../ds\n", yaml)
        XCTAssertThrowsError(try UltralyticsDataset(yaml: yaml)) {
            XCTAssertTrue("\($0)".contains("data.yaml: field 'train': '../../elsewhere' refused: the path leads outside the data set"), "\($0)")
        }
        (yaml, ds) = try dataSet()
        try write("images/test/f.png\n../../outside.png\n", ds.appendingPathComponent("test.txt"))
        XCTAssertThrowsError(try UltralyticsDataset(yaml: yaml)) {
            XCTAssertTrue("\($0)".contains("test.txt: line 2: '../../outside.png' refused"), "\($0)")
        }
    }

    func testNamesMustBeAListOrIndicesFromZero() throws {
        let dir = try scratchFolder(prefix: "uidetect-names")
        let yaml = dir.appendingPathComponent("data.yaml")
        try write("names: {0: a, 2: c}\n", yaml)
        XCTAssertThrowsError(try UltralyticsData(contentsOf: yaml)) { XCTAssertTrue("\($0)".contains("names: no name for class 1"), "\($0)") }
        try write("nc: 2\n", yaml)
        XCTAssertEqual(try UltralyticsData(contentsOf: yaml).names, ["class_0", "class_1"])
        try write("names: [a, b]\ntrain: [x, y]\nval: v\n", yaml)
        let data = try UltralyticsData(contentsOf: yaml)
        XCTAssertEqual(data.train, ["x", "y"])
        XCTAssertEqual(data.val, ["v"])
    }

    /// A class given twice (a key twice in `names`, or one name for two classes) is refused, not
    /// silently merged: YAML keeps the last key, and two classes of one name crashed the import.
    func testAClassGivenTwiceIsRefusedNamingBoth() throws {
        let dir = try scratchFolder(prefix: "uidetect-names")
        let yaml = dir.appendingPathComponent("data.yaml")
        try write("train: images\nnames:\n  0: button\n  1: text\n  0: icon\n", yaml)
        XCTAssertThrowsError(try UltralyticsData(contentsOf: yaml)) { e in
            XCTAssertTrue("\(e)".hasPrefix("\(yaml.path): names.0: given twice in one mapping (lines 3 and 5)"), "\(e)")
        }
        try write("train: images\nnames: [button, text, button]\n", yaml)
        XCTAssertThrowsError(try UltralyticsData(contentsOf: yaml)) { e in
            XCTAssertEqual("\(e)", "\(yaml.path): names: classes 0 and 2 are both named 'button'")
        }
    }
}
