import Boxes
import Foundation

/// How a confidence threshold is picked for a class (evaluation.md, "Picking thresholds per class").
public enum ThresholdStrategy: Equatable, Sendable, CustomStringConvertible {
    /// The highest F1; on a tie, the higher threshold; none where the best F1 is 0.
    case maxF1
    /// The lowest threshold whose precision is at least p.
    case minPrecision(Double)
    /// The highest threshold whose recall is at least r.
    case minRecall(Double)

    public var description: String {
        switch self {
        case .maxF1: return "max_f1"
        case .minPrecision(let p): return "min_precision \(p)"
        case .minRecall(let r): return "min_recall \(r)"
        }
    }

    /// Parses `max_f1`, `min_precision:P` or `min_recall:R` (`=` or a space, as `description` writes, also separates).
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "=" || $0 == " " }).map(String.init)
        switch (parts.first, parts.count) {
        case ("max_f1", 1): self = .maxF1
        case ("min_precision", 2): guard let v = Double(parts[1]), (0...1).contains(v) else { return nil }; self = .minPrecision(v)
        case ("min_recall", 2): guard let v = Double(parts[1]), (0...1).contains(v) else { return nil }; self = .minRecall(v)
        default: return nil
        }
    }
}

/// A strategy is stored as its description (`"min_recall 0.5"`), as thresholds.json has always held it.
extension ThresholdStrategy: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let s = Self(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(text)' is not max_f1, min_precision P or min_recall R (P, R in [0, 1])")
        }
        self = s
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A picked threshold with what it gives.
public struct PickedThreshold: Equatable, Sendable {
    public var threshold: Double
    public var precision: Double
    public var recall: Double
    public var f1: Double
    public var tp: Int
    public var fp: Int
}

public enum ThresholdPicker {
    /// Candidate operating points: each distinct score, with the counts after its last detection.
    static func operatingPoints(_ curve: [PRPoint]) -> [PRPoint] {
        var out: [PRPoint] = []
        for (i, p) in curve.enumerated() where i == curve.count - 1 || curve[i + 1].threshold != p.threshold { out.append(p) }
        return out
    }

    /// The threshold `strategy` picks on `curve` (a class with `groundTruth` boxes); nil if none qualifies.
    public static func pick(_ curve: [PRPoint], groundTruth g: Int, strategy: ThresholdStrategy) -> PickedThreshold? {
        guard g > 0 else { return nil }
        let points = operatingPoints(curve)
        var chosen: PRPoint?
        switch strategy {
        case .maxF1:
            // F1 = 2TP / (TP + FP + G), compared exactly as fractions; points run from high to low threshold.
            for p in points {
                guard let c = chosen else { chosen = p; continue }
                if 2 * p.tp * (c.tp + c.fp + g) > 2 * c.tp * (p.tp + p.fp + g) { chosen = p }
            }
        case .minPrecision(let target):
            chosen = points.last { $0.precision >= target }
        case .minRecall(let target):
            chosen = points.first { $0.recall >= target }
        }
        guard let c = chosen else { return nil }
        // The best F1 is 0 only when no detection is a true positive: every threshold would show
        // false alarms and nothing else, so there is none to pick.
        if strategy == .maxF1 && c.tp == 0 { return nil }
        let f1 = c.precision + c.recall > 0 ? 2 * c.precision * c.recall / (c.precision + c.recall) : 0
        return PickedThreshold(threshold: c.threshold, precision: c.precision, recall: c.recall, f1: f1, tp: c.tp, fp: c.fp)
    }
}

/// Ground-truth class by detected class counts, background last (evaluation.md, "Confusion matrix").
public struct ConfusionMatrix: Equatable, Sendable {
    public var classNames: [String]
    /// (K + 1) x (K + 1): rows ground truth, columns detections, index K = background.
    public var counts: [[Int]]

    /// A matrix as counted before, e.g. read back from confusion_matrix.csv.
    public init(classNames: [String], counts: [[Int]]) {
        self.classNames = classNames
        self.counts = counts
    }

    /// Keeps detections at or above their class's threshold (0.5 where none), then pairs them
    /// with ground truth of any class per image in order of decreasing IoU.
    public init(_ input: EvaluationInput, thresholds: [Double?], iouThreshold: Double = 0.5) {
        let k = input.classNames.count
        classNames = input.classNames
        var m = [[Int]](repeating: [Int](repeating: 0, count: k + 1), count: k + 1)
        var detectionsOf: [String: [Detection]] = [:]
        for d in input.detections where d.score >= (thresholds[d.label] ?? 0.5) { detectionsOf[d.imageID, default: []].append(d) }
        for image in input.images {
            let dets = detectionsOf[image.imageID] ?? []
            var pairs: [(iou: Double, g: Int, d: Int)] = []
            for (gi, gb) in image.boxes.enumerated() {
                for (di, d) in dets.enumerated() {
                    let iou = d.box.iou(gb)
                    if iou >= iouThreshold { pairs.append((iou, gi, di)) }
                }
            }
            pairs.sort { $0.iou != $1.iou ? $0.iou > $1.iou : ($0.g != $1.g ? $0.g < $1.g : $0.d < $1.d) }
            var gFree = [Bool](repeating: true, count: image.boxes.count), dFree = [Bool](repeating: true, count: dets.count)
            for p in pairs where gFree[p.g] && dFree[p.d] {
                gFree[p.g] = false; dFree[p.d] = false
                m[image.labels[p.g]][dets[p.d].label] += 1
            }
            for (gi, free) in gFree.enumerated() where free { m[image.labels[gi]][k] += 1 }
            for (di, free) in dFree.enumerated() where free { m[k][dets[di].label] += 1 }
        }
        counts = m
    }
}
