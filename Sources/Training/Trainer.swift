import Boxes
import Checkpoints
import Detection
import Distributed
import Engine
import Evaluation
import Foundation
import Images
import Logging
import Optimizers
import Reports
import Shards

/// One step's outcome, as the hooks see it after the optimizer update.
public struct StepRecord {
    public let step: Int
    public let loss, classification, box: Float
    public let learningRate: Float
    /// Screens in the step's batch.
    public let images: Int
    /// Filled in by the validation hook when this step was validated.
    public var validation: ValidationScores?
    /// Seconds the validation of this step took (not training time).
    public var validationSeconds = 0.0
    /// True when this step's validation is the best so far.
    public var isBest = false
    /// The `metrics.csv` row this step wrote, if it wrote one (window means).
    public var loggedRow: MetricsLog.Row?
    /// With an EMA, the validation mAP50 of the raw weights beside the average's.
    public var rawWeightsMAP50: Double?
}

/// One validation screen as a person looks at it: the image, its true boxes and what was detected.
public struct ValidationScreen {
    public var imageID: String
    public var image: RGBImage
    public var truth: [(box: Box, label: Int)]
    public var detections: [DetectedBox]
}

/// A validation's headline figures (mAP as fractions) and its loss.
public struct ValidationScores: Sendable {
    public var map50: Double?
    public var mapCenter: Double?
    public var loss: Double
    public var classificationLoss: Double
    public var boxLoss: Double
}

/// Something that acts around the training loop (detectron2's hooks): validation, metrics and
/// logs, checkpoints, progress. Hooks run in the order of `Trainer.hooks`; by default
/// validation, then metrics (which closes the metrics window kept in checkpoints), then
/// checkpoints (which see whether the step was the best), then progress.
public protocol TrainingHook: AnyObject {
    /// Once, before the first step of this session.
    func beforeTraining(_ trainer: Trainer) throws
    /// After each step's optimizer update; a hook may fill in `record` for the hooks after it.
    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws
    /// Once, when the session ends at the last step or is interrupted.
    func afterTraining(_ trainer: Trainer, interrupted: Bool) throws
}

extension TrainingHook {
    public func beforeTraining(_ trainer: Trainer) throws {}
    public func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws {}
    public func afterTraining(_ trainer: Trainer, interrupted: Bool) throws {}
}

/// How a session ended.
public struct TrainingOutcome {
    public var step: Int
    public var interrupted: Bool
    public var bestMAP50: Double?
    public var bestStep: Int?
    public var folder: URL
}

/// The training loop: load a batch, forward, loss, backward, clip, step; everything else is a hook.
public final class Trainer {
    public let setup: TrainingSetup
    public let folder: RunFolder
    public let logger: Logger
    public internal(set) var state: TrainingState
    /// The step `checkpoints/last` holds, if any.
    public private(set) var lastCheckpointStep: Int?
    public var hooks: [TrainingHook]
    /// The latest validation's evaluation, for hooks that draw or log it.
    public internal(set) var latestValidation: EvaluationSummary?
    /// A few screens of the latest validation with their true and detected boxes (stored pixels).
    public internal(set) var latestValidationScreens: [ValidationScreen] = []

    /// The processes of a data-parallel run; nil for one process.
    public let group: ProcessGroup?
    /// The run folder's lock, held by rank 0 (or the only process) while the trainer lives.
    var lock: RunLock?
    /// Rank 0 (or the only process) writes the run folder, logs, metrics, checkpoints and validations.
    public var isPrimary: Bool { (group?.rank ?? 0) == 0 }

    public var config: RunConfig { setup.config }
    public var model: SSDModel { setup.model }

