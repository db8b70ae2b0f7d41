import Checkpoints
import Detection
import Distributed
import Engine
import Foundation
import Logging
import Optimizers
import Shards

/// The training loop: load a batch, forward, loss, backward, (sum over the ranks), clip, step.
/// Everything else is a hook (`TrainingHooks`, which states their order); the trainer folds each
/// step into the run's state between the hooks that measure it and those that record it.
public final class Trainer {
    public let setup: TrainingSetup
    public let folder: RunFolder
    public let logger: Logger
    public private(set) var state: TrainingState
    public var hooks: TrainingHooks

    /// The processes of a data-parallel run; nil for one process.
    public let group: ProcessGroup?
    private let parallel: DataParallel?
    /// The run folder's lock, held by rank 0 (or the only process) while the trainer lives.
    private var lock: RunLock?
    /// Rank 0 (or the only process) writes the run folder, logs, metrics, checkpoints and validations.
    public var isPrimary: Bool { (group?.rank ?? 0) == 0 }

    public var config: RunConfig { setup.config }
    public var model: SSDModel { setup.model }

    /// A new run of `given` in `url` (refused if the folder holds anything), or with `resume` the
    /// run there, which keeps its own config (`given`, if any, must equal it or extend it). For
    /// library callers and tests; `logger` defaults to the run's own (`train.log`, and `echo`).
    public convenience init(config given: RunConfig?, folder url: URL, resume: Bool, logger: Logger? = nil,
                            echo: @escaping @Sendable (String) -> Void = { _ in }, group: ProcessGroup? = nil) throws {
        let launch: RunLaunch
        if resume {
            launch = try RunLaunch(resuming: url, given: given)
        } else {
            guard let given else { throw TrainingError.notARun(url.path, holds: []) }
            launch = RunLaunch(starting: given, in: url)
        }
        let primary = (group?.rank ?? 0) == 0
        try self.init(launch, logger: logger ?? (primary ? Logger.run(RunFolder(url), echo: echo) : Logger.rank(group!.rank)), group: group)
    }

    /// The run `launch` describes, logging to `logger`. In a data-parallel run (`group`), rank 0
    /// alone creates or rewrites the folder; the other ranks read it once rank 0 is done.
    public init(_ launch: RunLaunch, logger: Logger, group: ProcessGroup? = nil) throws {
        let primary = (group?.rank ?? 0) == 0
        let folder = RunFolder(launch.folder)
        var fresh = true
        if launch.resume {
            // The lock first: nothing is loaded or rewritten while another trainer uses the run.
            lock = primary ? try RunLock(try RunFolder.requireRun(launch.folder)) : nil
            try group?.barrier(what: "opening the run folder")
            // A run killed before its first checkpoint starts again from nothing with its own config;
            // a damaged checkpoints folder is reported (by loading it), never taken for an empty one.
            fresh = folder.checkpoints.integrity() == .empty
            setup = try TrainingSetup(config: launch.config, ranks: group?.size ?? 1, initialWeights: fresh)
        } else {
            if primary { try RunFolder.ensureFree(launch.folder) }
            setup = try TrainingSetup(config: launch.config, ranks: group?.size ?? 1)  // data problems surface before the folder exists
            lock = primary ? try RunFolder.create(launch.folder, config: launch.config).lock : nil
            try group?.barrier(what: "creating the run folder")
        }
        self.folder = folder
        self.logger = logger
        self.group = group
        parallel = group.map { DataParallel(group: $0, syncBatchNorm: launch.config.distributed.syncBatchNorm) }
        hooks = primary ? .standard() : .none
        state = TrainingState(step: 0, bestScore: nil, bestStep: nil, optimizer: [:])
        // Leftovers of checkpoint writes a crash interrupted go now, not at the next save.
        if primary { folder.checkpoints.prune() }
        if fresh {
            if primary { try MetricsLog(url: folder.metricsFile).start() }
            if launch.resume { logger.info("the run had no checkpoint yet: started again from step 0 with its config") }
        } else {
            try resumeFromLast()
        }
        if let extendedFrom = launch.extendedFrom {
            // An extended run gets its patience back; config.yaml records the extension only now that the run has loaded.
            state.stoppedEarly = false
            state.validationsSinceBest = 0
            if primary { try folder.recordExtension(launch.config) }
            logger.info("extended from \(extendedFrom) to \(config.steps) steps\(config.patience.map { ", patience \($0)" } ?? "") (the learning-rate schedule now spans \(config.steps) steps)")
        }
        RunStartLog.write(setup, folder: folder, resumedAt: fresh ? nil : state.step, ranks: group?.size, to: logger)
    }

