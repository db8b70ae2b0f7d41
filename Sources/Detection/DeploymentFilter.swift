import Boxes
import Foundation

/// Deployment post-processing from the paper (ssd-model.md, "Post-processing"): after
/// per-class NMS, keep each class's detections at or above its threshold, then suppress the
/// lower-scored of two boxes of visually similar classes that overlap at IoU > 0.8.
/// Thresholds come first, so that a box too weak to be shown never removes one that is shown.
public struct DeploymentFilter: Sendable {
    /// Groups of class names that look alike.
    public var similarGroups: [Set<String>] = [["icon", "picture"], ["segmented_control", "text_field", "container"]]
    public var suppressionIoU = 0.8
    /// Threshold per class name; a class without one keeps every detection.
    public var thresholds: [String: Float]

    public init(thresholds: [String: Float] = [:]) { self.thresholds = thresholds }

    /// Applies the thresholds, then cross-class suppression, to one image's detections.
    public func apply(_ all: [DetectedBox], classNames: [String]) -> [DetectedBox] {
        let detections = all.filter { d in thresholds[classNames[d.label]].map { d.score >= $0 } ?? true }
        let group: [Int?] = classNames.map { name in similarGroups.firstIndex { $0.contains(name) } }
        let order = detections.indices.sorted { detections[$0].score != detections[$1].score ? detections[$0].score > detections[$1].score : $0 < $1 }
        var kept: [Int] = []
        for i in order {
            let d = detections[i]
            let suppressed = group[d.label].map { gi in
                kept.contains { k in
                    let o = detections[k]
                    return o.label != d.label && group[o.label] == gi && o.box.iou(d.box) > suppressionIoU
                }
            } ?? false
            if !suppressed { kept.append(i) }
        }
        return kept.map { detections[$0] }
    }
}

