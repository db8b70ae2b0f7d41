import Checkpoints
import ConfigFiles
import Engine
import Foundation
import Glyphs
import IconRecognition
import IconVocabulary
import Images
import Layers
import Logging
import Optimizers
import Outputs
import Reports
import SeededRandom

/// Trains the icon classifier (`uidetect train-icon-classifier`) with the run conventions of a
/// detector's run: a run folder (config.yaml, train.log, metrics.csv, checkpoints with `last` and
/// `best`, report.html), progress with the time left, and resume. Crops are rendered from the
/// glyphs of the training families (`IconSamples`); validation crops come from glyphs held out of
/// training (whole names: Font Awesome and Fork Awesome share theirs), and from whole families
/// held out when the config names some. The best validation top-1 accuracy is kept; at the end
/// its threshold is picked for the target label precision and `icon-classifier.safetensors`
/// written into the run folder. With `ema.enabled` the moving average of the weights is what is
/// validated, kept and written; checkpoints hold the trained weights beside it, as a detector's do.
public final class IconClassifierTrainer {
    public static let columns = ["step", "loss", "learning_rate", "icons_per_second", "val_loss", "val_top1_fraction",
                                 "val_label_precision_fraction", "val_coverage_fraction", "held_out_top1_fraction"]

    public let config: IconRunConfig
    public let folder: RunFolder
    public let logger: Logger
    /// The weights the optimizer trains.
    public let network: IconNet
    /// Their moving average (when `ema.enabled`) and what moves it.
    let average: IconNet?
    let ema: WeightAverage?
    public private(set) var state: TrainingState
    let optimizer: Optimizer
    let schedule: LearningRateSchedule
    let training: IconSamples
    /// `other`'s weight when types are ranked (`IconClassifier.otherWeight`), from the training crops' shares.
    let otherWeight: Float
    let validation: IconValidationSet
    let heldOut: IconValidationSet?
    let store: CheckpointStore
    let log: StepLog
    private var lock: RunLock?