    /// Loads `checkpoints/last`: the weights (with an EMA, the average from the model file and the
    /// trained weights from the state), the optimizer, the step, the best score and the metrics window.
    private func resumeFromLast() throws {
        let store = folder.checkpoints
        guard let (saved, weights) = try store.loadLast() else {
            throw CheckpointError(path: store.last.path, problem: "the run has no checkpoint to resume from; start it again without --resume")
        }
        let stateFile = store.last.appendingPathComponent(CheckpointStore.stateFile).path
        if let emaModel = setup.emaModel, let ema = setup.ema {
            try DetectorWeights.load(weights, into: emaModel)
            guard !saved.rawWeights.isEmpty else { throw CheckpointError(path: stateFile, problem: "no raw weights beside the moving average") }
            try DetectorWeights.load(saved.rawWeights, into: setup.model, path: stateFile)
            ema.resume(updates: saved.emaUpdates)
        } else {
            try DetectorWeights.load(weights, into: setup.model)
        }
        do { try setup.optimizer.loadState(saved.optimizer) } catch { throw CheckpointError(path: stateFile, problem: "\(error)") }
        guard saved.step <= config.steps else {
            throw CheckpointError(path: stateFile, problem: "holds step \(saved.step), past the run's \(config.steps) steps (config.yaml); extend the run with --set steps=N (N >= \(saved.step))")
        }
        state = saved
        if isPrimary { try MetricsLog(url: folder.metricsFile).truncate(after: saved.step) }
    }

    /// What a hook sees now.
    private var context: TrainingContext { TrainingContext(setup: setup, folder: folder, logger: logger, state: state) }

    /// Trains until `config.steps`, or until `shouldStop()` says so before a step; the hooks
    /// validate, log, checkpoint (`last` is written on interruption) and report progress. A
    /// non-finite loss or gradient stops with `TrainingError.nonFinite`, leaving the last good
    /// checkpoint as it was.
    public func run(shouldStop: () -> Bool = { false }, progress: ((StepReport) -> Void)? = nil) throws -> TrainingOutcome {
        // The folder is free again once this session ends (the lock was taken when the trainer was made).
        defer { lock = nil }
        return try Parallel.withThreads(setup.threads) {
            guard let group, config.distributed.syncBatchNorm else { return try loop(shouldStop: shouldStop, progress: progress) }
            return try BatchNormSync.synchronised(by: SynchronisedBatchStatistics(group: group)) { try loop(shouldStop: shouldStop, progress: progress) }
        }
    }

