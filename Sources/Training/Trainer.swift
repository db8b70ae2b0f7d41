import Boxes
import Checkpoints
import Detection
import Engine
import Evaluation
import Foundation
import Layers
import Optimizers
import Reports
import Shards
import Yams

/// Why a run stopped early or could not start.
public enum TrainingError: Error, CustomStringConvertible {
    case runExists(String)
    case notARun(String)
    case configChanged(String, keys: [String])
    case nonFinite(step: Int, what: String, lastCheckpoint: Int?, folder: String)

    public var description: String {
        switch self {
        case .runExists(let path):
            return "\(path) already exists: pass --resume to continue that run, or choose another --name"
        case .notARun(let path):
            return "\(path): not a run folder to resume (no config.yaml); start it without --resume"
        case .configChanged(let path, let keys):
            return "\(path)/config.yaml: the run was started with another config (differs at \(keys.joined(separator: ", "))); a resumed run keeps its config"
        case .nonFinite(let step, let what, let last, let folder):
            let kept = last.map { "the last good checkpoint (step \($0)) is kept in \(folder)/checkpoints/last" } ?? "no checkpoint had been written yet"
            return "step \(step): \(what); training stopped, \(kept). Try a lower optimizer.learning_rate or optimizer.clip_grad_norm."
        }
    }
}

/// A run's progress after a step, for a progress line.
public struct StepReport {
    public var step: Int
    public var steps: Int
    public var loss: Float
    public var classificationLoss: Float
    public var boxLoss: Float
    public var learningRate: Float
    public var imagesPerSecond: Double
    public var secondsLeft: Double
}

/// How a run ended.
public struct TrainingOutcome {
    public var step: Int
    public var interrupted: Bool
    public var bestMAP50: Double?
    public var bestStep: Int?
    public var folder: URL
}

/// A training run in its folder: the resolved config (written once), `train.log`,
/// `metrics.csv`, `checkpoints/` (`last`, `best`) and `validation/` (the latest evaluation).
public final class Trainer {
    public let config: RunConfig
    public let folder: URL
    public let detector: SSDDetector
    public let classNames: [String]
    public let classWeights: [Float]
    public private(set) var state: TrainingState
    let optimizer: Optimizer
    let schedule: LearningRateSchedule
    let trainSet: ShardSet
    let valSet: ShardSet?
    let valImages: [GroundTruthImage]
    let store: CheckpointStore
    let metrics: MetricsFile
    private let echo: (String) -> Void
    private var lastSavedStep: Int?

