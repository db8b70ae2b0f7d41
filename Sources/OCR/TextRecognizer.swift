import Boxes
import Images

/// Finds the lines of text in an image.
public protocol TextRecognizer {
    /// The lines of `image`, top to bottom as the recogniser reads them.
    func recognise(_ image: RGBImage) throws -> [TextLine]
}

/// Why text recognition could not start or run.
public enum OCRError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The Tesseract library is not installed or lacks a function; the caller goes on without OCR.
    case libraryMissing(reason: String)
    /// The engine could not be set up (language data); the caller goes on without OCR.
    case cannotStart(dataPath: String, language: String, reason: String)
    /// One image could not be read.
    case recognitionFailed(size: Size, reason: String)

    public var description: String {
        switch self {
        case .libraryMissing(let reason):
            return "OCR: \(reason)"
        case .cannotStart(let dataPath, let language, let reason):
            return "OCR: cannot start Tesseract with language \"\(language)\" from \(dataPath): \(reason)"
        case .recognitionFailed(let size, let reason):
            return "OCR: recognition of a \(size) image failed: \(reason)"
        }
    }
}
