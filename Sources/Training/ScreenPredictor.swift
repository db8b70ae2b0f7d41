import Boxes
import Detection
import Engine
import Foundation
import Images
import Shards

/// A trained detector ready for screenshots of any size: each is letterboxed into the
/// model's input (aspect kept, padded), detected, filtered for deployment (cross-class
/// suppression, per-class thresholds), and its boxes mapped back to the original pixels.
public final class ScreenPredictor {
    public let detector: SSDDetector
    public let classNames: [String]
    public var filter: DeploymentFilter

    public init(detector: SSDDetector, classNames: [String], filter: DeploymentFilter) {
        self.detector = detector
        self.classNames = classNames
        self.filter = filter
    }

    /// A predictor from a weights file, checkpoint folder or run folder; `thresholds` per class
    /// name, and `defaultThreshold` for every class without one.
    public static func load(checkpoint: String, thresholds: [String: Float], defaultThreshold: Float) throws -> ScreenPredictor {
        let (model, names, _) = try DetectorWeights.read(try DetectorWeights.resolve(checkpoint))
        if let unknown = thresholds.keys.sorted().first(where: { !names.contains($0) }) {
            throw CheckpointError(path: checkpoint, problem: "the thresholds name class '\(unknown)', which the detector does not have (\(names.joined(separator: ", ")))")
        }
        var all = thresholds
        for n in names where all[n] == nil { all[n] = defaultThreshold }
        return ScreenPredictor(detector: SSDDetector(model: model, classWeights: [Float](repeating: 1, count: names.count)),
                               classNames: names, filter: DeploymentFilter(thresholds: all))
    }

    /// Detections on `image`, in its own pixels, best first.
    public func predict(_ image: RGBImage) -> [DetectedBox] {
        detector.detect(screens: [image]) { filter.apply($0, classNames: classNames) }[0]
    }

    /// `image` with each detection drawn: box, class name and score.
    public func overlay(_ image: RGBImage, _ detections: [DetectedBox], font: Font) -> RGBImage {
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
