import Detection
import Foundation
import Shards

/// Everything a training run needs, as written in a run config (YAML, snake_case keys).
/// Every default lives here, in the property initialisers; a config file only says what differs.
public struct RunConfig: Codable, Equatable, Sendable {
    /// The run's folder name under `Experiments/` unless `--name` says otherwise.
    public var name = "run"
    public var seed: UInt64 = 0
    /// Engine threads; 0 means one per core.
    public var threads = 0
    public var data = DataConfig()
    public var model = SSDConfig()
    public var loss = LossConfig()
    public var augmentation = AugmentationOptions()
    public var optimizer = OptimizerConfig()
    public var schedule = ScheduleConfig()
    public var batchSize = 8
    /// Optimizer steps of the whole run.
    public var steps = 10_000
    /// Validate every this many steps (and at the end); 0 validates only at the end.
    public var evalInterval = 1_000
    /// Write `checkpoints/last` every this many steps (and at the end).
    public var checkpointInterval = 500
    /// Write a metrics.csv row and a log line every this many steps.
    public var logInterval = 20
    /// Start from these weights (a weights file, a checkpoint folder, or a run folder meaning its
    /// best) instead of a fresh initialisation; null for a fresh one.
    public var initFrom: String? = nil
    /// Parts of the model kept fixed: `backbone`, `fpn`, `class_head`, `box_head`, or any module
    /// path such as `backbone.b1`. No gradient, no weight decay, no optimizer state; batch norm
    /// there runs on its running statistics.
    public var freeze: [String] = []
    /// An exponential moving average of the weights, for validation and `best`.
    public var ema = EMAConfig()
    /// Stop after this many validations without a better mAP50; null never stops early.
    public var patience: Int? = nil
    /// Data-parallel runs under `mpirun` (ignored in a single process).
    public var distributed = DistributedConfig()

    public init() {}

    enum CodingKeys: String, CodingKey {
        case name, seed, threads, data, model, loss, augmentation, optimizer, schedule, steps, freeze, ema, patience, distributed
        case batchSize = "batch_size", evalInterval = "eval_interval", checkpointInterval = "checkpoint_interval", logInterval = "log_interval"
        case initFrom = "init_from"
    }

    // Written out so that the resolved config shows `init_from: null` and `patience: null`
    // (a key the defaults lack could not be set by a config file).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(seed, forKey: .seed)
        try c.encode(threads, forKey: .threads)
        try c.encode(data, forKey: .data)
        try c.encode(model, forKey: .model)
        try c.encode(loss, forKey: .loss)
        try c.encode(augmentation, forKey: .augmentation)
        try c.encode(optimizer, forKey: .optimizer)
        try c.encode(schedule, forKey: .schedule)
        try c.encode(batchSize, forKey: .batchSize)
        try c.encode(steps, forKey: .steps)
        try c.encode(evalInterval, forKey: .evalInterval)
        try c.encode(checkpointInterval, forKey: .checkpointInterval)
        try c.encode(logInterval, forKey: .logInterval)
        try c.encode(initFrom, forKey: .initFrom)
        try c.encode(freeze, forKey: .freeze)
        try c.encode(ema, forKey: .ema)
        try c.encode(patience, forKey: .patience)
        try c.encode(distributed, forKey: .distributed)
    }

    /// Impossible values, each naming its dotted key.
    public func problems() -> [(key: String, problem: String)] {
        var out: [(String, String)] = model.problems().map { ("model." + $0.key, $0.problem) }
        if let problem = Self.nameProblem(name) { out.append(("name", problem)) }
        if !(1...4096).contains(batchSize) { out.append(("batch_size", "must lie in 1...4096, got \(batchSize)")) }
        if !(1...100_000_000).contains(steps) { out.append(("steps", "must lie in 1...100000000, got \(steps)")) }
        if threads > 1024 { out.append(("threads", "must be at most 1024, got \(threads)")) }
        if data.workers > 64 { out.append(("data.workers", "must be at most 64, got \(data.workers)")) }
        if evalInterval < 0 { out.append(("eval_interval", "must be 0 or more, got \(evalInterval)")) }
        if checkpointInterval < 1 { out.append(("checkpoint_interval", "must be at least 1, got \(checkpointInterval)")) }
        if logInterval < 1 { out.append(("log_interval", "must be at least 1, got \(logInterval)")) }
        if threads < 0 { out.append(("threads", "must be 0 (one per core) or more, got \(threads)")) }
        if data.train.isEmpty { out.append(("data.train", "needs at least one shard, folder or glob")) }
        if data.workers < 1 { out.append(("data.workers", "must be at least 1, got \(data.workers)")) }
        if let limit = data.valLimit, limit < 1 { out.append(("data.val_limit", "must be at least 1 (or null for all), got \(limit)")) }
        out += loss.problems(classes: model.numClasses).map { ("loss." + $0.0, $0.1) }
        out += optimizer.problems().map { ("optimizer." + $0.0, $0.1) }
        out += schedule.problems(steps: steps).map { ("schedule." + $0.0, $0.1) }
        let a = augmentation
        for (key, value, limit) in [("brightness", a.brightness, Float(1)), ("contrast", a.contrast, 1), ("saturation", a.saturation, 1), ("hue", a.hue, 0.5)]
        where !(value >= 0 && value <= limit) {
            out.append(("augmentation.\(key)", "must lie in [0, \(limit)], got \(value)"))
        }
        if !(a.scaleMax <= 8) { out.append(("augmentation.scale_max", "must be at most 8, got \(a.scaleMax)")) }
        if a.copyPasteMaxPerImage > 100 { out.append(("augmentation.copy_paste_max_per_image", "must be at most 100")) }
        if !(a.scaleMin > 0 && a.scaleMin <= a.scaleMax) { out.append(("augmentation.scale_min", "must be positive and at most scale_max")) }
        if !(a.minVisibleFraction >= 0 && a.minVisibleFraction <= 1) { out.append(("augmentation.min_visible_fraction", "must lie in [0, 1]")) }
        if a.copyPasteMaxPerImage < 0 { out.append(("augmentation.copy_paste_max_per_image", "must be 0 or more")) }
        if let t = a.repeatFactorThreshold, !(t > 0 && t <= 1) { out.append(("augmentation.repeat_factor_threshold", "must lie in (0, 1] or be null")) }
        if let p = patience, p < 1 { out.append(("patience", "must be at least 1 (or null to never stop early), got \(p)")) }
        if let p = initFrom, p.isEmpty { out.append(("init_from", "must be a path or null")) }
        out += ema.problems().map { ("ema." + $0.0, $0.1) }
        if !(distributed.timeoutSeconds > 0) { out.append(("distributed.timeout_seconds", "must be positive, got \(distributed.timeoutSeconds)")) }
        return out
    }
}

