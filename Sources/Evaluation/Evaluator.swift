import Boxes
import Workers
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
    /// The mean of the AP at COCO's ten IoU thresholds 0.50, 0.55, ..., 0.95 (`Evaluator.cocoIoUThresholds`),
    /// each under the evaluation's interpolation; nil for a class without ground truth.
    public var ap50to95: Double? = nil
    /// Ground-truth boxes in each size bucket; nil where a screen's area is unknown.
    public var gtCountBySize: BySize<Int>? = nil
    /// AP at the evaluation's IoU threshold over the boxes of each size bucket (COCO's rules for an
    /// area range: `Evaluator.evaluate`); nil for a bucket without ground truth or sizes unknown.
    public var apBySize = BySize<Double?>(small: nil, medium: nil, large: nil)
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
    /// The plain mean of `ap50to95` over classes with ground truth.
    public var map50to95: Double? = nil
    /// The buckets of `apBySize`; nil where a screen's area is unknown (then no figure by size exists).
    public var sizeBuckets: SizeBuckets? = nil
    /// Per bucket, the plain mean of `apBySize` over the classes with ground truth in it.
    public var map50BySize = BySize<Double?>(small: nil, medium: nil, large: nil)
}

/// Scores detections against ground truth exactly as evaluation.md defines.
///
/// Work is per image and class after one stable sort by score: no all-pairs
/// comparison over the data set. Each detection's IoU with the boxes of its image
/// and class is computed once and then serves every matching: AP50, AP-center,
/// the other nine IoU thresholds of AP50-95, and the three size buckets.
public struct Evaluator: Sendable {
    public var iouThreshold: Double
    public var interpolation: Interpolation
    /// The buckets of AP by size.
    public var sizeBuckets: SizeBuckets

    public init(iouThreshold: Double = 0.5, interpolation: Interpolation = .allPoint, sizeBuckets: SizeBuckets = .screenShare) {
        self.iouThreshold = iouThreshold
        self.interpolation = interpolation
        self.sizeBuckets = sizeBuckets
    }

    /// COCO's IoU thresholds of AP50-95 exactly as pycocotools makes them with numpy's
    /// `linspace(0.5, 0.95, 10)`: `i * (0.45 / 9) + 0.5`, the last exactly 0.95 (the ninth is 0.8999999999999999).
    public static let cocoIoUThresholds: [Double] = (0..<10).map { (i: Int) -> Double in
        let step: Double = (0.95 - 0.5) / 9
        return i == 9 ? 0.95 : Double(i) * step + 0.5
    }

    /// Evaluates every class. AP by size follows COCO's area ranges (`COCOeval.evaluateImg`), with
    /// the share of the screen in place of the area: for bucket B, a detection takes, among the
    /// untaken boxes of B, the one with the highest IoU; failing one at the IoU threshold, the best
    /// untaken box of another bucket, which it takes and is then ignored (neither true nor false);
    /// left unmatched, it is a false positive if it lies in B itself and ignored otherwise. Recall
    /// counts B's boxes only. Ties go to the first box, as for AP50 (pycocotools takes the last).
    public func evaluate(_ input: EvaluationInput) -> EvaluationResult {
        evaluate(index(classNames: input.classNames, images: input.images), detections: input.detections)
    }

    /// The ground truth laid out for scoring: made once, it scores any number of detection sets
    /// (as pycocotools' `createIndex` before `loadRes`).
    public func index(classNames: [String], images: [GroundTruthImage]) -> GroundTruthIndex {
        GroundTruthIndex(classNames: classNames, images: images, sizeBuckets: sizeBuckets)
    }