    private func loop(shouldStop: () -> Bool, progress: ((StepReport) -> Void)?) throws -> TrainingOutcome {
        do {
            let c = config
            // Rank 0's view decides whether the run is over (only it knows of an extension).
            var over: [Float] = [state.step < c.steps && !state.stoppedEarly ? 0 : 1]
            if let group { try group.broadcast(&over, count: 1, what: "starting") }
            guard over[0] == 0 else {
                if state.stoppedEarly {
                    logger.info("the run stopped early at step \(state.step) (patience \(c.patience ?? 0) spent); extend it with --resume --set steps=N (N > \(c.steps)) to go on")
                } else {
                    logger.info("the run is already complete (step \(state.step) of \(c.steps))")
                }
                return outcome(interrupted: false)
            }
            var hooks = self.hooks
            if let progress, isPrimary { hooks.recording.append(ProgressHook(report: progress)) }
            if group != nil, isPrimary { hooks.recording.append(InterruptGraceHook()) }
            let assigner = setup.loss.assigner
            // The worker turns each batch into the model's input and matches its targets, off the training thread.
            let cacheBytes = TrainingSetup.screenCacheBytes(
                requested: c.data.cacheMB, activationBytes: TrainingSetup.activationBytes(model: setup.model, batch: c.batchSize / (group?.size ?? 1)),
                processes: group?.size ?? 1)
            if isPrimary && cacheBytes > 0 {
                logger.info("keeping decoded training screens in memory from the first epoch on: up to \(cacheBytes >> 20) MiB (data.cache_mb)")
            }
            let pipeline = InputPipeline(set: setup.trainSet, batchSize: c.batchSize, seed: c.seed, options: c.augmentation, workers: c.data.workers,
                                         inputSize: c.model.inputSize, startBatch: state.step, slice: (group?.rank ?? 0, group?.size ?? 1),
                                         cacheBytes: cacheBytes) { assigner.trainingBatch($0) }
            defer { pipeline.stop() }
            for hook in hooks.all { try hook.beforeTraining(context) }
            let parameters = setup.optimizer.allParameters
            var interrupted = false
            while state.step < c.steps {
                let stop = shouldStop()
                if parallel == nil && stop { interrupted = true; break }
                let batch = try pipeline.next()
                let step = state.step + 1
                var positives = batch.assigned.positiveRows.count
                if let parallel {
                    let agreed = try parallel.agree(positives: positives, stop: stop || state.stoppedEarly, step: step)
                    if agreed.stop { interrupted = !state.stoppedEarly; break }
                    positives = agreed.positives
                }
                setup.optimizer.zeroGrad()
                let loss = setup.loss(images: batch.images, assigned: batch.assigned, positives: positives)
                // In a data-parallel run a rank's loss is its share: a non-finite one shows up in the summed gradients' norm on every rank at once.
                if parallel == nil, !loss.total.item.isFinite {
                    try stopNonFinite(step: step, what: "the loss is \(loss.total.item) (classification \(loss.classification.item), box \(loss.box.item))")
                }
                loss.total.backward()
                var (total, cls, box) = (loss.total.item, loss.classification.item, loss.box.item)
                if let parallel { (total, cls, box) = try parallel.sumGradients(parameters, loss: (total, cls, box), step: step) }
                let norm = clipGradientNorm(parameters, maxNorm: c.optimizer.clipGradNorm ?? .infinity)
                guard norm.isFinite else { try stopNonFinite(step: step, what: "the gradient norm is \(norm) (loss \(total))") }
                let lr = setup.schedule.learningRate(at: state.step)
                setup.optimizer.step(learningRate: lr)
                try parallel?.afterStep(buffers: model.namedBuffers().map(\.tensor), step: step)
                var record = StepRecord(step: step, loss: total, classification: cls, box: box, learningRate: lr, images: batch.images.shape[0])
                for hook in hooks.measuring { try hook.afterStep(&record, context) }
                record.fold = state.fold(record, config: c)
                for hook in hooks.recording { try hook.afterStep(&record, context) }
                if state.stoppedEarly && parallel == nil { break }
            }
            for hook in hooks.all { try hook.afterTraining(context, interrupted: interrupted) }
            parallel?.report(logger)
            if state.stoppedEarly {
                logger.info("stopped early at step \(state.step): no better validation mAP50 in \(c.patience ?? 0) validations (best \(percent(state.bestScore)) at step \(state.bestStep.map(String.init) ?? "-")); checkpoints/best holds it")
            } else if interrupted {
                logger.info("interrupted at step \(state.step) of \(c.steps); checkpoints/last holds it, and --resume goes on from there")
            } else if setup.valSet == nil {
                logger.info("finished \(state.step) steps (no validation data, so no best checkpoint)")
            } else {
                logger.info("finished \(state.step) steps; best validation mAP50 \(percent(state.bestScore)) at step \(state.bestStep.map(String.init) ?? "-")")
            }
            return outcome(interrupted: interrupted)
        } catch let error as DistributedError {
            // A rank that cannot reach the others ends the whole job rather than hang it.
            group?.abort("\(error)")
            throw error
        }
    }

    private func outcome(interrupted: Bool) -> TrainingOutcome {
        TrainingOutcome(step: state.step, interrupted: interrupted, bestScore: state.bestScore, bestStep: state.bestStep, folder: folder.url)
    }

    private func stopNonFinite(step: Int, what: String) throws -> Never {
        let error = TrainingError.nonFinite(step: step, what: what, lastCheckpoint: folder.checkpoints.lastStep, folder: folder.path)
        // Into train.log only: the command line reports the error itself.
        logger.debug("error: \(error)")
        throw error
    }
}

/// Percent with one decimal, or "-".
func percent(_ v: Double?) -> String { v.map { String(format: "%.1f", 100 * $0) } ?? "-" }
