import Boxes
import CTesseract
import Foundation
import Images

/// Text lines by Tesseract's C API: sparse-text page segmentation (screenshots are scattered
/// labels, not pages), lines from the result iterator at text-line level.
///
/// Narrow screenshots are enlarged first, by the whole factor nearest to `targetWidth / width`
/// (at most 4): Tesseract's LSTM reads glyphs best at 20-30 pixels of x-height, and a 1x
/// screenshot's body text has about 8. Measured on 390 x 844 screens drawn with DejaVu Sans:
/// at 1x a 13-pixel line lost a capital, at 2x (the default's choice for them) every line was
/// exact, and 3x read no better at twice the time. Wide ones (more than 5/4 of `targetWidth`:
/// 3x phones, tablets) are reduced to `targetWidth`, since Tesseract's time grows with the pixels
/// and their text is larger than it needs. Boxes come back in the given image's pixels.
///
/// A Tesseract engine is not thread-safe: give each thread its own recogniser.
public final class TesseractRecognizer: TextRecognizer {
    /// Where Debian's tesseract-ocr-eng puts its data.
    public static let defaultDataPath = "/usr/share/tesseract-ocr/5/tessdata"

    public let dataPath: String
    public let language: String
    /// Images are read at about this width (see above); 0 reads them at their own size.
    public let targetWidth: Int
    private let api: TesseractLibrary
    private let handle: OpaquePointer

    /// An engine for `language` with its data from `dataPath` (else `TESSDATA_PREFIX`, else the
    /// Debian path). Throws `OCRError.libraryMissing` when libtesseract cannot be loaded and
    /// `OCRError.cannotStart` when the language data cannot be used.
    public init(dataPath: String? = nil, language: String = "eng", targetWidth: Int = 780) throws {
        let path = dataPath ?? ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] ?? Self.defaultDataPath
        self.dataPath = path
        self.language = language
        self.targetWidth = targetWidth
        // Checked here because Tesseract's own failure is a message on stderr and a bare -1.
        let data = URL(fileURLWithPath: path).appendingPathComponent("\(language).traineddata").path
        guard FileManager.default.isReadableFile(atPath: data) else {
            throw OCRError.cannotStart(dataPath: path, language: language,
                                       reason: "no readable \(language).traineddata there (scripts/setup.sh installs Debian's tesseract-ocr-eng)")
        }
        let api = try TesseractLibrary.shared.get()
        self.api = api
        guard let engine = api.create() else {
            throw OCRError.cannotStart(dataPath: path, language: language, reason: "the library did not create an engine")
        }
        guard api.initialise(engine, path, language) == 0 else {
            api.delete(engine)
            throw OCRError.cannotStart(dataPath: path, language: language, reason: "Tesseract could not load the language data")
        }
        api.setPageSegMode(engine, PSM_SPARSE_TEXT)
        // Its diagnostics would otherwise go to stderr for every image.
        _ = api.setVariable(engine, "debug_file", "/dev/null")
        handle = engine
    }

    deinit {
        api.end(handle)
        api.delete(handle)
    }

    /// The lines of `image`, with boxes in its pixels and confidences in 0...1; empty lines are left out.
    public func recognise(_ image: RGBImage) throws -> [TextLine] {
        guard image.width > 0, image.height > 0 else { return [] }
        let factor = scale(forWidth: image.width)
        let input = factor == 1 ? image : image.resized(to: Size(width: max(1, Int((Double(image.width) * factor).rounded())),
                                                                  height: max(1, Int((Double(image.height) * factor).rounded()))))
        guard input.width <= Int(Int32.max) / 3 else {
            throw OCRError.recognitionFailed(size: image.size, reason: "too wide for Tesseract")
        }
        return try input.pixels.withUnsafeBufferPointer { pixels -> [TextLine] in
            api.setImage(handle, pixels.baseAddress, Int32(input.width), Int32(input.height), 3, Int32(input.width * 3))
            // A screenshot has no physical resolution; this keeps Tesseract from guessing (and saying so).
            api.setSourceResolution(handle, 300)
            defer { api.clear(handle) }
            guard api.recognize(handle, nil) == 0 else {
                throw OCRError.recognitionFailed(size: image.size, reason: "Tesseract's Recognize returned an error")
            }
            return lines(scaleX: Float(image.width) / Float(input.width), scaleY: Float(image.height) / Float(input.height))
        }
    }

    /// The factor an image `width` pixels wide is scaled by: a whole one from 1 to 4 up to about
    /// `targetWidth`, or down to it from more than 5/4 of it.
    public func scale(forWidth width: Int) -> Double {
        guard targetWidth > 0, width > 0 else { return 1 }
        if 4 * width > 5 * targetWidth { return Double(targetWidth) / Double(width) }
        return Double(max(1, min(4, Int((Double(targetWidth) / Double(width)).rounded()))))
    }

    /// The recognised lines, boxes scaled back by `scaleX` and `scaleY`.
    private func lines(scaleX: Float, scaleY: Float) -> [TextLine] {
        guard let iterator = api.getIterator(handle) else { return [] }
        defer { api.deleteIterator(iterator) }
        let page = api.pageIterator(iterator)
        var out: [TextLine] = []
        repeat {
            guard let raw = api.utf8Text(iterator, RIL_TEXTLINE) else { continue }
            let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
            api.deleteText(raw)
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard !text.isEmpty, api.boundingBox(page, RIL_TEXTLINE, &left, &top, &right, &bottom) != 0 else { continue }
            let confidence = api.confidence(iterator, RIL_TEXTLINE) / 100
            let box = Box(xMin: Float(left), yMin: Float(top), xMax: Float(right), yMax: Float(bottom)).transformed(scaleX: scaleX, scaleY: scaleY)
            out.append(TextLine(box: box, text: text, confidence: min(1, max(0, confidence))))
        } while api.next(iterator, RIL_TEXTLINE) != 0
        return out
    }
}