    /// `evaluate(_:)` with the ground truth already indexed (by this evaluator's size buckets).
    public func evaluate(_ truth: GroundTruthIndex, detections: [Detection]) -> EvaluationResult {
        precondition(truth.sizeBuckets == sizeBuckets, "the ground truth was indexed with other size buckets")
        let input = EvaluationInput(classNames: truth.classNames, images: truth.images, detections: detections)
        let (k, n, imageIndex, starts, maxRows) = (truth.classNames.count, truth.images.count, truth.imageIndex, truth.starts, truth.maxRows)
        let (sized, flat, flatBucket, screenAreas) = (truth.sized, truth.flat, truth.flatBucket, truth.screenAreas)
        // Each detection's image, looked up once (detections usually come grouped by image: the last
        // one is remembered); detections of each class in input order.
        // Read through a pointer, field by field: copying whole detections (with their image id) costs more.
        let count = detections.count
        var perClass = [Int](repeating: 0, count: k)
        var byClass: [[Int]] = []
        var detectionImage = [Int](repeating: -1, count: count), allBoxes = [Box](repeating: Box(xMin: 0, yMin: 0, xMax: 0, yMax: 0), count: count)
        var allScores = [Double](repeating: 0, count: count)
        detections.withUnsafeBufferPointer { dets in
            for i in 0..<count { perClass[dets[i].label] += 1 }
            byClass = perClass.map { [Int](repeating: 0, count: $0) }
            var filled = [Int](repeating: 0, count: k)
            var lastID: String? = nil, lastImage = -1
            for i in 0..<count {
                let label = dets[i].label
                byClass[label].withUnsafeMutableBufferPointer { $0[filled[label]] = i }
                filled[label] += 1
                if dets[i].imageID != lastID { (lastID, lastImage) = (dets[i].imageID, imageIndex[dets[i].imageID] ?? -1) }
                detectionImage[i] = lastImage
                allBoxes[i] = dets[i].box
                allScores[i] = dets[i].score
            }
        }
        // AP50-95's thresholds other than this evaluation's own (whose matching is AP50's), ascending.
        let others = Self.cocoIoUThresholds.filter { $0 != iouThreshold }
        let e = others.count
        let lowest = min(iouThreshold, others[0])
        // Classes are independent: each is scored on its own, on both cores.
        let classes = parallelMap(count: k, workers: ProcessInfo.processInfo.activeProcessorCount) { _, c -> ClassResult in
            // One detection's IoU with each box of its image and class; reused for every detection.
            let ious = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(1, maxRows))
            defer { ious.deallocate() }
            // The class's detections gathered in input order (one pass over the data set, in address
            // order), then visited highest score first, equal scores in input order.
            let members = byClass[c]
            let classBoxes = members.map { allBoxes[$0] }
            let classImages = members.map { detectionImage[$0] }
            let classScores = members.map { allScores[$0] }
            let order = Self.descendingOrder(classScores)
            let g = starts[c][n]
            guard g > 0 else {
                return ClassResult(name: input.classNames[c], gtCount: 0, detections: order.count, ap50: nil, apCenter: nil,
                                   gtCountBySize: sized ? BySize(small: 0, medium: 0, large: 0) : nil, curve: [])
            }
            let boxes = flat[c], buckets = flatBucket[c]
            var gBySize = [0, 0, 0]
            for b in buckets { gBySize[b] += 1 }
            var takenIoU = [Bool](repeating: false, count: g), takenCenter = [Bool](repeating: false, count: g)
            var tpIoU = [Bool](repeating: false, count: order.count), tpCenter = [Bool](repeating: false, count: order.count)
            // Matchings beyond AP50 and AP-center: 0..<e AP50-95's other thresholds, then e + b size bucket b.
            let table = MatchingTable(matchings: e + 3, boxes: g)
            defer { table.deallocate() }
            for (rank, di) in order.enumerated() {
                let img = classImages[di]
                let rows = img >= 0 ? starts[c][img]..<starts[c][img + 1] : 0..<0
                let first = rows.lowerBound
                let d = classBoxes[di]
                // Boxes that reach the lowest threshold in use: usually none or one, which settles every
                // matching below without a search.
                var candidates = 0, candidate = -1
                for j in rows {
                    let iou = d.iou(boxes[j])
                    ious[j - first] = iou
                    if iou >= lowest { candidates += 1; candidate = j }
                }
                // Among untaken boxes, the highest IoU (the first on a tie).
                var best = -1, bestIoU = -1.0
                for j in rows where !takenIoU[j] && ious[j - first] > bestIoU { bestIoU = ious[j - first]; best = j }
                if best >= 0 && bestIoU >= iouThreshold { takenIoU[best] = true; tpIoU[rank] = true }
                // AP-center: an untaken box containing the detection's centre, the highest IoU among them.
                let cx = (Double(d.xMin) + Double(d.xMax)) / 2, cy = (Double(d.yMin) + Double(d.yMax)) / 2
                var bestC = -1, bestCIoU = -1.0
                for j in rows where !takenCenter[j] && boxes[j].contains(x: cx, y: cy) && ious[j - first] > bestCIoU {
                    bestCIoU = ious[j - first]; bestC = j
                }
                if bestC >= 0 { takenCenter[bestC] = true; tpCenter[rank] = true }

                // AP50-95's other thresholds: every detection is a true or a false positive there, so only
                // the true ones are recorded, the rank giving the false ones before them.
                if candidates == 1 {
                    // The one box in reach is the match wherever it reaches the threshold and is still free.
                    let v = ious[candidate - first]
                    var reached = 0
                    while reached < e && others[reached] <= v { reached += 1 }
                    var fresh = table.take(candidate, below: reached)
                    while fresh != 0 {
                        let t = fresh.trailingZeroBitCount
                        fresh &= fresh - 1
                        table.recordTruePositive(t, falsePositivesBefore: rank - table.truePositives[t])
                    }
                } else if candidates > 1 {
                    for t in 0..<e {
                        var m = -1, mIoU = -1.0
                        for j in rows where !table.isTaken(j, t) && ious[j - first] > mIoU { mIoU = ious[j - first]; m = j }
                        if mIoU >= others[t] && table.take(m, t) { table.recordTruePositive(t, falsePositivesBefore: rank - table.truePositives[t]) }
                    }
                }
                guard sized else { continue }
                // Size buckets. A detection on a screen the ground truth lacks is a false positive in every bucket.
                let own = img >= 0 ? sizeBuckets.bucket(share: d.area / screenAreas[img]).rawValue : -1
                for b in 0..<3 where gBySize[b] > 0 {
                    let s = e + b
                    // A box of this bucket first; else one of another bucket, which leaves the detection ignored;
                    // else a false positive in its own bucket, ignored in the others.
                    if candidates == 1 {
                        if ious[candidate - first] >= iouThreshold && table.take(candidate, s) {
                            if buckets[candidate] == b { table.recordTruePositive(s, falsePositivesBefore: table.falsePositives[s]) }
                            continue
                        }
                    } else if candidates > 1 {
                        var m = -1, mIoU = -1.0
                        for j in rows where buckets[j] == b && !table.isTaken(j, s) && ious[j - first] > mIoU { mIoU = ious[j - first]; m = j }
                        if mIoU >= iouThreshold && table.take(m, s) {
                            table.recordTruePositive(s, falsePositivesBefore: table.falsePositives[s])
                            continue
                        }
                        m = -1; mIoU = -1
                        for j in rows where buckets[j] != b && !table.isTaken(j, s) && ious[j - first] > mIoU { mIoU = ious[j - first]; m = j }
                        if mIoU >= iouThreshold && table.take(m, s) { continue }
                    }
                    if own < 0 || own == b { table.falsePositives[s] += 1 }
                }
            }
            let scores = order.map { classScores[$0] }
            let curve = Self.curve(tp: tpIoU, scores: scores, groundTruth: g)
            // AP50 and AP-center from their true positives alone: the same numbers, bit for bit, as from
            // their whole curves (`averagePrecision(falsePositivesBefore:groundTruth:)`), without the arrays.
            func steps(_ tp: [Bool]) -> [Int] {
                var out: [Int] = [], falseBefore = 0
                out.reserveCapacity(g)
                for isTP in tp { if isTP { out.append(falseBefore) } else { falseBefore += 1 } }
                return out
            }
            let centerSteps = steps(tpCenter)
            let ap50 = averagePrecision(falsePositivesBefore: steps(tpIoU), groundTruth: g)
            // AP at each of COCO's thresholds in ascending order, this evaluation's own being AP50.
            var otherAPs = (0..<e).map { averagePrecision(falsePositivesBefore: table.steps($0), groundTruth: g) }.makeIterator()
            let ap50to95 = Self.cocoIoUThresholds.reduce(0.0) { $0 + ($1 == iouThreshold ? ap50 : otherAPs.next()!) } / Double(Self.cocoIoUThresholds.count)
            let apBySize = BySize<Double?> { b in
                sized && gBySize[b.rawValue] > 0 ? averagePrecision(falsePositivesBefore: table.steps(e + b.rawValue), groundTruth: gBySize[b.rawValue]) : nil
            }
            return ClassResult(name: input.classNames[c], gtCount: g, detections: order.count,
                               ap50: ap50, apCenter: averagePrecision(falsePositivesBefore: centerSteps, groundTruth: g), ap50to95: ap50to95,
                               gtCountBySize: sized ? BySize { gBySize[$0.rawValue] } : nil, apBySize: apBySize, curve: curve)
        }
        let scored = classes.filter { $0.ap50 != nil }
        func mean(_ key: KeyPath<ClassResult, Double?>, weighted: Bool) -> Double? {
            guard !scored.isEmpty else { return nil }
            let w = scored.map { weighted ? Double($0.gtCount) : 1 }
            return zip(scored, w).reduce(0) { $0 + $1.0[keyPath: key]! * $1.1 } / w.reduce(0, +)
        }
        let map50BySize = BySize<Double?> { b in
            let values = classes.compactMap { $0.apBySize[b] }
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        return EvaluationResult(iouThreshold: iouThreshold, interpolation: interpolation, images: input.images.count, classes: classes,
                                map50: mean(\.ap50, weighted: false), map50Weighted: mean(\.ap50, weighted: true),
                                mapCenter: mean(\.apCenter, weighted: false), mapCenterWeighted: mean(\.apCenter, weighted: true),
                                map50to95: mean(\.ap50to95, weighted: false), sizeBuckets: sized ? sizeBuckets : nil, map50BySize: map50BySize)
    }

