import Boxes
import Engine
import Foundation
import Layers

/// How classes are weighted in the classification loss (ssd-model.md, "Loss").
public enum ClassBalance: Equatable, Sendable {
    /// w_c = (1 - beta) / (1 - beta^n_c).
    case effectiveNumber(beta: Double)
    /// w_c = 1 / n_c.
    case inverseFrequency
    case none
    /// Given weights, one per class, used as they are.
    case explicit([Float])

    /// Weights from per-class box counts: a class without boxes gets 0, and the others are
    /// scaled so that they sum to their number.
    public func weights(counts: [Int]) -> [Float] {
        if case .explicit(let w) = self { return w }
        let raw: [Double] = counts.map { n in
            guard n > 0 else { return 0 }
            switch self {
            case .effectiveNumber(let beta): return (1 - beta) / (1 - pow(beta, Double(n)))
            case .inverseFrequency: return 1 / Double(n)
            default: return 1
            }
        }
        let present = counts.filter { $0 > 0 }.count
        let sum = raw.reduce(0, +)
        return raw.map { sum > 0 ? Float($0 * Double(present) / sum) : 0 }
    }
}

/// One detection of `detect(images:)`, in input pixels.
public struct DetectedBox: Equatable, Sendable {
    public var box: Box
    public var label: Int
    public var score: Float
    public init(box: Box, label: Int, score: Float) {
        self.box = box
        self.label = label
        self.score = score
    }
}

/// The detector: the model with its anchors, target assignment, loss and post-processing.
public final class SSDDetector {
    public let model: SSDModel
    public let anchors: [Box]
    public var classWeights: [Float]
    public var focalAlpha: Float = 0.25
    public var focalGamma: Float = 2
    public var smoothL1Beta: Float = 1.0 / 9
    public var boxLossWeight: Float = 1
    public let coder = BoxCoder()
    public let matcher = Matcher()
    /// Post-processing (ssd-model.md): score floor, candidates per level, NMS IoU, detections per image.
    public var scoreFloor: Float = 0.05
    public var candidatesPerLevel = 1000
    public var nmsIoU = 0.5
    public var maxDetections = 100

    public init(model: SSDModel, classWeights: [Float]) {
        precondition(classWeights.count == model.config.numClasses, "\(classWeights.count) class weights for \(model.config.numClasses) classes")
        self.model = model
        anchors = AnchorGenerator(config: model.config).anchors()
        self.classWeights = classWeights
    }

    /// The parts of a training loss; `total` is what backward runs from.
    public struct Loss {
        public let total: Tensor
        public let classification: Tensor
        public let box: Tensor
        public let positives: Int
    }

    /// Per-anchor training targets of a batch: rows are (image, anchor) pairs.
    public struct AssignedTargets {
        /// Positive anchors' class; -1 for negatives and ignored anchors.
        public var labels: [Int32]
        /// The class weight of a positive, 1 for a negative, 0 for an ignored anchor.
        public var weights: [Float]
        public var positiveRows: [Int]
        /// Encoded box deltas of the positive rows, 4 each.
        public var boxTargets: [Float]
    }

    /// Matches each image's boxes (input pixels) to the anchors and encodes the targets.
    public func assignTargets(_ targets: [(boxes: [Box], labels: [Int32])]) -> AssignedTargets {
        let a = anchors.count
        var t = AssignedTargets(labels: [Int32](repeating: -1, count: targets.count * a), weights: [Float](repeating: 1, count: targets.count * a),
                                positiveRows: [], boxTargets: [])
        for (i, image) in targets.enumerated() {
            for (j, m) in matcher.match(anchors: anchors, boxes: image.boxes).enumerated() {
                let row = i * a + j
                if m >= 0 {
                    let c = Int(image.labels[m])
                    t.labels[row] = Int32(c)
                    t.weights[row] = classWeights[c]
                    t.positiveRows.append(row)
                    let d = coder.encode(image.boxes[m], anchor: anchors[j])
                    t.boxTargets += [d.0, d.1, d.2, d.3]
                } else if m == Matcher.ignored {
                    t.weights[row] = 0
                }
            }
        }
        return t
    }

