import Boxes
import Foundation

/// How a precision-recall curve becomes one AP number (evaluation.md, step 4).
public enum Interpolation: String, CaseIterable, Codable, Sendable {
    /// Pascal VOC 2010+: precision made non-increasing from the right, summed over recall rises.
    case allPoint = "all_point"
    /// COCO: the interpolated precision at 101 recall thresholds i * 0.01, averaged.
    case coco101
    /// Pascal VOC 2007: the best precision at recall >= i * 0.1, i = 0...10, averaged.
    case voc11
}

/// One point of a class's precision-recall curve: the counts after one detection in score order.
public struct PRPoint: Equatable, Sendable {
    public var threshold: Double
    public var precision: Double
    public var recall: Double
    public var tp: Int
    public var fp: Int

    public init(threshold: Double, precision: Double, recall: Double, tp: Int, fp: Int) {
        self.threshold = threshold
        self.precision = precision
        self.recall = recall
        self.tp = tp
        self.fp = fp
    }
}

/// The numbers of one class.
public struct ClassResult: Equatable, Sendable {
    public var name: String
    public var gtCount: Int
    public var detections: Int
    /// nil for a class without ground truth.
    public var ap50: Double?
    public var apCenter: Double?
    /// One point per detection in score order; empty for a class without ground truth.
    public var curve: [PRPoint]
}

/// An evaluation's results: per class, and the means over classes with ground truth.
public struct EvaluationResult: Equatable, Sendable {
    public var iouThreshold: Double
    public var interpolation: Interpolation
    public var images: Int
    public var classes: [ClassResult]
    public var map50: Double?
    public var map50Weighted: Double?
    public var mapCenter: Double?
    public var mapCenterWeighted: Double?
}

/// Scores detections against ground truth exactly as evaluation.md defines.
///
/// Work is per image and class after one stable sort by score: no all-pairs
/// comparison over the data set.
public struct Evaluator: Sendable {
    public var iouThreshold: Double
    public var interpolation: Interpolation

    public init(iouThreshold: Double = 0.5, interpolation: Interpolation = .allPoint) {
        self.iouThreshold = iouThreshold
        self.interpolation = interpolation
    }

