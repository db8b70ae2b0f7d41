import Boxes
import Foundation
import Images

/// Detections drawn on their screenshot for a person: box, class name and score.
///
/// Small screenshots (under 1000 px on their long side) are drawn at twice their size so that the
/// labels stay readable. Lines are `lineWidth(_:)` pixels wide in the PNG (at least 2), each edged by
/// a contrasting 1-pixel line so that it shows on light and dark screens; labels stay inside the image.
public struct DetectionOverlay {
    public let classNames: [String]
    public let font: Font

    public init(classNames: [String], font: Font) {
        self.classNames = classNames
        self.font = font
    }

    /// How many times its size a screenshot of `size` is drawn.
    public static func scale(_ size: Size) -> Int { max(size.width, size.height) < 1000 ? 2 : 1 }

    /// The line width in the overlay's pixels for a drawing `canvas` big: 2, and more on large screenshots
    /// (one pixel per 800 of the long side), so that a box stays visible when the picture is shown smaller.
    public static func lineWidth(_ canvas: Size) -> Int { max(2, Int((Double(max(canvas.width, canvas.height)) / 800).rounded())) }

    /// `image` with each detection drawn, the best on top.
    public func draw(_ detections: [DetectedBox], on image: RGBImage) -> RGBImage {
        let scale = Self.scale(image.size)
        var canvas = scale == 1 ? image : image.resized(to: Size(width: image.width * scale, height: image.height * scale))
        let s = Float(scale)
        let thickness = Self.lineWidth(canvas.size)
        for d in detections.reversed() {
            canvas.annotate(d.box.transformed(scaleX: s, scaleY: s), label: classNames[d.label] + String(format: " %.2f", d.score),
                            color: ClassColors.color(d.label), font: font, pixelSize: 9 + 2 * scale, thickness: thickness)
        }
        return canvas
    }
}