    /// A new run of `given` in `url`, or with `resume` the run there (`given`, if any, must be its
    /// config, or extend it with more steps).
    public init(config given: IconRunConfig?, folder url: URL, resume: Bool, logger: Logger) throws {
        let config: IconRunConfig
        if resume {
            let existing = try RunFolder.requireRun(url)
            let saved = try IconConfigLoader.load(yaml: try existing.configText(), source: existing.configFile.path)
            config = given ?? saved
            var comparable = config
            comparable.steps = saved.steps
            if comparable != saved || config.steps < saved.steps {
                throw TrainingError.configChanged(url.path, keys: StrictConfig<IconRunConfig>.differingKeys(saved, config))
            }
            lock = try RunLock(existing)
            if config.steps != saved.steps { try existing.recordExtension(yaml: try IconConfigLoader.yaml(config)) }
        } else {
            guard let given else { throw TrainingError.notARun(url.path, holds: []) }
            config = given
            try RunFolder.ensureFree(url)
        }
        self.config = config
        self.logger = logger
        let families = (config.data.families + config.data.heldOutFamilies).compactMap(GlyphFamily.init(rawValue:))
        let catalog = try GlyphCatalog(families: families)
        let trainedFamilies = Set(config.data.families.compactMap(GlyphFamily.init(rawValue:)))
        let held = Self.validationNames(catalog, families: trainedFamilies, share: config.data.validationGlyphs, seed: config.seed)
        training = IconSamples(catalog: catalog, seed: config.seed, options: config.samples) { trainedFamilies.contains($0.family) && !held.contains($0.names[0]) }
        otherWeight = config.balanceOther
            ? IconClassifier.balancedOtherWeight(otherShare: config.samples.otherShare, types: training.namedTypes.count) : 1
        var g = SeededGenerator(seed: config.seed)
        network = IconNet(config: config.model.network, generator: &g)
        optimizer = TrainingSetup.optimizer(config.optimizer, parameters: network.namedParameters())
        if config.ema.enabled {
            let copy = IconNet(config: config.model.network, generator: &g)
            average = copy
            ema = WeightAverage(values: network.namedState().map(\.tensor), averages: copy.namedState().map(\.tensor),
                                decay: config.ema.decay, warmupSteps: config.ema.warmupSteps)
        } else {
            (average, ema) = (nil, nil)
        }
        schedule = TrainingSetup.schedule(config.schedule, learningRate: config.optimizer.learningRate, steps: config.steps)
        let side = config.model.inputSide
        let validationSamples = IconSamples(catalog: catalog, seed: config.seed ^ 0x5A11D, options: config.samples) {
            trainedFamilies.contains($0.family) && held.contains($0.names[0])
        }
        validation = try IconValidationSet(samples: validationSamples, count: config.data.validationSamples, side: side, batchSize: config.batchSize)
        if config.data.heldOutFamilies.isEmpty {
            heldOut = nil
        } else {
            let outside = Set(config.data.heldOutFamilies.compactMap(GlyphFamily.init(rawValue:)))
            heldOut = try IconValidationSet(samples: IconSamples(catalog: catalog, seed: config.seed ^ 0x4E1D, options: config.samples) { outside.contains($0.family) },
                                            count: config.data.validationSamples, side: side, batchSize: config.batchSize)
        }
        state = TrainingState(step: 0, bestScore: nil, bestStep: nil, optimizer: [:])
        if !resume { lock = try RunFolder.create(url, configYAML: try IconConfigLoader.yaml(config)).lock }
        folder = RunFolder(url)
        store = CheckpointStore(folder: folder.checkpoints.folder, modelFile: IconClassifier.fileName)
        log = StepLog(url: folder.metricsFile, columns: Self.columns)
        store.prune()
        if let (saved, weights) = try store.loadLast() {
            try Self.load(weights, into: evaluated)
            if let ema {
                let stateFile = store.last.appendingPathComponent(CheckpointStore.stateFile).path
                guard !saved.rawWeights.isEmpty else { throw CheckpointError(path: stateFile, problem: "no raw weights beside the moving average") }
                do { try network.load(Dictionary(uniqueKeysWithValues: saved.rawWeights.map { ($0.name, ($0.shape, $0.values)) })) } catch {
                    throw CheckpointError(path: stateFile, problem: "\(error)")
                }
                ema.resume(updates: saved.emaUpdates)
            }
            try optimizer.loadState(saved.optimizer)
            guard saved.step <= config.steps else { throw CheckpointError(path: store.last.path, problem: "holds step \(saved.step), past the run's \(config.steps) steps") }
            state = saved
            try log.truncate(after: saved.step)
            logger.info("resumed at step \(saved.step) of \(config.steps) from \(store.last.path)")
        } else {
            try log.start()
        }
        let trainingGlyphs = training.pools.reduce(0) { $0 + $1.count }, validationGlyphs = validationSamples.pools.reduce(0) { $0 + $1.count }
        let outside = config.data.heldOutFamilies.isEmpty ? "" : "; families never trained on: \(config.data.heldOutFamilies.joined(separator: ", "))"
        logger.info("icon classifier \(folder.path): \(trainingGlyphs) training glyphs of \(config.data.families.joined(separator: ", ")), \(validationGlyphs) held out for \(config.data.validationSamples) validation crops\(outside)")
        let averaged = config.ema.enabled ? "; validated and written: the moving average of the weights (decay \(config.ema.decay), warm-up \(config.ema.warmupSteps) steps)" : ""
        logger.info("network: \(side)x\(side) ink maps, width \(config.model.width), \(network.parameterCount) parameters, \(IconVocabulary.types.count) types; \(config.optimizer.name.rawValue) at \(config.optimizer.learningRate), batch \(config.batchSize), \(config.steps) steps, OpenBLAS \(BLASKernels.current) kernels\(averaged)")
    }

    /// Glyph names kept for validation: a share of each type's names, chosen by the seed, whole names across families.
    static func validationNames(_ catalog: GlyphCatalog, families: Set<GlyphFamily>, share: Double, seed: UInt64) -> Set<String> {
        var out: Set<String> = []
        for type in IconVocabulary.types {
            let names = Array(Set(catalog.glyphs(of: type).filter { families.contains($0.family) }.map { $0.names[0] })).sorted()
            guard names.count >= 2 else { continue }
            var g = SeededGenerator(seed: seed ^ 0x7A11, index: UInt64(type.index))
            var shuffled = names
            for i in stride(from: shuffled.count - 1, to: 0, by: -1) { shuffled.swapAt(i, Int(g.next() % UInt64(i + 1))) }
            out.formUnion(shuffled.prefix(max(1, Int((Double(names.count) * share).rounded()))))
        }
        return out
    }

