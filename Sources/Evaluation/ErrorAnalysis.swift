import Boxes
import Foundation
import Workers

/// What a kept detection or a true box is at the picked thresholds: the error kinds of TIDE
/// (Bolya et al., "TIDE: A General Toolbox for Identifying Object Detection Errors", ECCV 2020),
/// decided on evaluation.md's own matching (README, "Where a detector fails").
public enum ErrorKind: String, CaseIterable, Sendable {
    /// A kept detection that matched a true box of its class (one record for the pair).
    case truePositive = "true_positive"
    /// A false positive near no true box: under 0.1 IoU with every box of its class, under the
    /// evaluation's IoU threshold with every box of another class.
    case background
    /// A false positive on a true box of its class that a higher-scoring detection had already taken.
    case duplicate
    /// A false positive on a true box of another class (IoU at or above the threshold): it named the wrong class.
    case wrongClass = "wrong_class"
    /// A false positive on a box of its class, but at an IoU from 0.1 up to below the threshold.
    case poorLocalization = "poor_localization"
    /// A true box no kept detection of its class matched.
    case missed
}

/// Why a missed true box did not match, tested in this order.
public enum MissReason: String, CaseIterable, Sendable {
    /// A kept detection of its class covered it (IoU at or above the threshold) but took another box.
    case takenByAnother = "taken_by_another"
    /// A kept detection of another class covered it.
    case wrongClass = "wrong_class"
    /// A detection of its class covered it, but scored below the class's threshold.
    case belowThreshold = "below_threshold"
    /// A kept detection of its class overlapped it, at an IoU from 0.1 up to below the threshold.
    case poorLocalization = "poor_localization"
    /// None of the above: the nearest detection (any class and score), if any overlaps it at all.
    case notDetected = "not_detected"
}

/// The box a record relates to: the true box of a detection's record, the detection of a missed box's.
public struct RelatedBox: Equatable, Sendable {
    public var box: Box
    public var label: Int
    /// The detection's score; nil for a true box.
    public var score: Double?
    public var iou: Double

    public init(box: Box, label: Int, score: Double?, iou: Double) {
        self.box = box
        self.label = label
        self.score = score
        self.iou = iou
    }
}

/// One kept detection (or a true positive's pair) or one missed true box.
public struct ErrorRecord: Equatable, Sendable {
    /// Index of the screen in the evaluation's images; -1 for a detection on a screen the ground truth lacks.
    public var image: Int
    public var imageID: String
    /// The detection's box (for a true positive too), or the missed true box.
    public var box: Box
    public var label: Int
    /// The detection's score; nil for a missed box.
    public var score: Double?
    public var kind: ErrorKind
    /// Set for a missed box only.
    public var reason: MissReason?
    /// A true positive's true box; a duplicate's box already taken; a wrong class's true box (naming
    /// the true class); a poor localisation's box of its class; a missed box's detection (nil where none overlaps it).
    public var other: RelatedBox?

    public init(image: Int, imageID: String, box: Box, label: Int, score: Double?, kind: ErrorKind, reason: MissReason? = nil, other: RelatedBox?) {
        self.image = image
        self.imageID = imageID
        self.box = box
        self.label = label
        self.score = score
        self.kind = kind
        self.reason = reason
        self.other = other
    }
}

/// Records of each kind of one class.
public struct ErrorCounts: Equatable, Sendable {
    public var truePositive = 0, background = 0, duplicate = 0, wrongClass = 0, poorLocalization = 0, missed = 0

    public init() {}

    public subscript(kind: ErrorKind) -> Int {
        get {
            switch kind {
            case .truePositive: truePositive
            case .background: background
            case .duplicate: duplicate
            case .wrongClass: wrongClass
            case .poorLocalization: poorLocalization
            case .missed: missed
            }
        }
        set {
            switch kind {
            case .truePositive: truePositive = newValue
            case .background: background = newValue
            case .duplicate: duplicate = newValue
            case .wrongClass: wrongClass = newValue
            case .poorLocalization: poorLocalization = newValue
            case .missed: missed = newValue
            }
        }
    }

    /// Detections kept at the threshold: true positives and every kind of false positive.
    public var keptDetections: Int { truePositive + falsePositives }
    public var falsePositives: Int { background + duplicate + wrongClass + poorLocalization }
}

