import Boxes
import Detection
import Evaluation
import Foundation
import Images
import Logging

/// Something that acts around the training loop (detectron2's hooks): validation, metrics and
/// logs, checkpoints, the run page, TensorBoard, progress. Hooks run in the order of
/// `TrainingHooks` (stated there, once); they see the run through `TrainingContext`, read only,
/// and hand what they measured to the hooks after them in the step's `StepRecord`.
public protocol TrainingHook: AnyObject {
    /// Once, before the first step of this session.
    func beforeTraining(_ run: TrainingContext) throws
    /// After each step's optimizer update.
    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws
    /// Once, when the session ends at the last step, early, or interrupted.
    func afterTraining(_ run: TrainingContext, interrupted: Bool) throws
}

extension TrainingHook {
    public func beforeTraining(_ run: TrainingContext) throws {}
    public func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {}
    public func afterTraining(_ run: TrainingContext, interrupted: Bool) throws {}
}

/// What a hook sees of the run: its setup (model, data, optimizer), folder, logger and state.
public struct TrainingContext {
    public let setup: TrainingSetup
    public let folder: RunFolder
    public let logger: Logger
    /// The run's state after the current step was folded in (before it, for the measuring hooks).
    public let state: TrainingState
    public var config: RunConfig { setup.config }
}

/// One step's outcome as the hooks hand it on: the losses, then what each hook adds.
public struct StepRecord {
    public let step: Int
    public let loss, classification, box: Float
    public let learningRate: Float
    /// Screens in the step's batch.
    public let images: Int
    /// The validation of this step, by the validation hook.
    public var validation: ValidationResult?
    /// What the step changed in the run's state (best, patience, the metrics window), by the trainer.
    public var fold = TrainingState.Fold()
    /// The `metrics.csv` row this step wrote, if it wrote one, by the metrics hook.
    public var metricsRow: MetricsLog.Row?

    public init(step: Int, loss: Float, classification: Float, box: Float, learningRate: Float, images: Int) {
        (self.step, self.loss, self.classification, self.box, self.learningRate, self.images) = (step, loss, classification, box, learningRate, images)
    }
}

/// One validation: its evaluation, headline figures and loss, and a few screens to look at.
public struct ValidationResult {
    public var summary: EvaluationSummary
    public var scores: ValidationScores
    /// The first validation screens with their true and detected boxes (stored pixels).
    public var screens: [ValidationScreen]
    /// Seconds the validation took (not training time).
    public var seconds: Double
    /// With an EMA, the validation mAP50 of the raw weights beside the average's.
    public var rawWeightsMAP50: Double?
}

/// A validation's headline figures (mAP as fractions) and its loss.
public struct ValidationScores: Sendable {
    public var map50: Double?
    public var mapCenter: Double?
    public var loss: Double
    public var classificationLoss: Double
    public var boxLoss: Double
}

/// One validation screen as a person looks at it: the image, its true boxes and what was detected.
public struct ValidationScreen {
    public var imageID: String
    public var image: RGBImage
    public var truth: [(box: Box, label: Int)]
    public var detections: [DetectedBox]
}

/// A run's progress after a step, for a progress line.
public struct StepReport: Sendable {
    public var step: Int
    public var steps: Int
    public var loss: Float
    public var classificationLoss: Float
    public var boxLoss: Float
    public var learningRate: Float
    /// Over the steps since the previous report.
    public var imagesPerSecond: Double
    /// At this session's pace so far, validations left out.
    public var secondsLeft: Double
}

/// `seconds` as h:mm:ss or m:ss, the one way progress lines and logs show a time; "-" for a time
/// that is not one (infinite, negative or absurd, as a rate of nearly zero gives).
public func clockText(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return "-" }
    let s = Int(seconds.rounded())
    return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
}

/// How a session ended.
public struct TrainingOutcome {
    public var step: Int
    public var interrupted: Bool
    public var bestScore: Double?
    public var bestStep: Int?
    public var folder: URL
}

/// The hooks of a run in their order, stated here and nowhere else. After each step's optimizer
/// update:
/// 1. `measuring`, which look at the step: the moving average of the weights moves (so that
///    validation sees this step's average), then validation (every `eval_interval` steps and at
///    the end) evaluates the evaluated weights;
/// 2. the trainer folds the step into the run's state (`TrainingState.fold`: best so far,
///    patience, the metrics window);
/// 3. `recording`, which record it: a `metrics.csv` row and log line, then a checkpoint (which
///    must hold the folded state), the run page (which draws the row just written), TensorBoard
///    (the same row and validation), and progress for the terminal.
public struct TrainingHooks {
    public var measuring: [TrainingHook]
    public var recording: [TrainingHook]

    /// Every hook of a run's primary process (rank 0, or the only one); `Trainer.run` adds progress last.
    public static func standard() -> TrainingHooks {
        TrainingHooks(measuring: [EMAHook(), ValidationHook()], recording: [MetricsHook(), CheckpointHook(), RunPageHook(), TensorBoardHook()])
    }

    /// No hooks: the other ranks of a data-parallel run write nothing.
    public static var none: TrainingHooks { TrainingHooks(measuring: [], recording: []) }

    var all: [TrainingHook] { measuring + recording }
}