    /// Training loss for NHWC `images` and each image's boxes and labels (input pixels).
    public func loss(images: Tensor, targets: [(boxes: [Box], labels: [Int32])]) -> Loss {
        precondition(targets.count == images.shape[0], "\(targets.count) targets for \(images.shape[0]) images")
        return loss(images: images, assigned: assignTargets(targets))
    }

    /// Training loss for NHWC `images` with targets already assigned to anchors.
    public func loss(images: Tensor, assigned: AssignedTargets) -> Loss {
        let n = images.shape[0]
        let (logits, deltas) = model.outputs(images: images, mode: .training)
        let a = anchors.count, k = model.config.numClasses
        precondition(assigned.labels.count == n * a, "targets assigned for \(assigned.labels.count / a) images, \(n) given")
        let (labels, weights, positiveRows, boxTargets) = (assigned.labels, assigned.weights, assigned.positiveRows, assigned.boxTargets)
        return Autodiff.section("loss") {
        let normaliser = 1 / Float(max(1, positiveRows.count))
        let classification = logits.reshaped([n * a, k])
            .sigmoidFocalLoss(labels: labels, weights: weights, alpha: focalAlpha, gamma: focalGamma).scaled(by: normaliser)
        let box: Tensor
        if positiveRows.isEmpty {
            box = deltas.reshaped([n * a, 4]).gatheringRows([0]).smoothL1Loss(target: Tensor.zeros([1, 4]), beta: smoothL1Beta).scaled(by: 0)
        } else {
            box = deltas.reshaped([n * a, 4]).gatheringRows(positiveRows)
                .smoothL1Loss(target: Tensor(shape: [positiveRows.count, 4], values: boxTargets), beta: smoothL1Beta).scaled(by: normaliser)
        }
        return Loss(total: classification + box.scaled(by: boxLossWeight), classification: classification, box: box, positives: positiveRows.count)
        }
    }

    /// Detections for NHWC `images` (inference mode, nothing recorded): score floor, the best
    /// candidates per level, decoding, clipping, per-class NMS, the best per image.
    public func detect(images: Tensor) -> [[DetectedBox]] {
        let (logits, deltas) = Autodiff.withoutTape { model.outputs(images: images, mode: .inference) }
        let n = images.shape[0], a = anchors.count, k = model.config.numClasses
        let size = model.config.inputSize
        let c = model.config
        var levelRanges: [Range<Int>] = []
        var start = 0
        for l in c.minLevel...c.maxLevel {
            let count = (c.inputHeight >> l) * (c.inputWidth >> l) * c.anchorsPerLocation
            levelRanges.append(start..<(start + count))
            start += count
        }
        let lp = logits.pointer, dp = deltas.pointer
        return (0..<n).map { i in
            var candidates: [(anchor: Int, label: Int, score: Float)] = []
            for range in levelRanges {
                var level: [(Int, Int, Float)] = []
                for j in range {
                    let row = lp + (i * a + j) * k
                    for cls in 0..<k {
                        let s = stableSigmoid(row[cls])
                        if s > scoreFloor { level.append((j, cls, s)) }
                    }
                }
                level.sort { $0.2 != $1.2 ? $0.2 > $1.2 : ($0.0, $0.1) < ($1.0, $1.1) }
                candidates += level.prefix(candidatesPerLevel).map { (anchor: $0.0, label: $0.1, score: $0.2) }
            }
            var byClass: [Int: [(Box, Float)]] = [:]
            for cand in candidates {
                let d = dp + (i * a + cand.anchor) * 4
                let box = coder.decode((d[0], d[1], d[2], d[3]), anchor: anchors[cand.anchor]).clipped(to: size)
                guard box.isValid else { continue }
                byClass[cand.label, default: []].append((box, cand.score))
            }
            var kept: [DetectedBox] = []
            for (label, items) in byClass.sorted(by: { $0.key < $1.key }) {
                let keep = nonMaxSuppression(items.map(\.0), scores: items.map(\.1), iouThreshold: nmsIoU)
                kept += keep.map { DetectedBox(box: items[$0].0, label: label, score: items[$0].1) }
            }
            kept.sort { $0.score != $1.score ? $0.score > $1.score : $0.label < $1.label }
            return Array(kept.prefix(maxDetections))
        }
    }
}
