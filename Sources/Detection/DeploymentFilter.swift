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

    /// Reads the per-class thresholds of a `thresholds.json` (evaluation.md: `{"classes": {name: {"threshold": t, ...} | null}}`).
    public static func thresholds(from url: URL) throws -> [String: Float] {
        guard let data = try? Data(contentsOf: url) else { throw DeploymentError(path: url.path, problem: "cannot read the file") }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let classes = root["classes"] as? [String: Any] else {
            throw DeploymentError(path: url.path, problem: "expected {\"classes\": {name: {\"threshold\": ...}}}")
        }
        var out: [String: Float] = [:]
        for (name, value) in classes {
            if value is NSNull { continue }
            guard let entry = value as? [String: Any], let t = (entry["threshold"] as? NSNumber)?.floatValue, t.isFinite else {
                throw DeploymentError(path: url.path, problem: "class '\(name)': 'threshold' must be a finite number or the class null")
            }
            out[name] = t
        }
        return out
    }

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

/// A thresholds file that cannot be used.
public struct DeploymentError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "\(path): \(problem)" }
}