/// AP50 (a fraction) gained when one kind of error alone is fixed (TIDE's oracles, README "Where a detector fails").
public struct APGains: Equatable, Sendable {
    public var background: Double
    public var wrongClass: Double
    public var poorLocalization: Double
    public var duplicate: Double
    public var missed: Double

    public init(background: Double, wrongClass: Double, poorLocalization: Double, duplicate: Double, missed: Double) {
        self.background = background
        self.wrongClass = wrongClass
        self.poorLocalization = poorLocalization
        self.duplicate = duplicate
        self.missed = missed
    }

    /// The gain of fixing `kind` (nil for true positives: nothing to fix).
    public subscript(kind: ErrorKind) -> Double? {
        switch kind {
        case .truePositive: nil
        case .background: background
        case .wrongClass: wrongClass
        case .poorLocalization: poorLocalization
        case .duplicate: duplicate
        case .missed: missed
        }
    }

    /// The kinds with a gain, in the order tables show them.
    public static let kinds: [ErrorKind] = [.background, .wrongClass, .poorLocalization, .duplicate, .missed]
}

/// One class's errors: the threshold applied, the records of each kind there, and the AP50 each kind costs.
public struct ClassErrors: Equatable, Sendable {
    public var name: String
    /// The picked threshold, or 0.5 where the class has none (the confusion matrix's rule).
    public var threshold: Double
    public var thresholdPicked: Bool
    public var counts: ErrorCounts
    /// nil for a class without ground truth (it has no AP).
    public var gains: APGains?
}

/// Every kept detection and every true box classified at the picked thresholds, and per class the AP50
/// each kind of error costs. Made by `Evaluator.errors(_:picks:)` from the evaluation's own matching.
public struct ErrorAnalysis: Equatable, Sendable {
    /// IoU under which an overlap does not count at all (TIDE's background threshold).
    public static let backgroundIoU = 0.1

    /// By screen in the ground truth's order: its kept detections in input order, then its missed
    /// boxes in its order; detections on screens the ground truth lacks last.
    public var records: [ErrorRecord]
    /// Every class of the vocabulary, in its order.
    public var classes: [ClassErrors]
    /// Per kind, the mean over classes with ground truth of the AP50 with that kind fixed, minus mAP50; nil without any.
    public var meanGains: APGains?
    /// The evaluation's number of screens.
    public var screens: Int
}

extension Evaluator {
    /// Classifies every detection of `input` kept at `picks` (0.5 for a class without a pick) and every
    /// true box, and measures per class what each kind of error costs in AP50.
    ///
    /// The matching is step 2 of evaluation.md at this evaluator's IoU threshold: each class's detections
    /// by score, each taking the untaken box of its class with the highest IoU. Detections kept at a
    /// threshold are a prefix of that order, so a kept detection is a true positive exactly when it is
    /// one on the class's curve, and the counts agree with the picked threshold's precision and recall.
    public func errors(_ input: EvaluationInput, picks: [PickedThreshold?]) -> ErrorAnalysis {
        let matching = ClassMatching(input, iouThreshold: iouThreshold)
        let thresholds = picks.map { $0?.threshold ?? 0.5 }
        let records = matching.records(thresholds: thresholds)
        var counts = [ErrorCounts](repeating: ErrorCounts(), count: input.classNames.count)
        for r in records { counts[r.label][r.kind] += 1 }
        let fixed = matching.fixedAP(self)
        let classes = input.classNames.indices.map { c in
            ClassErrors(name: input.classNames[c], threshold: thresholds[c], thresholdPicked: picks[c] != nil, counts: counts[c],
                        gains: fixed.perClass[c].map { f in
                            APGains(background: f.background - f.base, wrongClass: f.wrongClass - f.base, poorLocalization: f.poorLocalization - f.base,
                                    duplicate: f.duplicate - f.base, missed: f.missed - f.base)
                        })
        }
        return ErrorAnalysis(records: records, classes: classes, meanGains: fixed.meanGains, screens: input.images.count)
    }
}