/// The exponential moving average of the weights (as Ultralytics' ModelEMA): after each step
/// ema = d * ema + (1 - d) * weights, d = decay * (1 - exp(-updates / warmup_steps)), so
/// that early averages do not hold on to the random start.
public struct EMAConfig: Codable, Equatable, Sendable {
    public var enabled = false
    public var decay = 0.9998
    /// The time constant of the decay's warm-up, in steps.
    public var warmupSteps = 2000

    public init() {}

    enum CodingKeys: String, CodingKey {
        case enabled, decay
        case warmupSteps = "warmup_steps"
    }

    func problems() -> [(String, String)] {
        var out: [(String, String)] = []
        if !(decay > 0 && decay < 1) { out.append(("decay", "must lie in (0, 1), got \(decay)")) }
        if warmupSteps < 1 { out.append(("warmup_steps", "must be at least 1, got \(warmupSteps)")) }
        return out
    }
}

extension RunConfig {
    /// Why `name` cannot name a folder under `--runs`, if it cannot: it must stay inside it.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name == "." || name == ".." { return "must name a folder, got '\(name)'" }
        if name.contains("/") || name.contains("\\") { return "'\(name)' must be a single folder name (no '/'): runs stay inside --runs" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not hold control characters" }
        if name.hasPrefix(".") { return "'\(name)' must not start with '.' (hidden and temporary folders do)" }
        if name.utf8.count > 200 { return "is longer than 200 bytes" }
        return nil
    }
}

/// Where the screens come from.
public struct DataConfig: Codable, Equatable, Sendable {
    /// Training shards: files, folders or globs, relative to the working directory.
    public var train = ["data/synthetic/train"]
    /// Validation shards; empty means no validation (and no `best` checkpoint).
    public var val = ["data/synthetic/val"]
    /// Threads preparing batches beside the training threads.
    public var workers = 1
    /// Validate on the first this many validation screens only; null for all.
    public var valLimit: Int? = nil

    public init() {}

    enum CodingKeys: String, CodingKey { case train, val, workers, valLimit = "val_limit" }

    // Written out explicitly so that the resolved config shows `val_limit: null`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(train, forKey: .train)
        try c.encode(val, forKey: .val)
        try c.encode(workers, forKey: .workers)
        try c.encode(valLimit, forKey: .valLimit)
    }
}