    /// Prepares a run: a new folder (refused if it exists) or, with `resume`, the folder's
    /// own config and its `last` checkpoint. `echo` gets every log line as it is written.
    public init(config given: RunConfig?, folder: URL, resume: Bool, echo: @escaping (String) -> Void = { _ in }) throws {
        self.folder = folder
        self.echo = echo
        let fm = FileManager.default
        let configURL = folder.appendingPathComponent("config.yaml")
        if resume {
            guard let text = try? String(contentsOf: configURL, encoding: .utf8) else { throw TrainingError.notARun(folder.path) }
            let saved = try ConfigLoader.load(yaml: text, source: configURL.path)
            config = saved
            let differing = given.map { Self.differingKeys(saved, $0) } ?? []
            guard differing.isEmpty else { throw TrainingError.configChanged(folder.path, keys: differing) }
        } else {
            if fm.fileExists(atPath: folder.path), !((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty {
                throw TrainingError.runExists(folder.path)
            }
            guard let given else { throw TrainingError.notARun(folder.path) }
            config = given
        }
        let c = config
        if let p = c.problems().first { throw ConfigError(source: "config", key: p.key, problem: p.problem) }

        // Everything that can be wrong with the data is found before any work starts.
        func open(_ specs: [String], key: String) throws -> ShardSet {
            do { return try ShardSet(specs) } catch { throw ConfigError(source: "config", key: key, problem: "\(error)") }
        }
        trainSet = try open(c.data.train, key: "data.train")
        guard trainSet.count > 0 else { throw ConfigError(source: "config", key: "data.train", problem: "the shards hold no screens") }
        classNames = trainSet.classNames
        guard classNames.count == c.model.numClasses else {
            throw ConfigError(source: "config", key: "model.num_classes",
                              problem: "is \(c.model.numClasses) but the training shards have \(classNames.count) classes (\(classNames.joined(separator: ", ")))")
        }
        if c.data.val.isEmpty {
            valSet = nil
            valImages = []
        } else {
            let v = try open(c.data.val, key: "data.val")
            guard v.classNames == classNames else {
                throw ConfigError(source: "config", key: "data.val", problem: "the validation shards' classes (\(v.classNames.joined(separator: ", "))) differ from the training shards'")
            }
            valSet = v
            let limit = min(v.count, c.data.valLimit ?? v.count)
            valImages = Array(try EvaluationLoader.groundTruth(v, classMap: nil).images.prefix(limit))
        }

        var counts = [Int](repeating: 0, count: classNames.count)
        for r in trainSet.readers { for l in r.labels { counts[Int(l)] += 1 } }
        classWeights = c.loss.balance.weights(counts: counts)

        var g = SeededGenerator(seed: c.seed)
        let model = SSDModel(config: c.model, generator: &g)
        detector = SSDDetector(model: model, classWeights: classWeights)
        detector.focalAlpha = c.loss.focalAlpha
        detector.focalGamma = c.loss.focalGamma
        detector.smoothL1Beta = c.loss.smoothL1Beta
        detector.boxLossWeight = c.loss.boxLossWeight

        // Weight decay on conv weights only: biases and batch-norm scale and shift are left alone.
        let named = model.namedParameters()
        let decayed = named.filter { $0.tensor.shape.count == 4 }.map(\.tensor)
        let plain = named.filter { $0.tensor.shape.count != 4 }.map(\.tensor)
        let groups = [ParameterGroup(parameters: decayed, weightDecay: c.optimizer.weightDecay), ParameterGroup(parameters: plain, weightDecay: 0)]
        switch c.optimizer.name {
        case .sgd: optimizer = SGD(groups: groups, momentum: c.optimizer.momentum, nesterov: c.optimizer.nesterov)
        case .adamw: optimizer = AdamW(groups: groups, beta1: c.optimizer.beta1, beta2: c.optimizer.beta2, epsilon: c.optimizer.epsilon)
        }
        let s = c.schedule, lr = c.optimizer.learningRate
        switch s.name {
        case .warmupCosine:
            schedule = WarmupCosine(base: lr, warmupSteps: s.warmupSteps, totalSteps: c.steps, warmupFactor: s.warmupFactor, minimum: s.minLearningRate)
        case .step:
            schedule = StepDecay(base: lr, milestones: s.milestones, gamma: s.gamma, warmupSteps: s.warmupSteps, warmupFactor: s.warmupFactor)
        case .constant:
            schedule = StepDecay(base: lr, milestones: [], gamma: 1, warmupSteps: s.warmupSteps, warmupFactor: s.warmupFactor)
        }

        store = CheckpointStore(folder: folder.appendingPathComponent("checkpoints"))
        metrics = MetricsFile(url: folder.appendingPathComponent("metrics.csv"))
        state = TrainingState(step: 0, bestMAP50: nil, bestStep: nil, optimizer: [:])
        if resume {
            guard let (saved, weights) = try store.loadLast() else {
                throw CheckpointError(path: store.last.path, problem: "the run has no checkpoint to resume from; start it again without --resume")
            }
            let (tensors, _) = try Checkpoints.Safetensors.read(weights)
            var values: [String: (shape: [Int], values: [Float])] = [:]
            for t in tensors { values[t.name] = (t.shape, t.values) }
            do { try model.load(values) } catch { throw CheckpointError(path: weights.path, problem: "\(error)") }
            do { try optimizer.loadState(saved.optimizer) } catch {
                throw CheckpointError(path: store.last.appendingPathComponent(CheckpointStore.stateFile).path, problem: "\(error)")
            }
            state = saved
            lastSavedStep = saved.step
            try metrics.truncate(after: saved.step)
            log("resumed at step \(saved.step) of \(c.steps) from \(store.last.path)")
        } else {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(try ConfigLoader.yaml(c).utf8).write(to: configURL, options: .atomic)
            try metrics.start()
            log("run \(folder.path): \(trainSet.count) training screens, \(valSet.map { "\(valImages.count) of \($0.count)" } ?? "no") validation screens")
        }
        log("model: \(c.model.inputWidth)x\(c.model.inputHeight), alpha \(c.model.alpha), FPN \(c.model.fpnDepth), \(c.model.headLayers) head layers, "
            + "levels \(c.model.minLevel)-\(c.model.maxLevel): \(model.parameterCount) parameters, \(detector.anchors.count) anchors per image")
        log("class weights (\(c.loss.classBalance.rawValue)) from the training shards' box counts:")
        for (k, name) in classNames.enumerated() {
            log("  " + name.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%8d boxes   weight %.4f", counts[k], classWeights[k]))
        }
        log("optimizer \(c.optimizer.name.rawValue), learning rate \(c.optimizer.learningRate) (\(c.schedule.name.rawValue)), batch \(c.batchSize), "
            + "\(c.steps) steps, \(c.threads == 0 ? Parallel.defaultThreadCount : c.threads) threads")
    }

    /// Trains until `config.steps` or until `shouldStop()` says so after a step; then writes
    /// `last`. A non-finite loss or gradient stops with `TrainingError.nonFinite`, leaving the
    /// last good checkpoint as it was.
    public func run(shouldStop: () -> Bool = { false }, progress: (StepReport) -> Void = { _ in }) throws -> TrainingOutcome {
        try Parallel.withThreads(config.threads) { try runLoop(shouldStop: shouldStop, progress: progress) }
    }

    private func runLoop(shouldStop: () -> Bool, progress: (StepReport) -> Void) throws -> TrainingOutcome {
        let c = config
        if state.step >= c.steps {
            log("the run is already complete (step \(state.step) of \(c.steps))")
            return TrainingOutcome(step: state.step, interrupted: false, bestMAP50: state.bestMAP50, bestStep: state.bestStep, folder: folder)
        }
        let pipeline = InputPipeline(set: trainSet, batchSize: c.batchSize, seed: c.seed, options: c.augmentation, workers: c.data.workers,
                                     inputSize: c.model.inputSize, startBatch: state.step)
        defer { pipeline.stop() }
        let input = c.model.inputSize
        let parameters = optimizer.allParameters
        let sessionStart = monotonicSeconds()
        var sessionSteps = 0, evaluationSeconds = 0.0
        var window = (steps: 0, loss: 0.0, classification: 0.0, box: 0.0, start: monotonicSeconds())
        var interrupted = false
        while state.step < c.steps {
            if shouldStop() { interrupted = true; break }
            let batch = try pipeline.next()
            let images = Tensor(shape: [batch.count, input.height, input.width, 3], values: batch.pixels)
            optimizer.zeroGrad()
            let assigned = detector.assignTargets(batch.targets)
            let loss = detector.loss(images: images, assigned: assigned)
            let total = loss.total.scalars[0], cls = loss.classification.scalars[0], box = loss.box.scalars[0]
            let step = state.step + 1
            guard total.isFinite else { try stopNonFinite(step: step, what: "the loss is \(total) (classification \(cls), box \(box))") }
            loss.total.backward()
            let norm = clipGradientNorm(parameters, maxNorm: c.optimizer.clipGradNorm ?? .infinity)
            guard norm.isFinite else { try stopNonFinite(step: step, what: "the gradient norm is \(norm) (loss \(total))") }
            let lr = schedule.learningRate(at: state.step)
            optimizer.step(learningRate: lr)
            state.step = step
            sessionSteps += 1

            window.steps += 1; window.loss += Double(total); window.classification += Double(cls); window.box += Double(box)
            var evaluated: (map50: Double?, mapCenter: Double?)? = nil
            var isBest = false
            if valSet != nil && ((c.evalInterval > 0 && step % c.evalInterval == 0) || step == c.steps) {
                let t0 = monotonicSeconds()
                evaluated = try validate()
                evaluationSeconds += monotonicSeconds() - t0
                if let m = evaluated?.map50, m > (state.bestMAP50 ?? -1) {
                    state.bestMAP50 = m
                    state.bestStep = step
                    isBest = true
                }
            }
            let now = monotonicSeconds()
            let rate = Double(window.steps * c.batchSize) / max(1e-9, now - window.start)
            let perStep = (now - sessionStart - evaluationSeconds) / Double(sessionSteps)
            if step % c.logInterval == 0 || step == c.steps || evaluated != nil {
                let n = Double(window.steps)
                try metrics.append(step: step, loss: window.loss / n, classification: window.classification / n, box: window.box / n,
                                   learningRate: lr, imagesPerSecond: rate, map50: evaluated?.map50, mapCenter: evaluated?.mapCenter)
                log(String(format: "step %d/%d  loss %.4f (class %.4f, box %.4f)  lr %.5f  %.1f images/s", step, c.steps,
                           window.loss / n, window.classification / n, window.box / n, lr, rate))
                if let e = evaluated {
                    log(String(format: "step %d: validation mAP50 %@, mAP-center %@ (best %@ at step %d)", step,
                               percent(e.map50), percent(e.mapCenter), percent(state.bestMAP50), state.bestStep ?? 0))
                }
                window = (0, 0, 0, 0, monotonicSeconds())
            }
            if step % c.checkpointInterval == 0 || step == c.steps || isBest {
                try save(isBest: isBest)
            }
            progress(StepReport(step: step, steps: c.steps, loss: total, classificationLoss: cls, boxLoss: box, learningRate: lr,
                                imagesPerSecond: rate, secondsLeft: perStep * Double(c.steps - step)))
        }
        if interrupted {
            if lastSavedStep != state.step { try save(isBest: false) }
            log("interrupted at step \(state.step) of \(c.steps); checkpoints/last holds it, and --resume goes on from there")
        } else {
            log(String(format: "finished %d steps; best validation mAP50 %@ at step %d", state.step, percent(state.bestMAP50), state.bestStep ?? 0))
        }
        return TrainingOutcome(step: state.step, interrupted: interrupted, bestMAP50: state.bestMAP50, bestStep: state.bestStep, folder: folder)
    }

    /// Runs the detector on the validation screens and writes the evaluation into `validation/`.
    func validate() throws -> (map50: Double?, mapCenter: Double?) {
        guard let valSet else { return (nil, nil) }
        let dets = try ShardInference.detections(detector, set: valSet, indices: Array(0..<valImages.count), batchSize: config.batchSize)
        let out = folder.appendingPathComponent("validation")
        let input = EvaluationInput(classNames: classNames, images: valImages, detections: dets)
        let summary = Evaluator().summarize(input)
        try EvaluationFiles.write(summary, to: out)
        try EvaluationReport(summary, title: "Validation of \(folder.lastPathComponent) at step \(state.step)").write(to: out.appendingPathComponent("report.html"))
        try DetectionsFile.write(dets, classNames: classNames, to: out.appendingPathComponent("detections.json"))
        appendToLog(EvaluationTable.render(summary))
        return (summary.result.map50, summary.result.mapCenter)
    }

    private func save(isBest: Bool) throws {
        state.optimizer = optimizer.state()
        try store.save(model: detector.model, classNames: classNames, state: state, isBest: isBest)
        lastSavedStep = state.step
    }

    private func stopNonFinite(step: Int, what: String) throws -> Never {
        let error = TrainingError.nonFinite(step: step, what: what, lastCheckpoint: lastSavedStep, folder: folder.path)
        appendToLog("error: \(error)")
        throw error
    }

    private func percent(_ v: Double?) -> String { v.map { String(format: "%.1f", 100 * $0) } ?? "-" }

    private func log(_ line: String) {
        appendToLog(line)
        echo(line)
    }

    private func appendToLog(_ text: String) {
        let url = folder.appendingPathComponent("train.log")
        let stamp = ISO8601DateFormatter().string(from: Date())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { "\(stamp) \($0)\n" }.joined()
        if let handle = try? FileHandle(forWritingTo: url) {
            handle.seekToEndOfFile()
            handle.write(Data(lines.utf8))
            try? handle.close()
        } else {
            try? Data(lines.utf8).write(to: url)
        }
    }

    /// The dotted keys at which two configs differ.
    static func differingKeys(_ a: RunConfig, _ b: RunConfig) -> [String] {
        guard a != b, let na = try? Yams.compose(yaml: ConfigLoader.yaml(a)), let nb = try? Yams.compose(yaml: ConfigLoader.yaml(b)) else { return [] }
        var out: [String] = []
        func walk(_ x: Node?, _ y: Node?, _ path: [String]) {
            if case .mapping(let mx)? = x, case .mapping(let my)? = y {
                let keys = Set(mx.keys.compactMap(\.string) + my.keys.compactMap(\.string))
                for k in keys.sorted() { walk(mx[k], my[k], path + [k]) }
                return
            }
            let sx = x.flatMap { try? Yams.serialize(node: $0) }, sy = y.flatMap { try? Yams.serialize(node: $0) }
            if sx != sy { out.append(path.joined(separator: ".")) }
        }
        walk(na, nb, [])
        return out
    }
}

/// `metrics.csv`: one row per logged step; validation columns empty when not evaluated.
struct MetricsFile {
    let url: URL
    static let header = "step,loss,classification_loss,box_loss,learning_rate,images_per_second,val_map50,val_map_center\n"

    func start() throws { try Data(Self.header.utf8).write(to: url, options: .atomic) }

    /// Drops rows after `step` (logged by a session that stopped before its next checkpoint).
    func truncate(after step: Int) throws {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return try start() }
        let kept = text.split(separator: "\n").enumerated().filter { i, line in i == 0 || (Int(line.split(separator: ",").first ?? "") ?? 0) <= step }
        try Data((kept.map { String($0.element) }.joined(separator: "\n") + "\n").utf8).write(to: url, options: .atomic)
    }

    func append(step: Int, loss: Double, classification: Double, box: Double, learningRate: Float, imagesPerSecond: Double,
                map50: Double?, mapCenter: Double?) throws {
        func f(_ v: Double?) -> String { v.map { String(format: "%.6f", $0) } ?? "" }
        let line = "\(step),\(f(loss)),\(f(classification)),\(f(box)),\(learningRate),\(String(format: "%.2f", imagesPerSecond)),\(f(map50)),\(f(mapCenter))\n"
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
    }
}