/// evaluation.md's matching of every class with, for each detection, what it matched or why not,
/// and for each true box the detection that matched it. Boxes are numbered over the data set:
/// screen i's are `boxStart[i] ..< boxStart[i + 1]` in its order.
struct ClassMatching {
    let input: EvaluationInput
    let iouThreshold: Double
    let boxStart: [Int]
    let boxes: [Box]
    let boxLabels: [Int]
    /// Each detection's screen (-1: not in the ground truth), and screen i's detections in input order,
    /// `screenDetections[detectionStart[i] ..< detectionStart[i + 1]]`.
    let detectionImage: [Int]
    let detectionStart: [Int]
    let screenDetections: [Int]
    /// Each class's detections, highest score first, equal scores in input order (evaluation.md's step 1).
    let order: [[Int]]
    /// What each detection is on the whole curve (`ErrorKind`; never `.missed`), the box it relates to (-1 for none).
    let kind: [ErrorKind]
    let related: [Int]
    /// The detection that took each box (-1: none, at any score).
    let matchedBy: [Int]

    init(_ input: EvaluationInput, iouThreshold: Double) {
        self.input = input
        self.iouThreshold = iouThreshold
        let images = input.images, dets = input.detections, k = input.classNames.count
        var boxStart = [0], boxes: [Box] = [], boxLabels: [Int] = []
        for image in images {
            boxes += image.boxes
            boxLabels += image.labels
            boxStart.append(boxes.count)
        }
        let imageIndex = Dictionary(images.enumerated().map { ($1.imageID, $0) }, uniquingKeysWith: { a, _ in a })
        var detectionImage = [Int](repeating: -1, count: dets.count)
        var perScreen = [Int](repeating: 0, count: images.count + 1)
        var lastID: String? = nil, lastImage = -1
        for (d, det) in dets.enumerated() {
            if det.imageID != lastID { (lastID, lastImage) = (det.imageID, imageIndex[det.imageID] ?? -1) }
            detectionImage[d] = lastImage
            if lastImage >= 0 { perScreen[lastImage + 1] += 1 }
        }
        for i in 0..<images.count { perScreen[i + 1] += perScreen[i] }
        var fill = perScreen, screenDetections = [Int](repeating: 0, count: perScreen[images.count])
        for (d, i) in detectionImage.enumerated() where i >= 0 { screenDetections[fill[i]] = d; fill[i] += 1 }
        var members = [[Int]](repeating: [], count: k)
        for (d, det) in dets.enumerated() { members[det.label].append(d) }
        let order = members.map { m in Evaluator.descendingOrder(m.map { dets[$0].score }).map { m[$0] } }
        (self.boxStart, self.boxes, self.boxLabels) = (boxStart, boxes, boxLabels)
        (self.detectionImage, self.detectionStart, self.screenDetections, self.order) = (detectionImage, perScreen, screenDetections, order)

        // Classes are independent: each matched on its own, on both cores.
        let perClass = parallelMap(count: k, workers: ProcessInfo.processInfo.activeProcessorCount) { _, c in
            Self.match(class: c, order: order[c], dets: dets, detectionImage: detectionImage, boxStart: boxStart, boxes: boxes,
                       boxLabels: boxLabels, iouThreshold: iouThreshold)
        }
        var kind = [ErrorKind](repeating: .background, count: dets.count), related = [Int](repeating: -1, count: dets.count)
        var matchedBy = [Int](repeating: -1, count: boxes.count)
        for (c, outcome) in perClass.enumerated() {
            for (rank, d) in order[c].enumerated() {
                (kind[d], related[d]) = (outcome[rank].kind, outcome[rank].box)
                if outcome[rank].kind == .truePositive { matchedBy[outcome[rank].box] = d }
            }
        }
        (self.kind, self.related, self.matchedBy) = (kind, related, matchedBy)
    }