/// The optimizer. Weight decay applies to conv weights only, not to biases or batch-norm scale and shift.
public struct OptimizerConfig: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Sendable { case sgd, adamw }
    public var name = Kind.sgd
    /// Peak learning rate (after warm-up).
    public var learningRate: Float = 0.04
    /// SGD only.
    public var momentum: Float = 0.9
    public var nesterov = false
    public var weightDecay: Float = 4e-5
    /// AdamW only.
    public var beta1: Float = 0.9
    public var beta2: Float = 0.999
    public var epsilon: Float = 1e-8
    /// Clip the global gradient norm to this; null for no clipping.
    public var clipGradNorm: Float? = 10

    public init() {}

    enum CodingKeys: String, CodingKey {
        case name, momentum, nesterov, beta1, beta2, epsilon
        case learningRate = "learning_rate", weightDecay = "weight_decay", clipGradNorm = "clip_grad_norm"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(learningRate, forKey: .learningRate)
        try c.encode(momentum, forKey: .momentum)
        try c.encode(nesterov, forKey: .nesterov)
        try c.encode(weightDecay, forKey: .weightDecay)
        try c.encode(beta1, forKey: .beta1)
        try c.encode(beta2, forKey: .beta2)
        try c.encode(epsilon, forKey: .epsilon)
        try c.encode(clipGradNorm, forKey: .clipGradNorm)
    }

    func problems() -> [(String, String)] {
        var out: [(String, String)] = []
        // Finite is the limit: a huge rate is a user's experiment, and a diverging run stops naming the step.
        if !(learningRate > 0 && learningRate.isFinite) { out.append(("learning_rate", "must be positive and finite, got \(learningRate)")) }
        if !(momentum >= 0 && momentum < 1) { out.append(("momentum", "must lie in [0, 1), got \(momentum)")) }
        if !(weightDecay >= 0 && weightDecay <= 1) { out.append(("weight_decay", "must lie in [0, 1], got \(weightDecay)")) }
        if !(beta1 >= 0 && beta1 < 1) { out.append(("beta1", "must lie in [0, 1)")) }
        if !(beta2 >= 0 && beta2 < 1) { out.append(("beta2", "must lie in [0, 1)")) }
        if !(epsilon > 0 && epsilon <= 1) { out.append(("epsilon", "must lie in (0, 1]")) }
        if let c = clipGradNorm, !(c > 0 && c.isFinite) { out.append(("clip_grad_norm", "must be positive and finite, or null, got \(c)")) }
        return out
    }
}

/// The learning-rate schedule over the run's steps.
public struct ScheduleConfig: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case warmupCosine = "warmup_cosine", step, constant
    }
    public var name = Kind.warmupCosine
    /// Linear warm-up from learning_rate x warmup_factor.
    public var warmupSteps = 500
    public var warmupFactor: Float = 0.001
    /// Where the cosine ends.
    public var minLearningRate: Float = 0
    /// `step`: multiply by gamma at each of these steps.
    public var milestones: [Int] = []
    public var gamma: Float = 0.1

    public init() {}

    enum CodingKeys: String, CodingKey {
        case name, milestones, gamma
        case warmupSteps = "warmup_steps", warmupFactor = "warmup_factor", minLearningRate = "min_learning_rate"
    }

    func problems(steps: Int) -> [(String, String)] {
        var out: [(String, String)] = []
        if warmupSteps < 0 { out.append(("warmup_steps", "must be 0 or more")) }
        if name == .warmupCosine && warmupSteps >= steps { out.append(("warmup_steps", "\(warmupSteps) must be fewer than steps = \(steps)")) }
        if !(warmupFactor > 0 && warmupFactor <= 1) { out.append(("warmup_factor", "must lie in (0, 1]")) }
        if !(minLearningRate >= 0 && minLearningRate.isFinite) { out.append(("min_learning_rate", "must be 0 or more and finite")) }
        if milestones.contains(where: { $0 < 1 }) || milestones.count > 1000 { out.append(("milestones", "steps must be positive (at most 1000 of them)")) }
        if !(gamma > 0 && gamma <= 10) { out.append(("gamma", "must lie in (0, 10]")) }
        return out
    }
}

/// How the ranks of a data-parallel run (`mpirun -np N uidetect train`) work together.
/// `batch_size` stays the global batch: each rank takes its own slice of it.
public struct DistributedConfig: Codable, Equatable, Sendable {
    /// Batch norm over the global batch (statistics gathered from every rank, as PyTorch's
    /// SyncBatchNorm); false keeps them per rank, as PyTorch's default DDP does, with rank 0's
    /// running statistics handed to the others after every step.
    public var syncBatchNorm = false
    /// Seconds a rank waits for the others before the run is abandoned (a rank died or hangs).
    public var timeoutSeconds = 600.0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case syncBatchNorm = "sync_batch_norm", timeoutSeconds = "timeout_seconds"
    }
}
