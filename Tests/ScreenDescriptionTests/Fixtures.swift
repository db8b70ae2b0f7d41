import Boxes
import Images
@testable import ScreenDescription
import XCTest

func detection(_ className: String, _ b: Box, score: Float = 0.9) -> ElementDetection {
    ElementDetection(box: b, className: className, score: score)
}

func line(_ text: String, _ b: Box, confidence: Float = 0.95) -> TextLine {
    TextLine(box: b, text: text, confidence: confidence)
}

/// A working state for one rule's test: a 400 x 800 screen holding `detections`.
func state(_ detections: [ElementDetection], size: Size = Size(width: 400, height: 800)) -> DescriptionState {
    DescriptionState(size: size, detections: detections)
}

/// The top-level elements as the ids of their leaves, e.g. [[0], [1, 2]]: what a grouping test compares.
func leafIDs(_ elements: [DescribedElement]) -> [[Int]] {
    elements.map { $0.leaves.map(\.id).sorted() }.sorted { $0[0] < $1[0] }
}

/// A white image with rectangles filled in: the hand-drawn screens of the selection tests.
func drawn(_ size: Size, background: RGB = RGB(255, 255, 255), _ fills: [(Box, RGB)]) -> RGBImage {
    var image = RGBImage(size: size, fill: background)
    for (b, colour) in fills { image.fill(b, color: colour) }
    return image
}

let white = RGB(255, 255, 255)
let blue = RGB(0, 122, 255)
let grey = RGB(142, 142, 147)
let black = RGB(0, 0, 0)

/// A plain white screenshot.
func blank(_ width: Int, _ height: Int) -> RGBImage { RGBImage(size: Size(width: width, height: height), fill: white) }
