import Detection
import FileKeys
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
    @Nullable public var initFrom: String? = nil
    /// Parts of the model kept fixed: `backbone`, `fpn`, `class_head`, `box_head`, or any module
    /// path such as `backbone.b1`. No gradient, no weight decay, no optimizer state; batch norm
    /// there runs on its running statistics.
    public var freeze: [String] = []
    /// An exponential moving average of the weights, for validation and `best`.
    public var ema = EMAConfig()
    /// Stop after this many validations without a better mAP50; null never stops early.
    @Nullable public var patience: Int? = nil
    /// Data-parallel runs under `mpirun` (ignored in a single process).
    public var distributed = DistributedConfig()

    public init() {}

    // In the order a resolved config lists them: a synthesised encoder writes keys in the order of these cases.
    enum CodingKeys: String, CodingKey {
        case name, seed, threads, data, model, loss, augmentation, optimizer, schedule
        case batchSize = "batch_size", steps, evalInterval = "eval_interval", checkpointInterval = "checkpoint_interval", logInterval = "log_interval"
        case initFrom = "init_from", freeze, ema, patience, distributed
    }

    /// Impossible values, each naming its dotted key.
    public func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        found.nest(.model, model.problems())
        if let problem = Self.nameProblem(name) { found.add(.name, problem) }
        if !(1...4096).contains(batchSize) { found.add(.batchSize, "must lie in 1...4096, got \(batchSize)") }
        if !(1...100_000_000).contains(steps) { found.add(.steps, "must lie in 1...100000000, got \(steps)") }
        if threads > 1024 { found.add(.threads, "must be at most 1024, got \(threads)") }
        if evalInterval < 0 { found.add(.evalInterval, "must be 0 or more, got \(evalInterval)") }
        if checkpointInterval < 1 { found.add(.checkpointInterval, "must be at least 1, got \(checkpointInterval)") }
        if logInterval < 1 { found.add(.logInterval, "must be at least 1, got \(logInterval)") }
        if threads < 0 { found.add(.threads, "must be 0 (one per core) or more, got \(threads)") }
        found.nest(.data, data.problems())
        found.nest(.loss, loss.problems(classes: model.numClasses))
        found.nest(.optimizer, optimizer.problems())
        found.nest(.schedule, schedule.problems(steps: steps))
        found.nest(.augmentation, augmentation.problems())
        if let p = patience, p < 1 { found.add(.patience, "must be at least 1 (or null to never stop early), got \(p)") }
        if let p = initFrom, p.isEmpty { found.add(.initFrom, "must be a path or null") }
        found.nest(.ema, ema.problems())
        found.nest(.distributed, distributed.problems())
        return found.list
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

    /// Impossible values, each naming its key in the section.
    func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        if !(decay > 0 && decay < 1) { found.add(.decay, "must lie in (0, 1), got \(decay)") }
        if warmupSteps < 1 { found.add(.warmupSteps, "must be at least 1, got \(warmupSteps)") }
        return found.list
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
    @Nullable public var valLimit: Int? = nil
    /// Decoded training screens kept in memory from the first epoch on, at most this many MiB
    /// (0: none; `TrainingSetup.screenCacheBytes` keeps it clear of the memory limits); later epochs skip reading them.
    public var cacheMB = 2048

    public init() {}

    enum CodingKeys: String, CodingKey { case train, val, workers, valLimit = "val_limit", cacheMB = "cache_mb" }

    /// Impossible values, each naming its key in the section.
    func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        if workers > 64 { found.add(.workers, "must be at most 64, got \(workers)") }
        if train.isEmpty { found.add(.train, "needs at least one shard, folder or glob") }
        if workers < 1 { found.add(.workers, "must be at least 1, got \(workers)") }
        if let limit = valLimit, limit < 1 { found.add(.valLimit, "must be at least 1 (or null for all), got \(limit)") }
        if cacheMB < 0 { found.add(.cacheMB, "must be at least 0 (0: no cache), got \(cacheMB)") }
        return found.list
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
    @Nullable public var clipGradNorm: Float? = 10

    public init() {}

    // In the order a resolved config lists them: a synthesised encoder writes keys in the order of these cases.
    enum CodingKeys: String, CodingKey {
        case name, learningRate = "learning_rate", momentum, nesterov, weightDecay = "weight_decay", beta1, beta2, epsilon
        case clipGradNorm = "clip_grad_norm"
    }

    /// Impossible values, each naming its key in the section.
    func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        // Finite is the limit: a huge rate is a user's experiment, and a diverging run stops naming the step.
        if !(learningRate > 0 && learningRate.isFinite) { found.add(.learningRate, "must be positive and finite, got \(learningRate)") }
        if !(momentum >= 0 && momentum < 1) { found.add(.momentum, "must lie in [0, 1), got \(momentum)") }
        if !(weightDecay >= 0 && weightDecay <= 1) { found.add(.weightDecay, "must lie in [0, 1], got \(weightDecay)") }
        if !(beta1 >= 0 && beta1 < 1) { found.add(.beta1, "must lie in [0, 1)") }
        if !(beta2 >= 0 && beta2 < 1) { found.add(.beta2, "must lie in [0, 1)") }
        if !(epsilon > 0 && epsilon <= 1) { found.add(.epsilon, "must lie in (0, 1]") }
        if let c = clipGradNorm, !(c > 0 && c.isFinite) { found.add(.clipGradNorm, "must be positive and finite, or null, got \(c)") }
        return found.list
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

    /// Impossible values for a run of `steps` steps, each naming its key in the section.
    func problems(steps: Int) -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        if warmupSteps < 0 { found.add(.warmupSteps, "must be 0 or more") }
        if name == .warmupCosine && warmupSteps >= steps { found.add(.warmupSteps, "\(warmupSteps) must be fewer than steps = \(steps)") }
        if !(warmupFactor > 0 && warmupFactor <= 1) { found.add(.warmupFactor, "must lie in (0, 1]") }
        if !(minLearningRate >= 0 && minLearningRate.isFinite) { found.add(.minLearningRate, "must be 0 or more and finite") }
        if milestones.contains(where: { $0 < 1 }) || milestones.count > 1000 { found.add(.milestones, "steps must be positive (at most 1000 of them)") }
        if !(gamma > 0 && gamma <= 10) { found.add(.gamma, "must lie in (0, 10]") }
        return found.list
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

    /// Impossible values, each naming its key in the section.
    func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        if !(timeoutSeconds > 0) { found.add(.timeoutSeconds, "must be positive, got \(timeoutSeconds)") }
        return found.list
    }
}