    /// The network validated and written: the moving average when there is one.
    var evaluated: IconNet { average ?? network }

    static func load(_ url: URL, into network: IconNet) throws {
        let classifier = try IconClassifier(contentsOf: url)
        var values: [String: (shape: [Int], values: [Float])] = [:]
        for (name, t) in classifier.network.namedState() { values[name] = (t.shape, t.scalars) }
        do { try network.load(values) } catch { throw CheckpointError(path: url.path, problem: "\(error)") }
    }

    /// How a session ended, with the final figures when the run completed.
    public struct Outcome {
        public var step: Int
        public var interrupted: Bool
        /// The classifier file written at the end of a completed run.
        public var classifier: URL?
        public var threshold: Float?
        public var validation: IconEvaluation?
        public var heldOut: IconEvaluation?
    }

    /// Trains until `config.steps` or until `shouldStop()` says so before a step.
    public func run(shouldStop: () -> Bool = { false }, progress: ((StepReport) -> Void)? = nil) throws -> Outcome {
        defer { lock = nil }
        let threads = config.threads == 0 ? Parallel.defaultThreadCount : config.threads
        return try Parallel.withThreads(threads) { try loop(shouldStop: shouldStop, progress: progress) }
    }

    private func loop(shouldStop: () -> Bool, progress: ((StepReport) -> Void)?) throws -> Outcome {
        let c = config
        guard state.step < c.steps else {
            logger.info("the run is already complete (step \(state.step) of \(c.steps))")
            return try finish()
        }
        let batches = try IconBatches(samples: training, batchSize: c.batchSize, side: c.model.inputSide, startBatch: state.step, workers: c.data.workers)
        defer { batches.stop() }
        let parameters = optimizer.allParameters
        var interrupted = false, savedStep: Int? = state.step > 0 ? state.step : nil
        let sessionStart = monotonicSeconds()
        var windowStart = sessionStart, pausedSeconds = 0.0, sessionSteps = 0
        while state.step < c.steps {
            if shouldStop() { interrupted = true; break }
            let batch = batches.next()
            let step = state.step + 1
            optimizer.zeroGrad()
            let loss = network.logits(batch.inputs, mode: .training).softmaxCrossEntropy(labels: batch.labels, smoothing: c.labelSmoothing)
            guard loss.item.isFinite else {
                throw TrainingError.nonFinite(step: step, what: "the loss is \(loss.item)", lastCheckpoint: store.lastStep, folder: folder.path)
            }
            loss.backward()
            _ = clipGradientNorm(parameters, maxNorm: c.optimizer.clipGradNorm ?? .infinity)
            let lr = schedule.learningRate(at: state.step)
            optimizer.step(learningRate: lr)
            ema?.update()
            state.step = step
            sessionSteps += 1
            state.window.steps += 1
            state.window.loss += Double(loss.item)
            var scores: (validation: ValidationFigures, heldOut: ValidationFigures?)? = nil
            var isBest = false
            if (c.evalInterval > 0 && step % c.evalInterval == 0) || step == c.steps {
                let start = monotonicSeconds()
                let v = figures(validation)
                scores = (v, heldOut.map { figures($0, threshold: v.evaluation.threshold) })
                if let top1 = scores!.validation.evaluation.top1Accuracy, top1 > (state.bestScore ?? -1) {
                    (state.bestScore, state.bestStep, isBest) = (top1, step, true)
                }
                pausedSeconds += monotonicSeconds() - start
            }
            if step % c.logInterval == 0 || step == c.steps || scores != nil {
                let w = state.window
                let rate = Double(w.steps * c.batchSize) / max(1e-9, monotonicSeconds() - windowStart - pausedSeconds)
                let v = scores?.validation
                let f = StepLog.field
                try log.append([String(step), f(w.loss / Double(w.steps)), "\(lr)", String(format: "%.1f", rate), f(v?.loss), f(v?.evaluation.top1Accuracy),
                                f(v?.evaluation.labelPrecision), f(v?.evaluation.coverage), f(scores?.heldOut?.evaluation.top1Accuracy)])
                logger.info("\(String(format: "step %d/%d  loss %.4f  lr %.5f  %.0f icons/s", step, c.steps, w.loss / Double(w.steps), lr, rate))")
                if let v {
                    let threshold = String(format: "%.3f", v.evaluation.threshold), loss = String(format: "%.4f", v.loss)
                    let held = scores!.heldOut.map { "; " + heldOutText($0) } ?? ""
                    let best = "best \(percent(state.bestScore)) at step \(state.bestStep.map(String.init) ?? "-")"
                    logger.info("step \(step): validation loss \(loss), top-1 \(percent(v.evaluation.top1Accuracy)), at threshold \(threshold) label precision \(percent(v.evaluation.labelPrecision)) with coverage \(percent(v.evaluation.coverage))\(held) (\(best))")
                }
                state.window = MetricsWindow()
                (windowStart, pausedSeconds) = (monotonicSeconds(), 0)
            }
            if step % c.checkpointInterval == 0 || step == c.steps || isBest {
                try save(isBest: isBest, threshold: scores?.validation.evaluation.threshold)
                savedStep = step
            }
            if let progress {
                let perStep = (monotonicSeconds() - sessionStart) / Double(sessionSteps)
                progress(StepReport(step: step, steps: c.steps, loss: loss.item, classificationLoss: loss.item, boxLoss: 0, learningRate: lr,
                                    imagesPerSecond: Double(c.batchSize) / max(1e-9, perStep), secondsLeft: perStep * Double(c.steps - step)))
            }
        }
        if savedStep != state.step { try save(isBest: false, threshold: nil) }
        if interrupted {
            logger.info("interrupted at step \(state.step) of \(c.steps); checkpoints/last holds it, and --resume goes on from there")
            return Outcome(step: state.step, interrupted: true)
        }
        return try finish()
    }