    /// Class `c`'s detections in `order`: a true positive takes the untaken box of its class with the
    /// highest IoU (the first on a tie) when that IoU reaches the threshold; a false positive is, in
    /// TIDE's order, poorly localised (best IoU with its class in [0.1, threshold)), of the wrong class
    /// (IoU >= threshold with a box of another class), a duplicate (IoU >= threshold with a box of its
    /// class, necessarily taken), or background. Each with the box it relates to.
    private static func match(class c: Int, order: [Int], dets: [Detection], detectionImage: [Int], boxStart: [Int], boxes: [Box],
                              boxLabels: [Int], iouThreshold: Double) -> [(kind: ErrorKind, box: Int)] {
        var taken = [Bool](repeating: false, count: boxes.count)
        return order.map { d in
            let img = detectionImage[d]
            guard img >= 0 else { return (.background, -1) }
            let box = dets[d].box
            var free = (box: -1, iou: -1.0), own = (box: -1, iou: -1.0), otherClass = (box: -1, iou: -1.0)
            for j in boxStart[img]..<boxStart[img + 1] {
                let iou = box.iou(boxes[j])
                if boxLabels[j] == c {
                    if iou > own.iou { own = (j, iou) }
                    if iou > free.iou && !taken[j] { free = (j, iou) }
                } else if iou > otherClass.iou {
                    otherClass = (j, iou)
                }
            }
            if free.box >= 0 && free.iou >= iouThreshold {
                taken[free.box] = true
                return (.truePositive, free.box)
            }
            if own.iou >= ErrorAnalysis.backgroundIoU && own.iou < iouThreshold { return (.poorLocalization, own.box) }
            if otherClass.iou >= iouThreshold { return (.wrongClass, otherClass.box) }
            if own.iou >= iouThreshold { return (.duplicate, own.box) }
            return (.background, -1)
        }
    }

    /// The records at `thresholds` (one per class): see `ErrorAnalysis.records`.
    func records(thresholds: [Double]) -> [ErrorRecord] {
        let dets = input.detections, images = input.images
        func kept(_ d: Int) -> Bool { dets[d].score >= thresholds[dets[d].label] }
        func truth(_ j: Int, for box: Box) -> RelatedBox { RelatedBox(box: boxes[j], label: boxLabels[j], score: nil, iou: box.iou(boxes[j])) }
        func detection(_ d: Int, iou: Double) -> RelatedBox { RelatedBox(box: dets[d].box, label: dets[d].label, score: dets[d].score, iou: iou) }
        var out: [ErrorRecord] = []
        for (i, image) in images.enumerated() {
            let onScreen = screenDetections[detectionStart[i]..<detectionStart[i + 1]]
            for d in onScreen where kept(d) {
                let det = dets[d]
                out.append(ErrorRecord(image: i, imageID: image.imageID, box: det.box, label: det.label, score: det.score, kind: kind[d],
                                       other: related[d] >= 0 ? truth(related[d], for: det.box) : nil))
            }
            for j in boxStart[i]..<boxStart[i + 1] {
                let c = boxLabels[j], box = boxes[j]
                if matchedBy[j] >= 0 && kept(matchedBy[j]) { continue }
                // The best candidate for each reason, by IoU (the first in input order on a tie).
                var taken = (d: -1, iou: -1.0), wrong = (d: -1, iou: -1.0), below = (d: -1, iou: -1.0)
                var loose = (d: -1, iou: -1.0), nearest = (d: -1, iou: 0.0)
                for d in onScreen {
                    let iou = box.iou(dets[d].box)
                    if iou > nearest.iou { nearest = (d, iou) }
                    let same = dets[d].label == c, isKept = kept(d)
                    if iou >= iouThreshold {
                        if same && isKept && iou > taken.iou { taken = (d, iou) }
                        if !same && isKept && iou > wrong.iou { wrong = (d, iou) }
                        if same && !isKept && iou > below.iou { below = (d, iou) }
                    } else if same && isKept && iou >= ErrorAnalysis.backgroundIoU && iou > loose.iou {
                        loose = (d, iou)
                    }
                }
                // A box matched on the curve below the threshold names the detection that matched it.
                if matchedBy[j] >= 0 { below = (matchedBy[j], box.iou(dets[matchedBy[j]].box)) }
                let (reason, d, iou): (MissReason, Int, Double) =
                    taken.d >= 0 ? (.takenByAnother, taken.d, taken.iou) : wrong.d >= 0 ? (.wrongClass, wrong.d, wrong.iou)
                    : below.d >= 0 ? (.belowThreshold, below.d, below.iou) : loose.d >= 0 ? (.poorLocalization, loose.d, loose.iou)
                    : (.notDetected, nearest.d, nearest.iou)
                out.append(ErrorRecord(image: i, imageID: image.imageID, box: box, label: c, score: nil, kind: .missed, reason: reason,
                                       other: d >= 0 ? detection(d, iou: iou) : nil))
            }
        }
        for (d, det) in dets.enumerated() where detectionImage[d] < 0 && kept(d) {
            out.append(ErrorRecord(image: -1, imageID: det.imageID, box: det.box, label: det.label, score: det.score, kind: .background, other: nil))
        }
        return out
    }
}
