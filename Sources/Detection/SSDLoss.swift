import Boxes
import Engine
import Foundation
import Layers

/// Per-anchor training targets of a batch: rows are (image, anchor) pairs.
public struct AssignedTargets: Sendable {
    /// Positive anchors' class; -1 for negatives and ignored anchors.
    public var labels: [Int32]
    /// The class weight of a positive, 1 for a negative, 0 for an ignored anchor.
    public var weights: [Float]
    public var positiveRows: [Int]
    /// Encoded box deltas of the positive rows, 4 each.
    public var boxTargets: [Float]
    /// Images the targets were assigned for.
    public var images: Int
}

/// Each image's boxes (input pixels) with their labels, as a detector learns them.
public typealias ImageTargets = (boxes: [Box], labels: [Int32])

/// Matches ground-truth boxes to a model's anchors and encodes the training targets
/// (ssd-model.md, "Matching" and "Box coding").
public struct TargetAssigner: Sendable {
    public let anchors: [Box]
    /// `anchors` laid out for the matcher.
    public let anchorTable: AnchorTable
    public let classWeights: [Float]
    public let matcher = Matcher()
    public let coder = BoxCoder()

    public init(config: SSDConfig, classWeights: [Float]) {
        precondition(classWeights.count == config.numClasses, "\(classWeights.count) class weights for \(config.numClasses) classes")
        anchors = AnchorGenerator(config: config).anchors()
        anchorTable = AnchorTable(anchors)
        self.classWeights = classWeights
    }

    /// The targets of a batch: each image's boxes matched to the anchors.
    public func assign(_ targets: [ImageTargets]) -> AssignedTargets {
        let a = anchors.count
        var t = AssignedTargets(labels: [Int32](repeating: -1, count: targets.count * a), weights: [Float](repeating: 1, count: targets.count * a),
                                positiveRows: [], boxTargets: [], images: targets.count)
        for (i, image) in targets.enumerated() {
            for (j, m) in matcher.match(anchors: anchorTable, boxes: image.boxes).enumerated() {
                let row = i * a + j
                if m >= 0 {
                    let c = Int(image.labels[m])
                    t.labels[row] = Int32(c)
                    t.weights[row] = classWeights[c]
                    t.positiveRows.append(row)
                    let d = coder.encode(image.boxes[m], anchor: anchors[j])
                    t.boxTargets.append(d.0); t.boxTargets.append(d.1); t.boxTargets.append(d.2); t.boxTargets.append(d.3)
                } else if m == Matcher.ignored {
                    t.weights[row] = 0
                }
            }
        }
        return t
    }
}

/// The training loss of ssd-model.md on a model's outputs: class-balanced sigmoid focal loss over
/// every assigned anchor and smooth L1 over the positives, each divided by the batch's positives.
public struct SSDLoss {
    public let model: SSDModel
    public let config: LossConfig
    public let assigner: TargetAssigner
    /// Module paths kept fixed (`freeze`): their batch norm runs on its running statistics.
    public var frozen: [String] = []

    /// `classWeights`: one per class, usually `config.balance.weights(counts:)` of the training boxes.
    public init(model: SSDModel, config: LossConfig, classWeights: [Float]) {
        self.model = model
        self.config = config
        assigner = TargetAssigner(config: model.config, classWeights: classWeights)
    }

    /// The parts of a training loss; `total` is what backward runs from.
    public struct Value {
        public let total: Tensor
        public let classification: Tensor
        public let box: Tensor
        public let positives: Int
    }

    /// The loss for NHWC `images` and each image's boxes and labels (input pixels).
    public func callAsFunction(images: Tensor, targets: [ImageTargets]) -> Value {
        precondition(targets.count == images.shape[0], "\(targets.count) targets for \(images.shape[0]) images")
        return callAsFunction(images: images, assigned: assigner.assign(targets))
    }

    /// The loss for NHWC `images` with targets already assigned to anchors (training-mode batch
    /// norm). `positives`: the positive anchors of the whole batch the sums are divided by, when
    /// this is one process's slice of it (data-parallel runs); by default the batch's own.
    public func callAsFunction(images: Tensor, assigned: AssignedTargets, positives: Int? = nil) -> Value {
        let (logits, deltas) = model.outputs(images: images, mode: .training, frozen: frozen)
        return value(logits: logits, deltas: deltas, assigned: assigned, positives: positives)
    }

    /// The loss of outputs the model already computed (validation reuses its forward pass).
    public func value(logits: Tensor, deltas: Tensor, assigned: AssignedTargets, positives: Int? = nil) -> Value {
        let n = logits.shape[0]
        let a = assigner.anchors.count, k = model.config.numClasses
        precondition(assigned.images == n, "targets assigned for \(assigned.images) images, \(n) given")
        return Autodiff.section("loss") {
            let normaliser = 1 / Float(max(1, positives ?? assigned.positiveRows.count))
            let classification = logits.reshaped([n * a, k])
                .sigmoidFocalLoss(labels: assigned.labels, weights: assigned.weights, alpha: config.focalAlpha, gamma: config.focalGamma)
                .scaled(by: normaliser)
            let rows = deltas.reshaped([n * a, 4])
            let box: Tensor
            if assigned.positiveRows.isEmpty {
                // Keeps the box head in the graph (a zero gradient) when a batch has no positives.
                box = rows.gatheringRows([0]).smoothL1Loss(target: Tensor.zeros([1, 4]), beta: config.smoothL1Beta).scaled(by: 0)
            } else {
                box = rows.gatheringRows(assigned.positiveRows)
                    .smoothL1Loss(target: Tensor(shape: [assigned.positiveRows.count, 4], values: assigned.boxTargets), beta: config.smoothL1Beta)
                    .scaled(by: normaliser)
            }
            return Value(total: classification + box.scaled(by: config.boxLossWeight), classification: classification, box: box,
                         positives: assigned.positiveRows.count)
        }
    }
}
