import Boxes

/// One line of text read from an image (by OCR), in that image's pixels.
public struct TextLine: Equatable, Sendable {
    public var box: Box
    public var text: String
    /// The reader's confidence, 0...1.
    public var confidence: Float

    /// A line with every field given.
    public init(box: Box, text: String, confidence: Float) {
        self.box = box
        self.text = text
        self.confidence = confidence
    }
}
