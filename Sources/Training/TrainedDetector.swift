import Detection
import Evaluation
import Foundation

/// A trained detector as a user names it (a weights file, a checkpoint folder or a run folder),
/// loaded: its files, the network, its vocabulary, and the step and weights its file records.
public struct TrainedDetector {
    /// The path as the user gave it.
    public let path: String
    public let files: ModelFiles
    public let model: SSDModel
    public let classNames: [String]
    /// The training step the weights were saved at, where the file says.
    public let step: Int?
    /// Which weights these are ("raw", or the moving average and its decay), where the file says.
    public let weightsKind: String?

    public init(_ path: String) throws {
        self.path = path
        files = try ModelFiles(resolving: path)
        (model, classNames, step) = try DetectorWeights.read(files.detector)
        weightsKind = try DetectorWeights.weightsKind(files.detector)
    }

    public var detector: SSDDetector { SSDDetector(model: model) }

    /// `source` (an evaluation's) completed with this checkpoint.
    public func source(_ source: EvaluationSource) -> EvaluationSource {
        var s = source
        (s.checkpoint, s.weights, s.step, s.weightsKind) = (path, files.detector.path, step, weightsKind)
        return s
    }

    /// "weights.safetensors (step 400)", for titles and logs.
    public var title: String { files.detector.path + (step.map { " (step \($0))" } ?? "") }
}