    /// One validation: predictions, the cross-entropy, and the figures at the threshold that keeps the
    /// target precision there (or at `threshold`: the held-out families at validation's).
    struct ValidationFigures {
        var predictions: [IconPrediction]
        var loss: Double
        var evaluation: IconEvaluation
    }

    func figures(_ set: IconValidationSet, threshold fixed: Float? = nil) -> ValidationFigures {
        var predictions: [IconPrediction] = [], lossSum = 0.0
        var offset = 0
        Autodiff.withoutTape {
            for x in set.inputs {
                let n = x.shape[0]
                let logits = evaluated.logits(x, mode: .inference)
                lossSum += Double(logits.softmaxCrossEntropy(labels: set.truths[offset..<(offset + n)].map { Int32($0.index) }).item) * Double(n)
                let p = logits.softmaxProbabilities(), k = IconVocabulary.types.count
                predictions += (0..<n).map {
                    IconClassifier.prediction(IconClassifier.balanced(Array(p[$0 * k..<($0 + 1) * k]), otherWeight: otherWeight), threshold: 1)
                }
                offset += n
            }
        }
        let threshold = fixed ?? IconEvaluation.threshold(predictions: predictions, truths: set.truths, precision: config.targetPrecision,
                                                          confidence: config.thresholdConfidence)
        let named = predictions.map { IconClassifier.prediction($0.probabilities, threshold: threshold) }
        return ValidationFigures(predictions: named, loss: lossSum / Double(max(1, set.truths.count)),
                                 evaluation: IconEvaluation(predictions: named, truths: set.truths, threshold: threshold))
    }

    private func save(isBest: Bool, threshold: Float?) throws {
        var s = state
        s.optimizer = optimizer.state()
        if let ema {
            s.rawWeights = network.namedState().map { NamedTensor(name: $0.name, shape: $0.tensor.shape, values: $0.tensor.scalars) }
            s.emaUpdates = ema.updates
        }
        try store.save(step: s.step, isBest: isBest) { stepFolder in
            try IconClassifier(network: evaluated, threshold: threshold ?? 0.5, otherWeight: otherWeight, step: s.step).write(to: stepFolder.appendingPathComponent(IconClassifier.fileName))
            try s.write(to: stepFolder.appendingPathComponent(CheckpointStore.stateFile))
        }
    }