    /// A new run in `url` (refused if the folder holds anything), or with `resume` the run there,
    /// which keeps its own config (`config`, if given, must equal it). `logger` defaults to the
    /// run's own: `train.log`, and `echo` for what a person should see.
    /// In a data-parallel run (`group`), rank 0 alone creates or rewrites the folder and logs;
    /// the other ranks read it once rank 0 is done.
    public convenience init(config given: RunConfig?, folder url: URL, resume: Bool, logger: Logger? = nil,
                            echo: @escaping @Sendable (String) -> Void = { _ in }, group: ProcessGroup? = nil) throws {
        let primary = (group?.rank ?? 0) == 0
        func runLogger(for folder: RunFolder) -> Logger {
            if let logger { return logger }
            return primary ? Logger.run(folder, echo: echo) : Logger.rank(group!.rank)
        }
        if resume {
            // The lock first: nothing is read or rewritten while another trainer uses the run.
            let lock = primary ? try RunLock(try RunFolder.requireRun(url)) : nil
            var opened: (folder: RunFolder, config: RunConfig, extendedFrom: Int?)? = primary ? try RunFolder.open(url, expecting: given) : nil
            try group?.barrier(what: "opening the run folder")
            if opened == nil { opened = try RunFolder.open(url, expecting: given) }
            let (folder, saved, extendedFrom) = opened!
            // A run killed before its first checkpoint starts again from nothing with its own config;
            // a damaged checkpoints folder is reported (by loading it), never taken for an empty one.
            let fresh = folder.checkpoints.integrity() == .empty
            let setup = try TrainingSetup(config: saved, ranks: group?.size ?? 1, initialWeights: fresh)
            try self.init(setup: setup, folder: folder, resuming: !fresh, logger: runLogger(for: folder), group: group)
            self.lock = lock
            // Recorded only now that the run has loaded: a refused or failed resume leaves config.yaml as it was.
            if primary, extendedFrom != nil { try folder.recordExtension(saved) }
            if fresh { self.logger.info("the run had no checkpoint yet: started again from step 0 with its config") }
            if let extendedFrom {
                // An extended run gets its patience back.
                state.stoppedEarly = false
                state.validationsSinceBest = 0
                self.logger.info("extended from \(extendedFrom) to \(saved.steps) steps\(saved.patience.map { ", patience \($0)" } ?? "") (the learning-rate schedule now spans \(saved.steps) steps)")
            }
        } else {
            guard let given else { throw TrainingError.notARun(url.path, holds: []) }
            if primary { try RunFolder.ensureFree(url) }
            let setup = try TrainingSetup(config: given, ranks: group?.size ?? 1)  // data problems surface before the folder exists
            let created = primary ? try RunFolder.create(url, config: given) : nil
            let folder = created?.folder ?? RunFolder(url)
            try group?.barrier(what: "creating the run folder")
            try self.init(setup: setup, folder: folder, resuming: false, logger: runLogger(for: folder), group: group)
            self.lock = created?.lock
        }
    }