    /// The positions of `scores` from the highest score to the lowest, equal scores in their order:
    /// a stable least-significant-digit radix sort on the scores' bits, 8 bits a pass, skipping
    /// the passes whose digit every key shares (scores in [0, 1] share their top bits). Equal to a
    /// stable comparison sort by descending score, in linear time.
    static func descendingOrder(_ scores: [Double]) -> [Int] {
        let n = scores.count
        guard n > 1 else { return Array(0..<n) }
        // Keys whose ascending order is the scores' descending order (-0 taken as +0: they are equal).
        var keys = scores.map { score -> UInt64 in
            let bits = (score == 0 ? 0.0 : score).bitPattern
            let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
            return ~ascending
        }
        var order = Array(0..<n)
        var keys2 = keys, order2 = order
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: 0, to: 64, by: 8) {
            for j in 0..<256 { counts[j] = 0 }
            for key in keys { counts[Int((key >> UInt64(shift)) & 255)] += 1 }
            if counts.contains(n) { continue }  // one digit for all: this pass changes nothing
            var total = 0
            for j in 0..<256 { (counts[j], total) = (total, total + counts[j]) }
            for (key, item) in zip(keys, order) {
                let d = Int((key >> UInt64(shift)) & 255)
                keys2[counts[d]] = key
                order2[counts[d]] = item
                counts[d] += 1
            }
            swap(&keys, &keys2)
            swap(&order, &order2)
        }
        return order
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
        return interpolated(precision: p, recall: curve.map(\.recall))
    }

    /// AP of a curve given by its true positives in score order (the number of false positives
    /// before each) and `g` ground-truth boxes, under this evaluator's interpolation. Equal, bit for
    /// bit, to `averagePrecision(_:)` of the full curve: recall rises only at true positives, and the
    /// best precision from any point rightwards is reached at one of them, so the other points change nothing.
    func averagePrecision<C: RandomAccessCollection>(falsePositivesBefore steps: C, groundTruth g: Int) -> Double where C.Element == Int {
        let fp = Array(steps)
        guard !fp.isEmpty else { return 0 }
        // Precision at the i-th true positive (i + 1 of them, fp[i] false ones), made non-increasing from the right.
        var p = [Double](repeating: 0, count: fp.count)
        var best = 0.0
        for i in stride(from: fp.count - 1, through: 0, by: -1) {
            best = max(best, Double(i + 1) / Double(i + 1 + fp[i]))
            p[i] = best
        }
        return interpolated(precision: p, recall: (0..<fp.count).map { Double($0 + 1) / Double(g) })
    }

    /// The interpolated AP of precisions `p` (already non-increasing from the right) at non-decreasing recalls `r`.
    private func interpolated(precision p: [Double], recall r: [Double]) -> Double {
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
                if let j = r.firstIndex(where: { $0 >= threshold }) { sum += p[j] }
            }
            return sum / 11
        }
    }
}

