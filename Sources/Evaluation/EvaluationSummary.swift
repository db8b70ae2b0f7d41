import Foundation

/// Everything one evaluation computes: the metrics, a threshold per class, the confusion matrix at those
/// thresholds, and (when asked) what every kept detection and true box is there.
///
/// `EvaluationFiles.write` stores it as evaluation.md's files; the Reports module renders it for a person.
public struct EvaluationSummary: Equatable, Sendable {
    public var result: EvaluationResult
    /// How `picks` were made.
    public var strategy: ThresholdStrategy
    /// One per class in vocabulary order; nil for a class without ground truth or where no point qualifies.
    public var picks: [PickedThreshold?]
    /// Counted at the picked thresholds (0.5 where there is none).
    public var confusion: ConfusionMatrix
    /// What was scored, where the caller says (`uidetect evaluate`, a training run's validation).
    public var source: EvaluationSource?
    /// Every kept detection and true box classified at `picks`, with what each kind of error costs;
    /// nil where the caller did not ask (`Evaluator.errors(_:picks:)`).
    public var errors: ErrorAnalysis?

    /// A summary of parts computed elsewhere.
    public init(result: EvaluationResult, strategy: ThresholdStrategy, picks: [PickedThreshold?], confusion: ConfusionMatrix,
                source: EvaluationSource? = nil, errors: ErrorAnalysis? = nil) {
        self.result = result
        self.errors = errors
        self.source = source
        self.strategy = strategy
        self.picks = picks
        self.confusion = confusion
    }
}

extension Evaluator {
    /// Evaluates `input`, picks each class's threshold by `strategy`, and counts the confusion matrix at those thresholds.
    /// Its `errors` are left nil: `errors(_:picks:)` makes them from `picks`.
    public func summarize(_ input: EvaluationInput, strategy: ThresholdStrategy = .maxF1, source: EvaluationSource? = nil) -> EvaluationSummary {
        let result = evaluate(input)
        let picks = result.classes.map { ThresholdPicker.pick($0.curve, groundTruth: $0.gtCount, strategy: strategy) }
        let confusion = ConfusionMatrix(input, thresholds: picks.map { $0?.threshold }, iouThreshold: iouThreshold)
        return EvaluationSummary(result: result, strategy: strategy, picks: picks, confusion: confusion, source: source)
    }
}