    /// A run of `setup` in `folder`; `resuming` loads `checkpoints/last` (weights, optimizer, step, best, metrics window).
    public init(setup: TrainingSetup, folder: RunFolder, resuming: Bool, logger: Logger, group: ProcessGroup? = nil) throws {
        self.setup = setup
        self.folder = folder
        self.logger = logger
        self.group = group
        state = TrainingState(step: 0, bestMAP50: nil, bestStep: nil, optimizer: [:])
        let primary = (group?.rank ?? 0) == 0
        // Leftovers of checkpoint writes a crash interrupted go now, not at the next save.
        if primary { folder.checkpoints.prune() }
        hooks = primary ? [EMAHook(), ValidationHook(), EarlyStoppingHook(), MetricsHook(), CheckpointHook(), TensorBoardHook()] : []
        let c = setup.config
        let metrics = MetricsLog(url: folder.metricsFile)
        if resuming {
            let store = folder.checkpoints
            guard let (saved, weights) = try store.loadLast() else {
                throw CheckpointError(path: store.last.path, problem: "the run has no checkpoint to resume from; start it again without --resume")
            }
            if let emaModel = setup.emaModel, let ema = setup.ema {
                // The model file holds the average; the weights being trained are in the state.
                try emaModel.loadWeights(from: weights)
                let stateFile = store.last.appendingPathComponent(CheckpointStore.stateFile).path
                guard !saved.rawWeights.isEmpty else { throw CheckpointError(path: stateFile, problem: "no raw weights beside the moving average") }
                var raw: [String: (shape: [Int], values: [Float])] = [:]
                for t in saved.rawWeights { raw[t.name] = (t.shape, t.values) }
                do { try setup.model.load(raw) } catch { throw CheckpointError(path: stateFile, problem: "\(error)") }
                ema.resume(updates: saved.emaUpdates)
            } else {
                try setup.model.loadWeights(from: weights)
            }
            do { try setup.optimizer.loadState(saved.optimizer) } catch {
                throw CheckpointError(path: store.last.appendingPathComponent(CheckpointStore.stateFile).path, problem: "\(error)")
            }
            guard saved.step <= c.steps else {
                throw CheckpointError(path: store.last.appendingPathComponent(CheckpointStore.stateFile).path,
                                      problem: "holds step \(saved.step), past the run's \(c.steps) steps (config.yaml); extend the run with --set steps=N (N >= \(saved.step))")
            }
            state = saved
            lastCheckpointStep = saved.step
            if primary { try metrics.truncate(after: saved.step) }
            logger.info("resumed at step \(saved.step) of \(c.steps) from \(store.last.path)")
        } else {
            if primary { try metrics.start() }
            let val = setup.valSet.map { "\(setup.valImages.count) of \($0.count)" } ?? "no"
            logger.info("run \(folder.path): \(setup.trainSet.count) training screens, \(val) validation screens")
            if let t = setup.transfer {
                logger.info("init_from \(t.source): \(t.loaded.count) tensors loaded, \(t.reinitialised.count) started afresh, \(t.dropped.count) dropped")
                if !t.reinitialised.isEmpty {
                    let kept = t.keptClasses.isEmpty ? "no class name is in both, so no row is kept"
                        : "keeping the rows of \(t.keptClasses.count) shared classes (\(t.keptClasses.joined(separator: ", ")))"
                    logger.info("  the vocabularies differ: \(t.reinitialised.joined(separator: ", ")) re-initialised, \(kept)")
                }
                if !t.dropped.isEmpty { logger.info("  dropped: \(t.dropped.joined(separator: ", "))") }
            }
        }
        if !c.freeze.isEmpty {
            let fixed = setup.model.parameters.filter { !$0.requiresGrad }.reduce(0) { $0 + $1.count }
            logger.info("frozen: \(c.freeze.joined(separator: ", ")) (\(fixed) parameters kept fixed, batch norm there on running statistics)")
        }
        if setup.ema != nil { logger.info("validation and best use the \(setup.evaluatedWeights), warm-up \(c.ema.warmupSteps) steps") }
        if let group {
            let norm = c.distributed.syncBatchNorm ? "batch norm over the global batch" : "batch norm per rank (rank 0's running statistics kept)"
            logger.info("data-parallel over \(group.size) ranks: \(c.batchSize / group.size) screens of each batch of \(c.batchSize) per rank, gradients summed in rank order, \(norm)")
        }
        let m = c.model
        logger.info("model: \(m.inputWidth)x\(m.inputHeight), alpha \(m.alpha), FPN \(m.fpnDepth), \(m.headLayers) head layers, levels \(m.minLevel)-\(m.maxLevel): \(setup.model.parameterCount) parameters, \(setup.loss.assigner.anchors.count) anchors per image")
        logger.info("class weights (\(c.loss.classBalance.rawValue)) from the training shards' box counts:")
        for (k, name) in setup.classNames.enumerated() {
            logger.info("\("  " + name.padding(toLength: 20, withPad: " ", startingAt: 0))\(String(format: "%8d boxes   weight %.4f", setup.boxCounts[k], setup.loss.assigner.classWeights[k]))")
        }
        let threads = setup.threads
        logger.info("optimizer \(c.optimizer.name.rawValue), learning rate \(c.optimizer.learningRate) (\(c.schedule.name.rawValue)), batch \(c.batchSize), \(c.steps) steps, \(threads) thread\(threads == 1 ? "" : "s"), OpenBLAS \(BLASKernels.current) kernels")
        if let advice = BLASKernels.advice() { logger.info("note: \(advice)") }
    }

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
            if let progress { hooks.append(ProgressHook(report: progress)) }
            let assigner = setup.loss.assigner
            // The worker turns each batch into the model's input and matches its targets, off the training thread.
            let pipeline = InputPipeline(set: setup.trainSet, batchSize: c.batchSize, seed: c.seed, options: c.augmentation, workers: c.data.workers,
                                         inputSize: c.model.inputSize, startBatch: state.step, slice: (group?.rank ?? 0, group?.size ?? 1)) { batch in
                (images: ModelInput.tensor(batch.images), assigned: assigner.assign(batch.targets))
            }
            defer { pipeline.stop() }
            for hook in hooks { try hook.beforeTraining(self) }
            let parameters = setup.optimizer.allParameters
            var interrupted = false
            while state.step < c.steps {
                let stop = shouldStop()
                if group == nil && stop { interrupted = true; break }
                let batch = try pipeline.next()
                let step = state.step + 1
                var positives = batch.assigned.positiveRows.count
                if let group {
                    // One small sum per step: the batch's positives (the loss's normaliser) and whether any rank must stop.
                    var flags: [Float] = [Float(positives), stop || state.stoppedEarly ? 1 : 0]
                    try group.sum(&flags, count: 2, what: "step \(step): positives and stop flags")
                    if flags[1] > 0 { interrupted = !state.stoppedEarly; break }
                    positives = Int(flags[0])
                }
                setup.optimizer.zeroGrad()
                let loss = setup.loss(images: batch.images, assigned: batch.assigned, positives: positives)
                // In a data-parallel run a rank's loss is its share: a non-finite one shows up in the summed gradients' norm on every rank at once.
                if group == nil, !loss.total.item.isFinite {
                    try stopNonFinite(step: step, what: "the loss is \(loss.total.item) (classification \(loss.classification.item), box \(loss.box.item))")
                }
                loss.total.backward()
                var (total, cls, box) = (loss.total.item, loss.classification.item, loss.box.item)
                if let group { (total, cls, box) = try sumGradients(parameters, over: group, step: step, loss: (total, cls, box)) }
                let norm = clipGradientNorm(parameters, maxNorm: c.optimizer.clipGradNorm ?? .infinity)
                guard norm.isFinite else { try stopNonFinite(step: step, what: "the gradient norm is \(norm) (loss \(total))") }
                let lr = setup.schedule.learningRate(at: state.step)
                setup.optimizer.step(learningRate: lr)
                state.step = step
                if let group, !c.distributed.syncBatchNorm { try shareRunningStatistics(over: group, step: step) }
                var record = StepRecord(step: step, loss: total, classification: cls, box: box, learningRate: lr, images: batch.images.shape[0])
                for hook in hooks { try hook.afterStep(self, &record) }
                if state.stoppedEarly && group == nil { break }
            }
            for hook in hooks { try hook.afterTraining(self, interrupted: interrupted) }
            if let group, group.sumCalls > 0 {
                let perCall = 1000 * group.sumSeconds / Double(group.sumCalls), megabytes = Double(group.sumFloats * 4) / Double(group.sumCalls) / 1e6
                logger.info("\(String(format: "summing over %d ranks: %d calls, %.2f ms each on average (%.2f MB on average; mostly the gradients)", group.size, group.sumCalls, perCall, megabytes))")
            }
            if state.stoppedEarly {
                logger.info("stopped early at step \(state.step): no better validation mAP50 in \(c.patience ?? 0) validations (best \(percent(state.bestMAP50)) at step \(state.bestStep.map(String.init) ?? "-")); checkpoints/best holds it")
            } else if interrupted {
                logger.info("interrupted at step \(state.step) of \(c.steps); checkpoints/last holds it, and --resume goes on from there")
            } else if setup.valSet == nil {
                logger.info("finished \(state.step) steps (no validation data, so no best checkpoint)")
            } else {
                logger.info("finished \(state.step) steps; best validation mAP50 \(percent(state.bestMAP50)) at step \(state.bestStep.map(String.init) ?? "-")")
            }
            return outcome(interrupted: interrupted)
        } catch let error as DistributedError {
            // A rank that cannot reach the others ends the whole job rather than hang it.
            group?.abort("\(error)")
            throw error
        }
    }

    /// Sums every trainable parameter's gradient over the ranks, and the ranks' shares of the
    /// loss with them: one flat buffer, one collective. Returns the whole batch's loss parts.
    private func sumGradients(_ parameters: [Tensor], over group: ProcessGroup, step: Int,
                              loss: (Float, Float, Float)) throws -> (Float, Float, Float) {
        let size = parameters.reduce(0) { $0 + $1.count }
        var flat = [Float](repeating: 0, count: size + 3)
        (flat[size], flat[size + 1], flat[size + 2]) = loss
        var offset = 0
        for p in parameters {
            if let g = p.gradStorageIfAny { flat.withUnsafeMutableBufferPointer { ($0.baseAddress! + offset).update(from: g, count: p.count) } }
            offset += p.count
        }
        try group.sum(&flat, count: flat.count, what: "step \(step): summing gradients")
        offset = 0
        for p in parameters {
            let g = p.gradientCreatingZeros
            flat.withUnsafeBufferPointer { g.update(from: $0.baseAddress! + offset, count: p.count) }
            offset += p.count
        }
        return (flat[size], flat[size + 1], flat[size + 2])
    }

    /// Batch norm per rank: every rank takes rank 0's running statistics, so that all hold the same model.
    private func shareRunningStatistics(over group: ProcessGroup, step: Int) throws {
        let buffers = model.namedBuffers().map(\.tensor)
        var flat = buffers.flatMap(\.scalars)
        try group.broadcast(&flat, count: flat.count, what: "step \(step): running statistics")
        var offset = 0
        for b in buffers {
            b.assign(Array(flat[offset..<(offset + b.count)]))
            offset += b.count
        }
    }

    /// Writes a checkpoint of the current step (weights, optimizer, state) and points `last` (and
    /// `best`) at it. With an EMA the model file holds the average and the state the raw weights.
    public func saveCheckpoint(isBest: Bool) throws {
        state.optimizer = setup.optimizer.state()
        if let ema = setup.ema {
            state.rawWeights = model.namedState().map { NamedTensor(name: $0.name, shape: $0.tensor.shape, values: $0.tensor.scalars) }
            state.emaUpdates = ema.updates
        }
        try folder.checkpoints.save(model: setup.evaluatedModel, classNames: setup.classNames, state: state, isBest: isBest,
                                    weights: setup.ema.map { "ema (decay \($0.decay), \($0.updates) updates)" } ?? "raw")
        lastCheckpointStep = state.step
    }

    /// Redraws `report.html`: the curves logged so far above the latest validation.
    func writeRunPage(points: [TrainingRunPage.Point]) throws {
        let c = config, m = c.model
        let notes = ["\(setup.trainSet.count) training screens, \(setup.valImages.count) validation screens; \(m.inputWidth)x\(m.inputHeight), alpha \(m.alpha), FPN \(m.fpnDepth), "
                     + "\(setup.model.parameterCount) parameters; \(c.optimizer.name.rawValue), learning rate \(c.optimizer.learningRate), batch \(c.batchSize), \(c.steps) steps.",
                     "Validation and best use the \(setup.evaluatedWeights). Best validation mAP50 \(percent(state.bestMAP50)) at step \(state.bestStep.map(String.init) ?? "-")."]
        let latest = latestValidation.map { EvaluationReport($0, title: "Latest validation (step \(state.step))") }
        try TrainingRunPage(title: "Run \(folder.name)", notes: notes, points: points, latestValidation: latest).write(to: folder.reportFile)
    }

    private func outcome(interrupted: Bool) -> TrainingOutcome {
        TrainingOutcome(step: state.step, interrupted: interrupted, bestMAP50: state.bestMAP50, bestStep: state.bestStep, folder: folder.url)
    }

    private func stopNonFinite(step: Int, what: String) throws -> Never {
        let error = TrainingError.nonFinite(step: step, what: what, lastCheckpoint: lastCheckpointStep, folder: folder.path)
        // Into train.log only: the command line reports the error itself.
        logger.debug("error: \(error)")
        throw error
    }
}

/// Percent with one decimal, or "-".
func percent(_ v: Double?) -> String { v.map { String(format: "%.1f", 100 * $0) } ?? "-" }

extension SSDModel {
    /// Loads the parameters and running statistics of a weights file written by `DetectorWeights`.
    func loadWeights(from url: URL) throws {
        let (tensors, _) = try Safetensors.read(url)
        var values: [String: (shape: [Int], values: [Float])] = [:]
        for t in tensors { values[t.name] = (t.shape, t.values) }
        do { try load(values) } catch { throw CheckpointError(path: url.path, problem: "\(error)") }
    }
}
