import Boxes
import Foundation
import Images
import Interchange
import ScreenDescription
@testable import ScreenRecognition
import Shards
import TestSupport
import XCTest

/// Synthetic truth shards, a description run over them and its evaluation: the path of
/// `describe` and `evaluate-description` in process, on a few small screens.
final class DescriptionRunTests: XCTestCase {
    /// `count` synthetic screens with their description truth in one shard under `dir`.
    func truthShards(_ dir: URL, count: Int) throws -> ShardSet {
        let url = try writeSyntheticShard(to: dir.appendingPathComponent("truth.h5"), screens: 0..<count, size: Size(width: 180, height: 390), seed: 7)
        return try ShardSet([url.path])
    }

    /// A run that describes the given elements, without detector or OCR.
    func run(pages: Bool) -> DescriptionRun {
        DescriptionRun(recognizer: ScreenRecognizer(detector: nil, classNames: defaultClassNames, filter: .init(), textRecognizer: nil, describer: ScreenDescriber()),
                       pages: pages, notes: ["a note"])
    }

    func input(_ id: String, fails: Bool = false) -> DescriptionInput {
        DescriptionInput(imageID: id, source: "\(id).png") {
            struct Unreadable: Error, CustomStringConvertible { var description: String { "not an image" } }
            if fails { throw Unreadable() }
            let image = RGBImage(size: Size(width: 100, height: 200), fill: RGB(255, 255, 255))
            return (image, [ElementDetection(box: Box(xMin: 10, yMin: 10, xMax: 90, yMax: 30), className: "text", score: 1)])
        }
    }

    /// Unreadable screens are reported and skipped; repeated ids are made distinct; each screen gets a page.
    func testScreensAreDescribedSkippedAndNamedOnce() throws {
        let folder = try scratchFolder(prefix: "uidetect-description-run")
        var seen: [(Int, Int)] = []
        let outcome = try run(pages: true).run([input("a"), input("b", fails: true), input("a")], into: folder) { seen.append(($0, $1)) }
        XCTAssertEqual(outcome.described, 2)
        XCTAssertEqual(outcome.skipped, ["b.png: not an image"])
        XCTAssertEqual(seen.map(\.0), [0, 1, 2])
        XCTAssertTrue(seen.allSatisfy { $0.1 == 3 })
        let described = try DescriptionFile.read(from: folder.appendingPathComponent(DescriptionFile.fileName))
        XCTAssertEqual(described.map(\.imageID), ["a", "a-2"])
        for page in ["a.html", "a-2.html", "index.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(page).path), page)
        }
        let index = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(index.contains("a note") && index.contains("a-2.html"), index)
        XCTAssertGreaterThanOrEqual(outcome.medianTotal, 0)

        let plain = try scratchFolder(prefix: "uidetect-description-run")
        XCTAssertEqual(try run(pages: false).run([input("a")], into: plain).described, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: plain.path).sorted(), [DescriptionFile.fileName, "index.html"], "no page per screen")
    }

    func testScreenshotFilesAreReadStrictlyAtTheirOwnSize() throws {
        let dir = try scratchFolder(prefix: "uidetect-description-inputs")
        try ImageCodec.writePNG(RGBImage(size: Size(width: 30, height: 50), fill: RGB(1, 2, 3)), to: dir.appendingPathComponent("shot.png"))
        try Data("no png".utf8).write(to: dir.appendingPathComponent("broken.png"))
        let inputs = DescriptionInput.screenshots(try ScreenshotFiles([dir.path]))
        XCTAssertEqual(inputs.map(\.imageID), ["broken", "shot"])
        XCTAssertThrowsError(try inputs[0].load())
        let (image, given) = try inputs[1].load()
        XCTAssertEqual(image.size, Size(width: 30, height: 50))
        XCTAssertNil(given, "screenshots come without elements")
    }

    /// Truth read from shards: every screen, its boxes in stored pixels, and as elements on the
    /// original screenshot (scaled back by the letterbox's scale).
    func testTruthScreensAreReadFromShardsAndScaledToTheOriginal() throws {
        let set = try truthShards(try scratchFolder(prefix: "uidetect-truth"), count: 3)
        let truths = try TruthScreens.read(set)
        XCTAssertEqual(truths.count, 3)
        for (i, truth) in truths.enumerated() {
            let record = try set.record(at: i, withImage: false)
            XCTAssertEqual(truth.imageID, record.imageID)
            XCTAssertEqual(truth.boxes, record.boxes)
            XCTAssertEqual(truth.classNames, record.labels.map { defaultClassNames[Int($0)] })
            XCTAssertEqual(truth.storedSize, Size(width: 180, height: 390))
            let elements = TruthScreens.elements(of: truth)
            XCTAssertEqual(elements.count, truth.boxes.count)
            for (e, b) in zip(elements, truth.boxes) {
                XCTAssertEqual(e.box.xMin, b.xMin / truth.scale, accuracy: 1e-3)
                XCTAssertEqual(e.box.yMax, b.yMax / truth.scale, accuracy: 1e-3)
                XCTAssertEqual(e.score, 1)
                XCTAssertLessThanOrEqual(e.box.xMax, Float(truth.originalSize.width) + 1e-2)
            }
        }
        XCTAssertFalse(TruthScreens.iconExamples(truths).isEmpty, "synthetic screens have icons whose interactivity is known")
    }

    /// Truth boxes described and scored against their own truth: files written, every screen
    /// scored; a description of screens the truth lacks is blamed on the description file.
    func testADescriptionOfTheTruthIsScoredAndAStrangerIsRefused() throws {
        let dir = try scratchFolder(prefix: "uidetect-description-evaluation")
        let set = try truthShards(dir, count: 3)
        let described = dir.appendingPathComponent("described")
        try FileManager.default.createDirectory(at: described, withIntermediateDirectories: true)
        let outcome = try run(pages: false).run(DescriptionInput.shards(set, truthBoxes: true), into: described)
        XCTAssertEqual(outcome.described, 3)
        XCTAssertEqual(outcome.skipped, [])
        let file = described.appendingPathComponent(DescriptionFile.fileName).path
        let scored = dir.appendingPathComponent("scored")
        try FileManager.default.createDirectory(at: scored, withIntermediateDirectories: true)
        let report = try DescriptionEvaluation.run(description: file, truth: set, title: "t", into: scored)
        XCTAssertEqual(report.metrics.screens, 3)
        XCTAssertNotNil(report.metrics.orderPerfectShare.value, "synthetic truth has a navigation order")
        for name in [DescriptionMetricsFile.fileName, "report.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: scored.appendingPathComponent(name).path), name)
        }

        let stranger = dir.appendingPathComponent("stranger.json")
        var screens = try DescriptionFile.read(from: URL(fileURLWithPath: file))
        screens[0].imageID = "no-such-screen"
        try DescriptionFile.write(screens, to: stranger)
        XCTAssertThrowsError(try DescriptionEvaluation.run(description: stranger.path, truth: set, title: "t", into: scored)) { e in
            XCTAssertTrue("\(e)".contains(stranger.path) && "\(e)".contains("no ground truth"), "\(e)")
        }
    }

    func testWithoutOCRTheRunSaysWhy() {
        let off = DescriptionRun.textRecognizer(enabled: false, width: 1000)
        XCTAssertNil(off.recognizer)
        XCTAssertEqual(off.note, "Without OCR (--no-ocr): labels stay empty.")
    }
}
