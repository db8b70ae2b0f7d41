import ConfigFiles
import Foundation
import Glyphs
import IconRecognition
import IconVocabulary

/// Everything an icon-classifier run needs (`uidetect train-icon-classifier --config FILE`), with
/// the run conventions of a detector's run config: YAML laid over these defaults, every default
/// here, unknown keys and impossible values refused naming the dotted key.
public struct IconRunConfig: Codable, Equatable, Sendable {
    public var name = "icon-classifier"
    public var seed: UInt64 = 0
    /// Engine threads; 0 means one per core.
    public var threads = 0
    public var batchSize = 128
    public var steps = 6000
    /// Validate every this many steps (and at the end).
    public var evalInterval = 1000
    public var checkpointInterval = 500
    public var logInterval = 50
    public var data = IconDataConfig()
    public var model = IconModelConfig()
    /// How the training crops vary (sizes, backgrounds, containers, neighbours, degradation).
    public var samples = IconSamples.Options()
    public var optimizer: OptimizerConfig = {
        var o = OptimizerConfig()
        (o.name, o.learningRate, o.weightDecay) = (.adamw, 0.003, 1e-4)
        return o
    }()
    public var schedule: ScheduleConfig = {
        var s = ScheduleConfig()
        s.warmupSteps = 200
        return s
    }()
    /// The moving average of the weights, validated and written in their place when enabled.
    /// A shorter memory than a detector's (1,000-step warm-up, decay 0.9995): the classifier's runs
    /// are a few thousand steps, and the cosine schedule has already cooled the last ones.
    public var ema: EMAConfig = {
        var e = EMAConfig()
        (e.decay, e.warmupSteps) = (0.9995, 1000)
        return e
    }()
    /// PyTorch's `label_smoothing` of the cross-entropy.
    public var labelSmoothing: Float = 0.1
    /// The label precision the threshold keeps on the validation icons (the spec: 95%).
    public var targetPrecision = 0.95
    /// The one-sided confidence with which it keeps it (`IconEvaluation.threshold`): the precision's
    /// Wilson lower bound must reach the target, so that the validation set's noise does not pick
    /// the threshold. 0.5: the share itself.
    public var thresholdConfidence = 0.95
    /// Rank types with training's prior of `other` divided out (`IconClassifier.otherWeight`):
    /// `other_share` then sets how often `other` is seen, not how readily it wins.
    public var balanceOther = true

    public init() {}

    enum CodingKeys: String, CodingKey {
        case name, seed, threads, steps, data, model, samples, optimizer, schedule, ema
        case batchSize = "batch_size", evalInterval = "eval_interval", checkpointInterval = "checkpoint_interval", logInterval = "log_interval"
        case labelSmoothing = "label_smoothing", targetPrecision = "target_precision", thresholdConfidence = "threshold_confidence", balanceOther = "balance_other"
    }

    /// Impossible values, each naming its dotted key.
    public func problems() -> [(key: String, problem: String)] {
        var out: [(String, String)] = []
        if let problem = RunConfig.nameProblem(name) { out.append(("name", problem)) }
        if !(1...4096).contains(batchSize) { out.append(("batch_size", "must lie in 1...4096, got \(batchSize)")) }
        if !(1...100_000_000).contains(steps) { out.append(("steps", "must lie in 1...100000000, got \(steps)")) }
        if !(0...1024).contains(threads) { out.append(("threads", "must be 0 (one per core) to 1024, got \(threads)")) }
        if evalInterval < 0 { out.append(("eval_interval", "must be 0 or more, got \(evalInterval)")) }
        if checkpointInterval < 1 { out.append(("checkpoint_interval", "must be at least 1, got \(checkpointInterval)")) }
        if logInterval < 1 { out.append(("log_interval", "must be at least 1, got \(logInterval)")) }
        if !(0...1).contains(labelSmoothing) { out.append(("label_smoothing", "must lie in [0, 1], got \(labelSmoothing)")) }
        if !(targetPrecision > 0 && targetPrecision <= 1) { out.append(("target_precision", "must lie in (0, 1], got \(targetPrecision)")) }
        if !(thresholdConfidence >= 0.5 && thresholdConfidence < 1) { out.append(("threshold_confidence", "must lie in [0.5, 1), got \(thresholdConfidence)")) }
        out += data.problems().map { ("data." + $0.0, $0.1) }
        out += model.problems().map { ("model." + $0.0, $0.1) }
        out += samples.problems().map { ("samples." + $0.key, $0.problem) }
        out += optimizer.problems().map { ("optimizer." + $0.0, $0.1) }
        out += schedule.problems(steps: steps).map { ("schedule." + $0.0, $0.1) }
        out += ema.problems().map { ("ema." + $0.key, $0.problem) }
        return out
    }
}

