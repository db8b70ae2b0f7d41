import Detection
import DetectorRuns
import Engine
import Evaluation
import Foundation
import Outputs
import Layers
import Optimizers
import Shards

/// Everything a run trains with, built from its config in one place: the data (opened and
/// checked before any work starts), the class weights, the model, its loss, the optimizer and
/// the learning-rate schedule. Every problem is a `ConfigError` naming the key.
public struct TrainingSetup {
    public let config: RunConfig
    public let trainSet: ShardSet
    /// The validation screens (the first `data.val_limit`) as an evaluation run; nil without validation data.
    public let validation: EvaluationRun?
    public var valSet: ShardSet? { validation?.set }
    /// Ground truth of the validation screens used.
    public var valImages: [GroundTruthImage] { validation?.images ?? [] }
    public let classNames: [String]
    /// Training boxes per class.
    public let boxCounts: [Int]
    public let model: SSDModel
    public let loss: SSDLoss
    public let optimizer: Optimizer
    public let schedule: LearningRateSchedule
    /// What `init_from` loaded, if given.
    public let transfer: WeightTransferReport?
    /// The moving average of the weights and the model holding it, when `ema.enabled`.
    public let ema: WeightAverage?
    public let emaModel: SSDModel?

    /// `ranks`: the processes of a data-parallel run, which share every batch. `initialWeights`
    /// false skips `init_from` (a resumed run's checkpoint holds the weights, and the file it
    /// started from may have moved since).
    public init(config c: RunConfig, ranks: Int = 1, initialWeights: Bool = true) throws {
        config = c
        if let p = c.problems().first { throw ConfigError(source: "config", key: p.key, problem: p.problem) }
        if c.batchSize % ranks != 0 {
            throw ConfigError(source: "config", key: "batch_size", problem: "\(c.batchSize) does not divide by the \(ranks) ranks of this run: batch_size is the global batch, each rank takes an equal slice")
        }
        func open(_ specs: [String], key: String) throws -> ShardSet {
            do { return try ShardSet(specs) } catch { throw ConfigError(source: "config", key: key, problem: FileProblem.sentence(error)) }
        }
        trainSet = try open(c.data.train, key: "data.train")
        guard trainSet.count > 0 else { throw ConfigError(source: "config", key: "data.train", problem: "the shards hold no screens") }
        classNames = trainSet.classNames
        guard classNames.count == c.model.numClasses else {
            throw ConfigError(source: "config", key: "model.num_classes",
                              problem: "is \(c.model.numClasses) but the training shards have \(classNames.count) classes (\(classNames.joined(separator: ", ")))")
        }
        if c.data.val.isEmpty {
            validation = nil
        } else {
            let v = try open(c.data.val, key: "data.val")
            guard v.classNames == classNames else {
                throw ConfigError(source: "config", key: "data.val", problem: "the validation shards' classes (\(v.classNames.joined(separator: ", "))) differ from the training shards'")
            }
            validation = try EvaluationRun(set: v, limit: c.data.valLimit)
        }
        var counts = [Int](repeating: 0, count: classNames.count)
        for r in trainSet.readers { for l in r.labels { counts[Int(l)] += 1 } }
        boxCounts = counts

        var g = SeededGenerator(seed: c.seed)
        let model = SSDModel(config: c.model, generator: &g)
        self.model = model
        try Self.checkMemory(model: model, batch: c.batchSize / ranks)
        let names = classNames
        transfer = initialWeights ? try c.initFrom.map { try WeightTransfer.apply(from: $0, to: model, classNames: names) } : nil
        let parts = Set(model.partNames)
        if let unknown = c.freeze.first(where: { !parts.contains($0) }) {
            throw ConfigError(source: "config", key: "freeze", problem: "'\(unknown)' is no part of the model; parts are backbone, fpn, class_head, box_head, or a module path below them such as backbone.b1 or fpn.lateral3")
        }
        for (name, p) in model.namedParameters() where c.freeze.contains(where: { part in name.hasPrefix(part + ".") }) { p.setRequiresGradient(false) }
        let frozen = c.freeze
        var lossFunction = SSDLoss(model: model, config: c.loss, classWeights: c.loss.balance.weights(counts: counts))
        lossFunction.frozen = frozen
        loss = lossFunction
        optimizer = Self.optimizer(c.optimizer, model: model)
        schedule = Self.schedule(c.schedule, learningRate: c.optimizer.learningRate, steps: c.steps)
        if c.ema.enabled {
            var h = SeededGenerator(seed: c.seed)
            let average = SSDModel(config: c.model, generator: &h)
            emaModel = average
            ema = WeightAverage(values: model.namedState().map(\.tensor), averages: average.namedState().map(\.tensor),
                                decay: c.ema.decay, warmupSteps: c.ema.warmupSteps)
        } else {
            emaModel = nil
            ema = nil
        }
    }

