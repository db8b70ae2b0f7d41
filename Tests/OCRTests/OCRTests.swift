import Boxes
import Foundation
import Images
@testable import OCR
import TestSupport
import XCTest

final class OCRTests: XCTestCase {
    /// A 390 x 844 screenshot (an iPhone at 1x) with a title and list rows drawn in DejaVu Sans;
    /// returns it with each line's text and the box around its ink.
    /// At `scale` 3 it is the same screen as a 3x phone shows it (1170 x 2532).
    func screenshot(scale: Int = 1) throws -> (RGBImage, [(text: String, ink: Box)]) {
        let regular = try Font(path: Font.regularPath), bold = try Font(path: Font.boldPath)
        var image = RGBImage(size: Size(width: 390 * scale, height: 844 * scale), fill: RGB(255, 255, 255))
        var drawn: [(String, Box)] = []
        func put(_ text: String, x: Int, baseline: Int, font: Font, size: Int, colour: RGB = RGB(0, 0, 0)) {
            if let ink = image.draw(text: text, x: x * scale, baseline: baseline * scale, font: font, pixelSize: size * scale, color: colour) { drawn.append((text, ink)) }
        }
        put("Settings", x: 16, baseline: 130, font: bold, size: 30)
        put("Wireless Network", x: 60, baseline: 220, font: regular, size: 17)
        put("Bluetooth", x: 60, baseline: 280, font: regular, size: 17)
        put("Airplane Mode", x: 60, baseline: 340, font: regular, size: 17)
        put("Cancel", x: 290, baseline: 60, font: regular, size: 17, colour: RGB(0, 122, 255))
        return (image, drawn)
    }

    func testDrawnWordsAreReadWithBoxesCoveringTheirInk() throws {
        try checkReading(scale: 1, slack: 2)
    }

    func testAWideScreenshotIsReadReducedWithBoxesInItsOwnPixels() throws {
        try checkReading(scale: 3, slack: 4)
    }

    func testScreenshotsAreReadAtAboutTheTargetWidth() throws {
        let recogniser = try TesseractRecognizer()
        XCTAssertEqual(recogniser.scale(forWidth: 390), 2)
        XCTAssertEqual(recogniser.scale(forWidth: 750), 1)
        XCTAssertEqual(recogniser.scale(forWidth: 975), 1, "5/4 of 780 is read as it is")
        XCTAssertEqual(recogniser.scale(forWidth: 1170), 780.0 / 1170.0, accuracy: 1e-12)
        XCTAssertEqual(recogniser.scale(forWidth: 150), 4, "at most 4x")
        XCTAssertEqual(try TesseractRecognizer(targetWidth: 0).scale(forWidth: 1170), 1)
    }

    /// Reads `screenshot(scale:)` and checks each line's text and that its box holds the drawn ink
    /// within `slack` pixels of rounding.
    func checkReading(scale: Int, slack: Float) throws {
        let (image, drawn) = try screenshot(scale: scale)
        let recogniser = try TesseractRecognizer()
        let start = Date()
        let lines = try recogniser.recognise(image)
        let seconds = Date().timeIntervalSince(start)
        print("OCR: \(lines.count) lines in \(String(format: "%.2f", seconds)) s for a \(image.width)x\(image.height) screenshot (scaled \(recogniser.scale(forWidth: image.width))x)")
        for (text, ink) in drawn {
            guard let found = lines.first(where: { $0.box.iou(ink) > 0.3 }) else {
                XCTFail("\"\(text)\" at \(ink) not found in \(lines)")
                continue
            }
            XCTAssertEqual(found.text, text)
            XCTAssertTrue(found.box.xMin <= ink.xMin + slack && found.box.yMin <= ink.yMin + slack
                          && found.box.xMax >= ink.xMax - slack && found.box.yMax >= ink.yMax - slack, "\(text): \(found.box) against ink \(ink)")
            XCTAssertGreaterThan(found.box.iou(ink), 0.5, text)
            XCTAssertTrue((0.5...1).contains(found.confidence), "\(text): confidence \(found.confidence)")
        }
    }

    func testABlankImageHasNoText() throws {
        XCTAssertEqual(try TesseractRecognizer().recognise(RGBImage(size: Size(width: 200, height: 100), fill: RGB(240, 240, 240))), [])
    }

    /// The library is loaded, not linked: a missing one is an error saying so (describe then goes on
    /// without OCR), and another library without Tesseract's functions is refused naming the first missing.
    func testAMissingLibraryIsAnErrorNotACrash() throws {
        guard case .failure(let missing) = TesseractLibrary.load(["/nonexistent/libtesseract.so.5"]) else { return XCTFail("loaded a file that does not exist") }
        XCTAssertTrue(missing.description.contains("the Tesseract library could not be loaded"), missing.description)
        XCTAssertTrue(missing.description.contains("/nonexistent/libtesseract.so.5"), missing.description)
        guard case .failure(let wrong) = TesseractLibrary.load(["libm.so.6"]) else { return XCTFail("took libm for Tesseract") }
        XCTAssertTrue(wrong.description.contains("libm.so.6 has no TessBaseAPICreate"), wrong.description)
        guard case .success = TesseractLibrary.load(["/nonexistent/libtesseract.so.5"] + TesseractLibrary.candidates) else {
            return XCTFail("the installed library was not found after a missing one")
        }
    }

    func testUnusableLanguageDataIsAnErrorNotACrash() throws {
        XCTAssertThrowsError(try TesseractRecognizer(dataPath: "/nonexistent/tessdata")) { error in
            guard case .cannotStart(let path, let language, let reason)? = error as? OCRError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/tessdata")
            XCTAssertEqual(language, "eng")
            XCTAssertTrue(reason.contains("eng.traineddata"), reason)
        }
        XCTAssertThrowsError(try TesseractRecognizer(language: "xx-none")) { error in
            XCTAssertNotNil(error as? OCRError)
        }
        // A file that is not language data where the data should be.
        let folder = try scratchFolder(prefix: "uidetect-tessdata")
        try Data("not a model".utf8).write(to: folder.appendingPathComponent("eng.traineddata"))
        XCTAssertThrowsError(try TesseractRecognizer(dataPath: folder.path)) { error in
            XCTAssertEqual((error as? OCRError).map { if case .cannotStart = $0 { return true } else { return false } }, true)
        }
    }
}
