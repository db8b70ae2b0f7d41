import FileKeys
import Foundation

/// What an evaluation scored: the ground truth's shards and where the detections came from
/// (a file, or a detector's weights). Written into metrics.json as `source` and shown at the top
/// of the report, so that a figure can be traced to its data and model.
public struct EvaluationSource: Codable, Equatable, Sendable {
    /// The ground-truth shard files, as resolved from the command line (globs and folders expanded).
    public var data: [String]
    /// Ground-truth boxes over all screens (after a class map, if any).
    public var groundTruthBoxes: Int
    /// The detections file scored; nil where a detector ran.
    @Nullable public var detections: String?
    /// The checkpoint as the user named it (weights file, checkpoint folder or run folder); nil for a detections file.
    @Nullable public var checkpoint: String?
    /// The weights file it resolved to.
    @Nullable public var weights: String?
    /// The training step the weights were saved at, where the file says.
    @Nullable public var step: Int?
    /// Which weights these are, as the checkpoint's metadata says ("raw", or the moving average and its decay).
    @Nullable public var weightsKind: String?
    /// The class map applied, if any.
    @Nullable public var classMap: String?

    public init(data: [String], groundTruthBoxes: Int, detections: String? = nil, checkpoint: String? = nil, weights: String? = nil,
                step: Int? = nil, weightsKind: String? = nil, classMap: String? = nil) {
        self.data = data
        self.groundTruthBoxes = groundTruthBoxes
        self.detections = detections
        self.checkpoint = checkpoint
        self.weights = weights
        self.step = step
        self.weightsKind = weightsKind
        self.classMap = classMap
    }

    enum CodingKeys: String, CodingKey {
        case data, groundTruthBoxes = "ground_truth_boxes", detections, checkpoint, weights, step, weightsKind = "weights_kind"
        case classMap = "class_map"
    }
}