    public func evaluate(_ input: EvaluationInput) -> EvaluationResult {
        let k = input.classNames.count
        let n = input.images.count
        let imageIndex = Dictionary(input.images.enumerated().map { ($1.imageID, $0) }, uniquingKeysWith: { a, _ in a })
        // Ground truth of each class, flat and grouped by image: image i owns rows starts[c][i]..<starts[c][i+1].
        var starts = [[Int]](repeating: [Int](repeating: 0, count: n + 1), count: k)
        for (i, image) in input.images.enumerated() { for l in image.labels { starts[l][i + 1] += 1 } }
        for c in 0..<k { for i in 0..<n { starts[c][i + 1] += starts[c][i] } }
        var flat = (0..<k).map { [Box](repeating: Box(xMin: 0, yMin: 0, xMax: 0, yMax: 0), count: starts[$0][n]) }
        var fill = starts.map { Array($0.dropLast()) }
        for (i, image) in input.images.enumerated() {
            for (b, l) in zip(image.boxes, image.labels) { flat[l][fill[l][i]] = b; fill[l][i] += 1 }
        }
        // Each detection's image, looked up once; detections of each class in input order.
        var byClass = [[Int]](repeating: [], count: k)
        var detectionImage = [Int](repeating: -1, count: input.detections.count)
        for (i, d) in input.detections.enumerated() {
            byClass[d.label].append(i)
            detectionImage[i] = imageIndex[d.imageID] ?? -1
        }

        var classes: [ClassResult] = []
        for c in 0..<k {
            // Highest score first; equal scores keep their input order (a stable sort).
            let order = byClass[c].map { (input.detections[$0].score, $0) }
                .sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }.map(\.1)
            let g = starts[c][n]
            guard g > 0 else {
                classes.append(ClassResult(name: input.classNames[c], gtCount: 0, detections: order.count, ap50: nil, apCenter: nil, curve: []))
                continue
            }
            let boxes = flat[c]
            var takenIoU = [Bool](repeating: false, count: g), takenCenter = [Bool](repeating: false, count: g)
            var tpIoU = [Bool](repeating: false, count: order.count), tpCenter = [Bool](repeating: false, count: order.count)
            for (rank, di) in order.enumerated() {
                let img = detectionImage[di]
                guard img >= 0 else { continue }
                let rows = starts[c][img]..<starts[c][img + 1]
                let d = input.detections[di].box
                // Among untaken boxes, the highest IoU (the first on a tie).
                var best = -1, bestIoU = -1.0
                for j in rows where !takenIoU[j] {
                    let iou = d.iou(boxes[j])
                    if iou > bestIoU { bestIoU = iou; best = j }
                }
                if best >= 0 && bestIoU >= iouThreshold { takenIoU[best] = true; tpIoU[rank] = true }
                // AP-center: an untaken box containing the detection's centre, the highest IoU among them.
                let cx = (Double(d.xMin) + Double(d.xMax)) / 2, cy = (Double(d.yMin) + Double(d.yMax)) / 2
                var bestC = -1, bestCIoU = -1.0
                for j in rows where !takenCenter[j] && boxes[j].contains(x: cx, y: cy) {
                    let iou = d.iou(boxes[j])
                    if iou > bestCIoU { bestCIoU = iou; bestC = j }
                }
                if bestC >= 0 { takenCenter[bestC] = true; tpCenter[rank] = true }
            }
            let scores = order.map { input.detections[$0].score }
            let curve = Self.curve(tp: tpIoU, scores: scores, groundTruth: g)
            let centerCurve = Self.curve(tp: tpCenter, scores: scores, groundTruth: g)
            classes.append(ClassResult(name: input.classNames[c], gtCount: g, detections: order.count,
                                       ap50: averagePrecision(curve), apCenter: averagePrecision(centerCurve), curve: curve))
        }
        let scored = classes.filter { $0.ap50 != nil }
        func mean(_ key: KeyPath<ClassResult, Double?>, weighted: Bool) -> Double? {
            guard !scored.isEmpty else { return nil }
            let w = scored.map { weighted ? Double($0.gtCount) : 1 }
            return zip(scored, w).reduce(0) { $0 + $1.0[keyPath: key]! * $1.1 } / w.reduce(0, +)
        }
        return EvaluationResult(iouThreshold: iouThreshold, interpolation: interpolation, images: input.images.count, classes: classes,
                                map50: mean(\.ap50, weighted: false), map50Weighted: mean(\.ap50, weighted: true),
                                mapCenter: mean(\.apCenter, weighted: false), mapCenterWeighted: mean(\.apCenter, weighted: true))
    }

    /// Precision and recall after each detection.
    static func curve(tp: [Bool], scores: [Double], groundTruth g: Int) -> [PRPoint] {
        var t = 0, f = 0
        return zip(tp, scores).map { isTP, score in
            if isTP { t += 1 } else { f += 1 }
            return PRPoint(threshold: score, precision: Double(t) / Double(t + f), recall: Double(t) / Double(g), tp: t, fp: f)
        }
    }

    /// AP of a curve under this evaluator's interpolation.
    public func averagePrecision(_ curve: [PRPoint]) -> Double {
        guard !curve.isEmpty else { return 0 }
        // Precision made non-increasing from the right.
        var p = curve.map(\.precision)
        for i in stride(from: p.count - 2, through: 0, by: -1) { p[i] = max(p[i], p[i + 1]) }
        let r = curve.map(\.recall)
        switch interpolation {
        case .allPoint:
            var ap = 0.0, previous = 0.0
            for i in 0..<r.count where r[i] > previous {
                ap += (r[i] - previous) * p[i]
                previous = r[i]
            }
            return ap
        case .coco101:
            // Thresholds as numpy's linspace makes them: i * 0.01 in double, the last exactly 1.
            var sum = 0.0
            var j = 0
            for i in 0...100 {
                let threshold = i == 100 ? 1.0 : Double(i) * 0.01
                while j < r.count && r[j] < threshold { j += 1 }  // first point with recall >= threshold
                if j < r.count { sum += p[j] }
            }
            return sum / 101
        case .voc11:
            var sum = 0.0
            for i in 0...10 {
                let threshold = Double(i) * 0.1
                // p is already the best precision from each point rightwards.
                if let j = r.firstIndex(where: { $0 >= threshold }) { sum += p[j] }
            }
            return sum / 11
        }
    }
}