    /// The best checkpoint's weights, its threshold picked on the validation crops, written as
    /// `icon-classifier.safetensors` with the run's page.
    private func finish() throws -> Outcome {
        let bestFile = store.best.appendingPathComponent(IconClassifier.fileName)
        if FileManager.default.fileExists(atPath: bestFile.path) { try Self.load(bestFile, into: evaluated) }
        let v = figures(validation)
        let held = heldOut.map { figures($0, threshold: v.evaluation.threshold) }
        let threshold = v.evaluation.threshold
        let url = folder.url.appendingPathComponent(IconClassifier.fileName)
        let e = v.evaluation
        let extra: [String: String] = ["validation_top1": "\(e.top1Accuracy ?? 0)", "validation_label_precision": "\(e.labelPrecision ?? 0)",
                                       "validation_coverage": "\(e.coverage ?? 0)"]
        try IconClassifier(network: evaluated, threshold: threshold, otherWeight: otherWeight, step: state.bestStep ?? state.step).write(to: url, extra: extra)
        let heldText = held.map { "; " + heldOutText($0) } ?? ""
        let thresholdText = String(format: "%.3f", threshold)
        let weights = average == nil ? "" : " (the moving average of the weights)"
        logger.info("wrote \(url.path): step \(state.bestStep ?? state.step)\(weights), threshold \(thresholdText) keeps label precision \(percent(e.labelPrecision)) (target \(percent(config.targetPrecision)) at \(percent(config.thresholdConfidence))% confidence) with coverage \(percent(e.coverage)); validation top-1 \(percent(e.top1Accuracy))\(heldText)")
        try writePage(threshold: threshold, validation: v, heldOut: held)
        return Outcome(step: state.step, interrupted: false, classifier: url, threshold: threshold, validation: v.evaluation, heldOut: held?.evaluation)
    }

    /// The held-out families' figures at validation's threshold: how far the threshold carries over to designs never trained on.
    private func heldOutText(_ f: ValidationFigures) -> String {
        let e = f.evaluation
        return "held-out families top-1 \(percent(e.top1Accuracy)), at this threshold label precision \(percent(e.labelPrecision)) with coverage \(percent(e.coverage))"
    }

    private func writePage(threshold: Float, validation v: ValidationFigures, heldOut held: ValidationFigures?) throws {
        func figures(_ name: String, _ f: ValidationFigures, _ set: IconValidationSet) -> IconClassifierPage.Figures {
            let e = f.evaluation
            let confused = e.worstConfusions(12).map { c in
                (truth: c.truth, named: c.named, times: c.times,
                 crops: Array(zip(set.crops, zip(set.truths, f.predictions)).filter { $0.1.0 == c.truth && $0.1.1.top[0].type == c.named }.map(\.0).prefix(6)))
            }
            return .init(name: name, crops: e.crops, top1: e.top1Accuracy, labelPrecision: e.labelPrecision, coverage: e.coverage,
                         perType: e.perType, confusion: e.confusion, confused: confused)
        }
        let points = log.rows().compactMap { r -> IconClassifierPage.Point? in
            guard let step = r[0], let loss = r[1] else { return nil }
            return .init(step: Int(step), loss: loss, validationLoss: r[4], validationTop1: r[5], heldOutTop1: r[8])
        }
        let notes = ["Families trained on: \(config.data.families.joined(separator: ", ")); \(config.data.validationSamples) validation crops of glyphs held out of training"
                     + (config.data.heldOutFamilies.isEmpty ? "." : "; families never trained on: \(config.data.heldOutFamilies.joined(separator: ", ")).")
                     + " Weights of step \(state.bestStep ?? state.step) (best validation top-1)\(average == nil ? "" : ", their moving average")."]
        let page = IconClassifierPage(title: "Icon classifier \(folder.name)", notes: notes, points: points, threshold: threshold,
                                      figures: [figures("validation glyphs", v, validation)] + (held.map { [figures("held-out families", $0, heldOut!)] } ?? []))
        try page.write(to: folder.reportFile)
    }
}