/// Scratch memory of one class's extra matchings (AP50-95's other thresholds, the size buckets),
/// raw so that the loop over detections pays no copy-on-write checks. Each matching takes each
/// box at most once, so it has at most `boxes` true positives. Freed by `deallocate()`.
struct MatchingTable {
    let boxes: Int
    /// Per box, bit m set once matching m took it.
    let taken: UnsafeMutableBufferPointer<UInt16>
    /// Matching m's true positives in score order, each as the number of false positives before
    /// it: rows m * boxes ..< m * boxes + truePositives[m].
    let fpBefore: UnsafeMutableBufferPointer<Int>
    let truePositives: UnsafeMutableBufferPointer<Int>
    /// Where a matching counts them itself (size buckets, with their ignored detections).
    let falsePositives: UnsafeMutableBufferPointer<Int>

    init(matchings: Int, boxes: Int) {
        precondition(matchings <= UInt16.bitWidth)
        self.boxes = boxes
        taken = .allocate(capacity: boxes)
        taken.initialize(repeating: 0)
        fpBefore = .allocate(capacity: matchings * boxes)
        truePositives = .allocate(capacity: matchings)
        truePositives.initialize(repeating: 0)
        falsePositives = .allocate(capacity: matchings)
        falsePositives.initialize(repeating: 0)
    }