    /// The model validation and `best` use: the moving average when on, else the trained weights.
    public var evaluatedModel: SSDModel { emaModel ?? model }

    /// Which weights `evaluatedModel` holds, in words for logs and reports.
    public var evaluatedWeights: String { ema.map { "EMA of the weights (decay \($0.decay))" } ?? "raw weights" }

    /// Refuses a batch whose activations cannot fit in the memory this process may use (the
    /// smallest of the machine's memory, `ulimit -v` and the memory cgroup's limit), before any is
    /// allocated: past a limit, an allocation fails and the run ends in SIGABRT or the OOM killer.
    static func checkMemory(model: SSDModel, batch: Int, limits: MemoryLimits = .current()) throws {
        let bytes = activationBytes(model: model, batch: batch)
        let limit = limits.smallest
        if bytes > Double(limit.bytes) * 0.75 {
            throw ConfigError(source: "config", key: "batch_size", problem: "\(batch) screens of \(model.config.inputWidth)x\(model.config.inputHeight) per process need about \(MemoryLimits.gib(UInt64(bytes))) for their activations; \(limit.what) (three quarters of it may be used)")
        }
    }

    /// About the bytes a training step of `batch` screens holds: every conv output is kept for
    /// backward with its batch-norm output and a gradient of each (about 4 floats per output
    /// value), plus the input and its pipeline copies.
    public static func activationBytes(model: SSDModel, batch: Int) -> Double {
        let outputs = model.convolutions(batch: 1).reduce(0) { $0 + $1.outHeight * $1.outWidth * $1.outChannels }
        let input = model.config.inputWidth * model.config.inputHeight * 3
        return Double(batch) * Double(4 * outputs + 8 * input) * 4
    }

    /// Bytes of decoded screens each of `processes` processes on a machine may keep: `requested` MiB,
    /// at most a quarter of the memory a process may use and half of what the step's activations
    /// leave of three quarters of it (the line `checkMemory` draws), shared by the processes; the
    /// rest is left to the weights, the optimizer, copy-paste's instances and validation.
    public static func screenCacheBytes(requested megabytes: Int, activationBytes: Double, processes: Int = 1,
                                        limits: MemoryLimits = .current()) -> Int {
        let limit = Double(limits.smallest.bytes)
        let room = max(0, (0.75 * limit - activationBytes) / 2)
        let asked = Double(max(0, min(megabytes, 1 << 40))) * Double(1 << 20)
        return Int(min(asked, limit / 4, room) / Double(max(1, processes)))
    }

    /// Weight decay on conv weights only: biases and batch-norm scale and shift are left alone.
    /// Frozen parameters (no gradient) are not the optimizer's: no decay, no state.
    static func optimizer(_ o: OptimizerConfig, model: SSDModel) -> Optimizer { optimizer(o, parameters: model.namedParameters()) }

    /// The optimizer of `o` over named parameters (conv weights decayed, the rest not; frozen ones left out).
    static func optimizer(_ o: OptimizerConfig, parameters: [(name: String, tensor: Tensor)]) -> Optimizer {
        let named = parameters.filter { $0.tensor.requiresGrad }
        let groups = [ParameterGroup(parameters: named.filter { $0.tensor.shape.count == 4 }.map(\.tensor), weightDecay: o.weightDecay),
                      ParameterGroup(parameters: named.filter { $0.tensor.shape.count != 4 }.map(\.tensor), weightDecay: 0)]
        switch o.name {
        case .sgd: return SGD(groups: groups, momentum: o.momentum, nesterov: o.nesterov)
        case .adamw: return AdamW(groups: groups, beta1: o.beta1, beta2: o.beta2, epsilon: o.epsilon)
        }
    }

    static func schedule(_ s: ScheduleConfig, learningRate lr: Float, steps: Int) -> LearningRateSchedule {
        switch s.name {
        case .warmupCosine:
            return WarmupCosine(base: lr, warmupSteps: s.warmupSteps, totalSteps: steps, warmupFactor: s.warmupFactor, minimum: s.minLearningRate)
        case .step:
            return StepDecay(base: lr, milestones: s.milestones, gamma: s.gamma, warmupSteps: s.warmupSteps, warmupFactor: s.warmupFactor)
        case .constant:
            return StepDecay(base: lr, milestones: [], gamma: 1, warmupSteps: s.warmupSteps, warmupFactor: s.warmupFactor)
        }
    }

    /// The engine threads the run uses (0 in the config: one per core).
    public var threads: Int { config.threads == 0 ? Parallel.defaultThreadCount : config.threads }
}
