import Boxes
import Images

/// One line of text found in an image.
public struct OCRLine: Equatable, Sendable {
    /// In the pixels of the image given to the recogniser.
    public var box: Box
    public var text: String
    /// The recogniser's confidence, 0...1.
    public var confidence: Float

    /// A line with every field given.
    public init(box: Box, text: String, confidence: Float) {
        self.box = box
        self.text = text
        self.confidence = confidence
    }
}

/// Finds the lines of text in an image.
public protocol TextRecognizer {
    /// The lines of `image`, top to bottom as the recogniser reads them.
    func recognise(_ image: RGBImage) throws -> [OCRLine]
}

/// Why text recognition could not start or run.
public enum OCRError: Error, CustomStringConvertible, Equatable {
    /// The engine could not be set up (library, language data); the caller goes on without OCR.
    case cannotStart(dataPath: String, language: String, reason: String)
    /// One image could not be read.
    case recognitionFailed(size: Size, reason: String)

    public var description: String {
        switch self {
        case .cannotStart(let dataPath, let language, let reason):
            return "OCR: cannot start Tesseract with language \"\(language)\" from \(dataPath): \(reason)"
        case .recognitionFailed(let size, let reason):
            return "OCR: recognition of a \(size) image failed: \(reason)"
        }
    }
}