    @inline(__always) func isTaken(_ box: Int, _ matching: Int) -> Bool { taken[box] & (1 << matching) != 0 }

    /// Takes `box` for `matching`; false if it was taken already.
    @inline(__always) func take(_ box: Int, _ matching: Int) -> Bool {
        guard box >= 0, !isTaken(box, matching) else { return false }
        taken[box] |= 1 << matching
        return true
    }

    /// Takes `box` for matchings 0..<count at once; returns the bits of those that had not taken it.
    @inline(__always) func take(_ box: Int, below count: Int) -> UInt16 {
        let bits = UInt16(truncatingIfNeeded: (1 &<< count) &- 1)
        let fresh = bits & ~taken[box]
        taken[box] |= bits
        return fresh
    }

    @inline(__always) func recordTruePositive(_ matching: Int, falsePositivesBefore fp: Int) {
        // Wrapping arithmetic: the indices are below matchings * boxes by construction.
        fpBefore[matching &* boxes &+ truePositives[matching]] = fp
        truePositives[matching] &+= 1
    }

    /// Matching m's true positives, as `averagePrecision(falsePositivesBefore:groundTruth:)` reads them.
    func steps(_ matching: Int) -> Slice<UnsafeMutableBufferPointer<Int>> {
        fpBefore[(matching * boxes)..<(matching * boxes + truePositives[matching])]
    }

    func deallocate() {
        taken.deallocate()
        fpBefore.deallocate()
        truePositives.deallocate()
        falsePositives.deallocate()
    }
}

/// Ground truth laid out for `Evaluator.evaluate(_:detections:)`: each class's boxes flat and
/// grouped by image, with each box's size bucket.
public struct GroundTruthIndex: Sendable {
    let classNames: [String]
    let images: [GroundTruthImage]
    let sizeBuckets: SizeBuckets
    let imageIndex: [String: Int]
    /// Class c's boxes of image i are rows starts[c][i] ..< starts[c][i + 1] of flat[c].
    let starts: [[Int]]
    let maxRows: Int
    /// Whether every screen's area is known (AP by size needs it).
    let sized: Bool
    let flat: [[Box]]
    /// Each box's size bucket (`SizeBucket.rawValue`); empty unless sized.
    let flatBucket: [[Int]]
    let screenAreas: [Double]

    init(classNames: [String], images: [GroundTruthImage], sizeBuckets: SizeBuckets) {
        let k = classNames.count, n = images.count
        self.classNames = classNames
        self.images = images
        self.sizeBuckets = sizeBuckets
        imageIndex = Dictionary(images.enumerated().map { ($1.imageID, $0) }, uniquingKeysWith: { a, _ in a })
        var starts = [[Int]](repeating: [Int](repeating: 0, count: n + 1), count: k)
        for (i, image) in images.enumerated() { for l in image.labels { starts[l][i + 1] += 1 } }
        var maxRows = 0
        for c in 0..<k { for i in 0..<n { maxRows = max(maxRows, starts[c][i + 1]); starts[c][i + 1] += starts[c][i] } }
        let sized = images.allSatisfy { ($0.screenArea ?? 0) > 0 }
        var flat = (0..<k).map { [Box](repeating: Box(xMin: 0, yMin: 0, xMax: 0, yMax: 0), count: starts[$0][n]) }
        var flatBucket = (0..<k).map { [Int](repeating: 0, count: sized ? starts[$0][n] : 0) }
        let screenAreas = sized ? images.map { $0.screenArea! } : []
        var fill = starts.map { Array($0.dropLast()) }
        for (i, image) in images.enumerated() {
            for (b, l) in zip(image.boxes, image.labels) {
                flat[l][fill[l][i]] = b
                if sized { flatBucket[l][fill[l][i]] = sizeBuckets.bucket(share: b.area / screenAreas[i]).rawValue }
                fill[l][i] += 1
            }
        }
        (self.starts, self.maxRows, self.sized, self.flat, self.flatBucket, self.screenAreas) = (starts, maxRows, sized, flat, flatBucket, screenAreas)
    }
}
