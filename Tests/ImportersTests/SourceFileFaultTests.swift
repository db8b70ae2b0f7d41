import Boxes
import Foundation
import Images
import Importers
import Interchange
import Shards
import TestSupport
import XCTest

/// Faults in a source data set's own files: each is refused naming the file and the field, or
/// reported in the import's report and counted; none is imported as something else in silence.
final class SourceFileFaultTests: XCTestCase {
    let fm = FileManager.default

    func write(_ bytes: [UInt8], _ url: URL) throws {
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func image(_ url: URL) throws {
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try ImageCodec.writePNG(RGBImage(size: Size(width: 40, height: 80), fill: RGB(90, 90, 90)), to: url)
    }

    func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { littleEndian ? [UInt8($0 & 255), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 255)] }
    }

    /// A label file is read as UTF-8 (its BOM dropped) or UTF-16 with its BOM; one that is neither
    /// leaves its screen out, reported with the byte at fault, instead of a screen without boxes.
    func testLabelFilesInOtherEncodingsAreReadOrTheirScreenLeftOutAndReported() throws {
        let root = try scratchFolder(prefix: "uidetect-yolo-encodings")
        try Data("names: [button, text]\n".utf8).write(to: root.appendingPathComponent("data.yaml"))
        let latin1Prefix = "0 0.5 0.5 0.5 0.5\n1 0.25 0.25 0.1 0.1 "
        let labels: [String: [UInt8]] = [
            "bom8": [0xEF, 0xBB, 0xBF] + Array("0 0.5 0.5 0.5 0.5\n".utf8),
            "crlf": Array("0 0.5 0.5 0.5 0.5\r\n1 0.5 0.5 1 1\r\n".utf8),  // "\r\n" is one Character: split as a line end
            "latin1": Array(latin1Prefix.utf8) + [0xE9] + Array("t\u{E9}\n".utf8),  // "été", its first é in Latin-1
            "utf16le": [0xFF, 0xFE] + utf16("1 0.5 0.5 1 1\r\n", littleEndian: true),
            "utf16be": [0xFE, 0xFF] + utf16("0 0.25 0.25 0.5 0.5\n", littleEndian: false),
            "broken": [0xFF, 0xFE] + utf16("0 ", littleEndian: true) + [0x00, 0xDC] + utf16(" 0.5\n", littleEndian: true),
            "nul": utf16("0 0.5 0.5 0.5 0.5\n", littleEndian: true),
        ]
        for (name, bytes) in labels {
            try image(root.appendingPathComponent("images/\(name).png"))
            try write(bytes, root.appendingPathComponent("labels/\(name).txt"))
        }
        try image(root.appendingPathComponent("images/folder.png"))
        try fm.createDirectory(at: root.appendingPathComponent("labels/folder.txt"), withIntermediateDirectories: true)

        let source = try YOLOSource(folder: root)
        XCTAssertEqual(source.screens.map(\.imageID), ["bom8", "crlf", "utf16be", "utf16le"])
        let problems = Dictionary(uniqueKeysWithValues: source.problems.map { ($0.file, $0) })
        XCTAssertEqual(problems.keys.sorted(), ["broken.png", "folder.png", "latin1.png", "nul.png"])
        XCTAssertTrue(problems.values.allSatisfy { $0.kind == .unreadableLabels })
        let labelsPath = root.appendingPathComponent("labels").path
        XCTAssertEqual(problems["latin1.png"]?.detail,
                       "\(labelsPath)/latin1.txt: byte \(latin1Prefix.utf8.count): 0xE9 is not UTF-8 (Latin-1 or another legacy encoding? save the file as UTF-8)")
        XCTAssertEqual(problems["broken.png"]?.detail, "\(labelsPath)/broken.txt: byte 6: 0xDC00 is an unpaired surrogate in UTF-16 (by its byte-order mark)")
        XCTAssertEqual(problems["nul.png"]?.detail, "\(labelsPath)/nul.txt: byte 1: a NUL byte (UTF-16 without a byte-order mark? save the file as UTF-8)")
        XCTAssertTrue(problems["folder.png"]?.detail.hasPrefix("\(labelsPath)/folder.txt: ") ?? false)

        let out = try scratchFolder(prefix: "uidetect-yolo-encodings-out")
        let report = try DatasetImporter(sourceClasses: source.classNames, classMap: nil, size: Size(width: 40, height: 80), prefix: "yolo")
            .run(source.screens, sourceProblems: source.problems, into: out)
        XCTAssertEqual(report.screens, 4)
        XCTAssertEqual(report.count(.unreadableLabels), 4)
        let set = try ShardSet([out.path])
        var boxes: [String: [Box]] = [:], labelsByID: [String: [Int32]] = [:]
        for k in 0..<set.count {
            let r = try set.record(at: k)
            boxes[r.imageID] = r.boxes
            labelsByID[r.imageID] = r.labels
        }
        XCTAssertEqual(boxes["bom8"], [Box(xMin: 10, yMin: 20, xMax: 30, yMax: 60)], "the BOM is not part of the class number")
        XCTAssertEqual(boxes["crlf"], [Box(xMin: 10, yMin: 20, xMax: 30, yMax: 60), Box(xMin: 0, yMin: 0, xMax: 40, yMax: 80)])
        XCTAssertEqual(boxes["utf16le"], [Box(xMin: 0, yMin: 0, xMax: 40, yMax: 80)])
        XCTAssertEqual(labelsByID["utf16le"], [1])
        XCTAssertEqual(boxes["utf16be"], [Box(xMin: 0, yMin: 0, xMax: 20, yMax: 40)])
    }

    /// A COCO instances file in `dir` with images a.png and b.png (written) and the records given.
    func instances(_ dir: URL, images: String, annotations: String, categories: String) throws -> URL {
        try image(dir.appendingPathComponent("a.png"))
        try image(dir.appendingPathComponent("b.png"))
        let url = dir.appendingPathComponent("instances.json")
        try Data("{\"images\": [\(images)], \"annotations\": [\(annotations)], \"categories\": [\(categories)]}".utf8).write(to: url)
        return url
    }

    func testCOCOAnnotationsOfNoImageAreReportedAndCounted() throws {
        let dir = try scratchFolder(prefix: "uidetect-coco-orphans")
        let url = try instances(dir, images: #"{"id": 1, "file_name": "a.png"}, {"id": 2, "file_name": "b.png"}"#,
                                annotations: #"""
                                {"id": 10, "image_id": 1, "category_id": 1, "bbox": [1, 2, 10, 20]},
                                {"id": 11, "image_id": 7, "category_id": 1, "bbox": [1, 2, 10, 20]},
                                {"image_id": 9, "category_id": 1, "bbox": [1]}
                                """#, categories: #"{"id": 1, "name": "button"}"#)
        let source = try COCOSource(json: url, imagesFolder: dir)
        XCTAssertEqual(source.problems.map(\.description), [
            "instances.json: annotation of an image the file does not list, dropped: annotations[1] (id 11): image_id 7 is not in images",
            "instances.json: annotation of an image the file does not list, dropped: annotations[2] (id none): image_id 9 is not in images",
        ])
        let report = try DatasetImporter(sourceClasses: source.classNames, classMap: nil, size: Size(width: 40, height: 80), prefix: "coco")
            .run(source.screens, sourceProblems: source.problems, into: dir.appendingPathComponent("out"))
        XCTAssertEqual(report.screens, 2)
        XCTAssertEqual(report.boxes, 1)
        XCTAssertEqual(report.count(.orphanAnnotation), 2)
    }

    /// Two images with one id would each get both's annotations; two categories with one name
    /// crashed the import (Dictionary(uniqueKeysWithValues:)). Both are refused, naming both.
    func testCOCOIDsAndNamesGivenTwiceAreRefusedNamingBoth() throws {
        let dir = try scratchFolder(prefix: "uidetect-coco-twice")
        let box = #"{"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 2, 10, 20]}"#
        var url = try instances(dir, images: #"{"id": 1, "file_name": "a.png"}, {"id": 1, "file_name": "b.png"}"#,
                                annotations: box, categories: #"{"id": 1, "name": "button"}"#)
        XCTAssertThrowsError(try COCOSource(json: url, imagesFolder: dir)) { e in
            XCTAssertEqual("\(e)", "\(url.path): images[1].id: 1 is also the id of images[0] ('a.png' and 'b.png'): their annotations cannot be told apart")
        }
        url = try instances(dir, images: #"{"id": 1, "file_name": "a.png"}"#, annotations: box,
                            categories: #"{"id": 1, "name": "button"}, {"id": 2, "name": "text"}, {"id": 5, "name": "button"}"#)
        XCTAssertThrowsError(try COCOSource(json: url, imagesFolder: dir)) { e in
            XCTAssertEqual("\(e)", "\(url.path): categories[2].name: categories 1 and 5 are both named 'button': one name must be one class")
        }
        XCTAssertThrowsError(try COCOIDMap(contentsOf: url)) { e in XCTAssertTrue("\(e)".contains("categories 1 and 5 are both named 'button'"), "\(e)") }
        url = try instances(dir, images: #"{"id": 1, "file_name": "a.png"}"#, annotations: box,
                            categories: #"{"id": 1, "name": "button"}, {"id": 1, "name": "text"}"#)
        XCTAssertThrowsError(try COCOSource(json: url, imagesFolder: dir)) { e in
            XCTAssertEqual("\(e)", "\(url.path): categories[1].id: 1 is also the id of categories[0] ('button' and 'text')")
        }
        // A vocabulary a caller made with a name twice is an error, not a trap.
        XCTAssertThrowsError(try DatasetImporter(sourceClasses: ["a", "b", "a"], classMap: nil, size: Size(width: 40, height: 80), prefix: "x")
            .run([], into: dir.appendingPathComponent("out"))) { e in
            XCTAssertTrue("\(e)".contains("classes 0 and 2 of the vocabulary are both named 'a'"), "\(e)")
        }
    }
}
