import Boxes
import Evaluation
import Foundation
import Images
import Shards

/// A screen as the report shows it: its pixels beside its true boxes and the detections kept at
/// the picked thresholds, as Ultralytics' validation batches show labels beside predictions.
public struct ReportScreen {
    public var imageID: String
    public var image: RGBImage
    /// Ground-truth boxes in the image's pixels, labels in the evaluation's vocabulary.
    public var truth: [(box: Box, label: Int)]
    /// Detections at or above their class's threshold, best first.
    public var detections: [(box: Box, label: Int, score: Double)]

    public init(imageID: String, image: RGBImage, truth: [(box: Box, label: Int)], detections: [(box: Box, label: Int, score: Double)]) {
        self.imageID = imageID
        self.image = image
        self.truth = truth
        self.detections = detections
    }

    /// The detections of `input` that a report shows: those at or above their class's picked
    /// threshold, 0.5 for a class without one (the confusion matrix's rule).
    public static func kept(_ input: EvaluationInput, picks: [PickedThreshold?]) -> [String: [(box: Box, label: Int, score: Double)]] {
        var out: [String: [(box: Box, label: Int, score: Double)]] = [:]
        for d in input.detections where d.score >= (picks[d.label]?.threshold ?? 0.5) {
            out[d.imageID, default: []].append((d.box, d.label, d.score))
        }
        for k in out.keys { out[k]!.sort { $0.score > $1.score } }
        return out
    }

    /// The first `count` screens of `set` with ground-truth boxes, in the set's order. `input`'s images
    /// must be the set's first screens in order (`EvaluationLoader.groundTruth(set, ...)`, or a prefix of
    /// it), with the scored detections. Screens stored without pixels (detection shards) are passed over.
    public static func first(_ count: Int, of set: ShardSet, input: EvaluationInput, picks: [PickedThreshold?]) throws -> [ReportScreen] {
        precondition(input.images.count <= set.count, "the input's images must be the set's first screens, in order")
        let kept = kept(input, picks: picks)
        var out: [ReportScreen] = []
        for (i, truth) in input.images.enumerated() where !truth.boxes.isEmpty {
            guard out.count < count else { break }
            guard let image = try set.record(at: i).image else { continue }
            out.append(ReportScreen(imageID: truth.imageID, image: image, truth: zip(truth.boxes, truth.labels).map { ($0, $1) },
                                    detections: kept[truth.imageID] ?? []))
        }
        return out
    }
}
