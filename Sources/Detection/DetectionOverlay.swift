import Boxes
import Foundation
import Images

/// Detections drawn on their screenshot for a person: box, class name and score.
public struct DetectionOverlay {
    public let classNames: [String]
    public let font: Font

    public init(classNames: [String], font: Font) {
        self.classNames = classNames
        self.font = font
    }

    /// `image` with each detection drawn, the best on top.
    public func draw(_ detections: [DetectedBox], on image: RGBImage) -> RGBImage {
        // Small screenshots are drawn at twice their size so that the labels stay readable.
        let scale = max(image.width, image.height) < 1000 ? 2 : 1
        var canvas = scale == 1 ? image : image.resized(to: Size(width: image.width * scale, height: image.height * scale))
        let s = Float(scale)
        for d in detections.reversed() {
            canvas.annotate(d.box.transformed(scaleX: s, scaleY: s), label: classNames[d.label] + String(format: " %.2f", d.score),
                            color: ClassColors.color(d.label), font: font, pixelSize: 9 + 2 * scale)
        }
        return canvas
    }
}
