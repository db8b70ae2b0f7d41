import Boxes
import Detection
import Engine
import Foundation
import IconRecognition
import IconVocabulary
import Images
import OCR
import ScreenDescription
import Shards
@testable import ScreenRecognition
import TestSupport
import XCTest

/// A recogniser of text that reads fixed lines, whatever the image.
struct FixedText: TextRecognizer {
    var lines: [TextLine]
    func recognise(_ image: RGBImage) throws -> [TextLine] { lines }
}


/// Every element of a description, groups and their children alike.
func flattened(_ elements: [DescribedElement]) -> [DescribedElement] {
    elements.flatMap { [$0] + flattened($0.children) }
}

/// A screenshot to description: elements given or from the detector after the deployment filter,
/// icons named from the screenshot's own pixels, OCR's lines handed to the heuristics.
final class ScreenRecognizerTests: XCTestCase {
    let image = RGBImage(size: Size(width: 128, height: 256), fill: RGB(250, 250, 250))

    func recognizer(detector: SSDDetector? = nil, thresholds: [String: Float] = [:], text: [TextLine]? = nil,
                    icons: IconClassifier? = nil) -> ScreenRecognizer {
        ScreenRecognizer(detector: detector, classNames: defaultClassNames, filter: DeploymentFilter(thresholds: thresholds),
                         textRecognizer: text.map { FixedText(lines: $0) }, iconClassifier: icons, describer: ScreenDescriber())
    }

    func testGivenElementsAreDescribedWithTheirTextAndWithoutADetector() throws {
        let title = Box(xMin: 10, yMin: 40, xMax: 110, yMax: 60)
        let given = [ElementDetection(box: title, className: "text", score: 1)]
        let (screen, elements, timing) = try recognizer(text: [TextLine(box: title, text: "Settings", confidence: 0.95)])
            .describe(imageID: "shot", image: image, given: given)
        XCTAssertEqual(elements, given, "given elements are used as they are")
        XCTAssertEqual(screen.imageID, "shot")
        XCTAssertEqual([screen.width, screen.height], [128, 256])
        XCTAssertTrue(flattened(screen.elements).contains { $0.label == "Settings" }, "OCR's line labels the text: \(screen.elements)")
        XCTAssertEqual(timing.detector + timing.icons + timing.ocr + timing.heuristics, timing.total)
        XCTAssertTrue([timing.detector, timing.icons, timing.ocr, timing.heuristics].allSatisfy { $0 >= 0 })
        // Without OCR the text is still an element, unlabelled.
        let unread = try recognizer().describe(imageID: "shot", image: image, given: given).screen
        XCTAssertFalse(flattened(unread.elements).contains { $0.label == "Settings" })
        XCTAssertFalse(unread.elements.isEmpty)
    }

    /// The planted detector finds `text` everywhere with score sigmoid(6) = 0.9975: kept at a
    /// threshold of 0.5, all dropped at 0.999; kept boxes are in the screenshot's pixels (twice the input's).
    func testTheDetectorsElementsPassTheDeploymentFilterAndAreInTheScreenshotsPixels() throws {
        let detector = SSDDetector(model: try plantedModel())
        let kept = try recognizer(detector: detector, thresholds: ["text": 0.5]).describe(imageID: "s", image: image).elements
        XCTAssertFalse(kept.isEmpty)
        XCTAssertTrue(kept.allSatisfy { $0.className == "text" && abs($0.score - 1 / (1 + expf(-6))) < 1e-4 })
        XCTAssertTrue(kept.allSatisfy { $0.box.xMin >= 0 && $0.box.yMin >= 0 && $0.box.xMax <= 128 && $0.box.yMax <= 256 })
        XCTAssertGreaterThan(kept.map(\.box.yMax).max() ?? 0, 128, "boxes mapped back from the 64 x 128 input")
        let dropped = try recognizer(detector: detector, thresholds: ["text": 0.999]).describe(imageID: "s", image: image)
        XCTAssertEqual(dropped.elements, [])
        XCTAssertEqual(dropped.screen.elements, [])
    }

    /// Icons, and only icons, get the classifier's type and guess; a crop too small to classify
    /// still gets an answer (a blank crop's), never a crash.
    func testIconsAreNamedByTheClassifier() throws {
        let search = try XCTUnwrap(IconVocabulary.type(named: "search"))
        var drawn = image
        drawn.fill(Box(xMin: 20, yMin: 20, xMax: 44, yMax: 44), color: RGB(30, 30, 30))
        let given = [ElementDetection(box: Box(xMin: 20, yMin: 20, xMax: 44, yMax: 44), className: "icon", score: 1),
                     ElementDetection(box: Box(xMin: 80, yMin: 20, xMax: 81, yMax: 21), className: "icon", score: 1),
                     ElementDetection(box: Box(xMin: 10, yMin: 100, xMax: 110, yMax: 120), className: "text", score: 1)]
        let (screen, elements, _) = try recognizer(icons: plantedIconClassifier(favouring: search.name)).describe(imageID: "i", image: drawn, given: given)
        XCTAssertEqual(elements.map(\.iconType), [search, search, nil])
        XCTAssertEqual(elements.map(\.iconGuess), [search, search, nil])
        XCTAssertTrue(flattened(screen.elements).contains { $0.iconType == search }, "the description carries the icon's type")
        // Without a classifier the types stay unknown.
        XCTAssertEqual(try recognizer().describe(imageID: "i", image: drawn, given: given).elements.map(\.iconType), [nil, nil, nil])
    }

    func testDescriptionConfigsAreLaidOverTheDefaultsOrThePapersSteps() throws {
        XCTAssertEqual(try DescriptionConfigLoader.load(nil), DescriptionConfig())
        XCTAssertEqual(try DescriptionConfigLoader.load(nil, paper: true), DescriptionConfig.paper)
        XCTAssertNotEqual(DescriptionConfig(), DescriptionConfig.paper, "the paper's steps alone differ from ours")
        let yaml = try DescriptionConfigLoader.yaml(DescriptionConfig())
        let dir = try scratchFolder(prefix: "uidetect-description-config")
        let url = dir.appendingPathComponent("d.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertEqual(try DescriptionConfigLoader.load(url), DescriptionConfig(), "a written config reads back the same")
        XCTAssertThrowsError(try DescriptionConfigLoader.load(nil, overrides: ["grouping.no_such_rule.enabled=true"])) { e in
            XCTAssertTrue("\(e)".contains("grouping.no_such_rule") && "\(e)".contains("unknown key"), "\(e)")
        }
    }
}
