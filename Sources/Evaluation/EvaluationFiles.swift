import Foundation

/// The files an evaluation writes (evaluation.md, "Files an evaluation writes"), each atomically.
public enum EvaluationFiles {
    /// Writes metrics.json, pr_curves.csv, thresholds.json and confusion_matrix.csv into `folder`.
    public static func write(_ result: EvaluationResult, thresholds: [PickedThreshold?], strategy: ThresholdStrategy,
                             confusion: ConfusionMatrix, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try json(metrics(result)).write(to: folder.appendingPathComponent("metrics.json"), options: .atomic)
        try Data(prCurves(result).utf8).write(to: folder.appendingPathComponent("pr_curves.csv"), options: .atomic)
        try json(thresholdsObject(result, thresholds, strategy)).write(to: folder.appendingPathComponent("thresholds.json"), options: .atomic)
        try Data(confusionCSV(confusion).utf8).write(to: folder.appendingPathComponent("confusion_matrix.csv"), options: .atomic)
    }

    static func json(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    static func number(_ v: Double?) -> Any { v.map { $0 as Any } ?? NSNull() }

    /// The metrics.json object.
    public static func metrics(_ r: EvaluationResult) -> [String: Any] {
        [
            "iou_threshold": r.iouThreshold,
            "interpolation": r.interpolation.rawValue,
            "images": r.images,
            "classes": r.classes.map { c -> [String: Any] in
                ["name": c.name, "gt_count": c.gtCount, "detections": c.detections, "ap50": number(c.ap50), "ap_center": number(c.apCenter)]
            },
            "map50": number(r.map50), "map50_weighted": number(r.map50Weighted),
            "map_center": number(r.mapCenter), "map_center_weighted": number(r.mapCenterWeighted),
        ]
    }

    /// `class,threshold,precision,recall,tp,fp`, one row per detection of each class with ground truth.
    public static func prCurves(_ r: EvaluationResult) -> String {
        var lines = ["class,threshold,precision,recall,tp,fp"]
        for c in r.classes {
            for p in c.curve { lines.append("\(csv(c.name)),\(p.threshold),\(p.precision),\(p.recall),\(p.tp),\(p.fp)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func thresholdsObject(_ r: EvaluationResult, _ t: [PickedThreshold?], _ strategy: ThresholdStrategy) -> [String: Any] {
        var classes: [String: Any] = [:]
        for (c, pick) in zip(r.classes, t) {
            classes[c.name] = pick.map { ["threshold": $0.threshold, "precision": $0.precision, "recall": $0.recall, "f1": $0.f1] as [String: Any] } ?? NSNull()
        }
        return ["strategy": strategy.description, "classes": classes]
    }

    /// `ground_truth,<class names...>,background`, one row per ground-truth class and one for background.
    public static func confusionCSV(_ m: ConfusionMatrix) -> String {
        let names = m.classNames + ["background"]
        var lines = ["ground_truth," + names.map(csv).joined(separator: ",")]
        for (i, row) in m.counts.enumerated() { lines.append(csv(names[i]) + "," + row.map(String.init).joined(separator: ",")) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func csv(_ s: String) -> String {
        s.contains(",") || s.contains("\"") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
}