/// Which glyphs train and which validate.
public struct IconDataConfig: Codable, Equatable, Sendable {
    /// The families trained on (and validated on, with glyphs held out of training).
    public var families = GlyphFamily.allCases.map(\.rawValue)
    /// Families never trained on, validated on in full: how well the classifier carries over to
    /// icons unlike any it saw (the transfer the spec asks to measure). Empty: none.
    public var heldOutFamilies: [String] = []
    /// The share of each type's glyphs (of the training families) kept for validation: enough
    /// designs to pick the threshold on (347 glyphs), few enough to leave the rest to training.
    public var validationGlyphs = 0.08
    /// Validation crops rendered once (and the held-out families' as many again).
    public var validationSamples = 3000
    /// Threads rendering training crops beside the training thread.
    public var workers = 1

    public init() {}

    enum CodingKeys: String, CodingKey {
        case families, workers
        case heldOutFamilies = "held_out_families", validationGlyphs = "validation_glyphs", validationSamples = "validation_samples"
    }

    func problems() -> [(String, String)] {
        var out: [(String, String)] = []
        let known = GlyphFamily.allCases.map(\.rawValue)
        for (key, list) in [("families", families), ("held_out_families", heldOutFamilies)] {
            if let bad = list.first(where: { !known.contains($0) }) { out.append((key, "'\(bad)' is no icon family; families are \(known.joined(separator: ", "))")) }
        }
        if families.isEmpty { out.append(("families", "needs at least one family to train on")) }
        if let both = families.first(where: heldOutFamilies.contains) { out.append(("held_out_families", "'\(both)' is also trained on (families)")) }
        if !(validationGlyphs > 0 && validationGlyphs < 1) { out.append(("validation_glyphs", "must lie in (0, 1), got \(validationGlyphs)")) }
        if !(100...1_000_000).contains(validationSamples) { out.append(("validation_samples", "must lie in 100...1000000, got \(validationSamples)")) }
        if !(1...64).contains(workers) { out.append(("workers", "must lie in 1...64, got \(workers)")) }
        return out
    }
}

/// The classifier's network (`IconNet`).
public struct IconModelConfig: Codable, Equatable, Sendable {
    public var inputSide = IconNet.Config.defaultInputSide
    public var width = IconNet.Config.defaultWidth

    public init() {}

    /// The network of this shape that names every type of the vocabulary.
    public var network: IconNet.Config { IconNet.Config(inputSide: inputSide, width: width, classes: IconVocabulary.types.count) }

    enum CodingKeys: String, CodingKey { case inputSide = "input_side", width }

    func problems() -> [(String, String)] {
        var out: [(String, String)] = []
        if !(inputSide >= 16 && inputSide <= 128 && inputSide % 8 == 0) { out.append(("input_side", "must be a multiple of 8 in 16...128, got \(inputSide)")) }
        if !(4...256).contains(width) { out.append(("width", "must lie in 4...256, got \(width)")) }
        return out
    }
}

/// Icon-classifier configs read strictly (`StrictConfig`), as run configs are.
public enum IconConfigLoader {
    static let strict = StrictConfig(defaults: IconRunConfig(), choices: [
        "optimizer.name": OptimizerConfig.Kind.allCases.map(\.rawValue),
        "schedule.name": ScheduleConfig.Kind.allCases.map(\.rawValue),
    ]) { $0.problems() }

    public static func load(_ url: URL?, overrides: [String] = []) throws -> IconRunConfig { try strict.load(url, overrides: overrides) }
    public static func load(yaml: String, source: String, overrides: [String] = []) throws -> IconRunConfig {
        try strict.load(yaml: yaml, source: source, overrides: overrides)
    }
    public static func yaml(_ config: IconRunConfig) throws -> String { try StrictConfig<IconRunConfig>.yaml(config) }
}
