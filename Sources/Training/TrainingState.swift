import Checkpoints
import Foundation

/// Loss sums over the steps since the last `metrics.csv` row: kept in checkpoints, so that a
/// resumed run logs the same rows as an uninterrupted one.
public struct MetricsWindow: Codable, Equatable, Sendable {
    public var steps = 0
    public var loss = 0.0
    public var classification = 0.0
    public var box = 0.0
    public init() {}
}

/// What a run needs beyond the deployed weights to go on bit for bit: the step, the
/// optimizer's state, the best validation score so far, the open metrics window, and with an
/// EMA of the weights the raw weights (the checkpoint's model file then holds the average).
public struct TrainingState: Equatable, Sendable {
    public var step: Int
    /// The best validation score so far: the detector's mAP50, the icon classifier's top-1 accuracy.
    public var bestScore: Double?
    public var bestStep: Int?
    public var optimizer: [String: [Float]]
    public var window = MetricsWindow()
    /// The weights the optimizer trains, when the model file holds their moving average.
    public var rawWeights: [NamedTensor] = []
    /// Updates the moving average has had.
    public var emaUpdates = 0
    /// Validations since the best one (early stopping counts them).
    public var validationsSinceBest = 0
    /// The run ended early, its patience spent.
    public var stoppedEarly = false

    public init(step: Int, bestScore: Double?, bestStep: Int?, optimizer: [String: [Float]], window: MetricsWindow = MetricsWindow()) {
        self.step = step
        self.bestScore = bestScore
        self.bestStep = bestStep
        self.optimizer = optimizer
        self.window = window
    }

    /// What one step changed in the run's state.
    public struct Fold: Sendable {
        /// The step's validation beat every earlier one.
        public var isBest = false
        /// The run's patience is spent: it ends after this step.
        public var stopsEarly = false
        /// The metrics window this step closed (a `metrics.csv` row is due), with its losses summed.
        public var closedWindow: MetricsWindow?
    }

    /// Folds a finished step into the state: the best validation so far, the validations since it
    /// (and whether `patience` is spent), and the metrics window (closed at `log_interval`, at a
    /// validation and at the end). The one place these rules live, so that resumed runs repeat them.
    public mutating func fold(_ record: StepRecord, config c: RunConfig) -> Fold {
        var fold = Fold()
        step = record.step
        if let validation = record.validation {
            if let m = validation.scores.map50, m > (bestScore ?? -1) {
                (bestScore, bestStep, fold.isBest) = (m, record.step, true)
            }
            validationsSinceBest = fold.isBest ? 0 : validationsSinceBest + 1
            if let patience = c.patience, validationsSinceBest >= patience, record.step < c.steps { stoppedEarly = true }
        }
        fold.stopsEarly = stoppedEarly
        window.steps += 1
        window.loss += Double(record.loss); window.classification += Double(record.classification); window.box += Double(record.box)
        if record.step % c.logInterval == 0 || record.step == c.steps || record.validation != nil {
            fold.closedWindow = window
            window = MetricsWindow()
        }
        return fold
    }

    static let rawPrefix = "raw."
    static let format = "uidetect-training-state-1"

    func write(to url: URL) throws {
        var tensors = optimizer.keys.sorted().map { NamedTensor(name: $0, shape: [optimizer[$0]!.count], values: optimizer[$0]!) }
        tensors += rawWeights.map { NamedTensor(name: Self.rawPrefix + $0.name, shape: $0.shape, values: $0.values) }
        var metadata = ["format": Self.format, "step": String(step)]
        if let b = bestScore { metadata["best_score"] = String(b) }
        if let s = bestStep { metadata["best_step"] = String(s) }
        // JSON prints doubles so that they parse back exactly.
        // Sorted keys: a run and its rerun write byte-identical checkpoints.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        metadata["window"] = String(decoding: try encoder.encode(window), as: UTF8.self)
        metadata["ema_updates"] = String(emaUpdates)
        metadata["validations_since_best"] = String(validationsSinceBest)
        metadata["stopped_early"] = String(stoppedEarly)
        try Safetensors.write(tensors, metadata: metadata, to: url)
    }

    static func read(_ url: URL) throws -> TrainingState {
        let (tensors, metadata) = try Safetensors.read(url)
        func problem(_ key: String, _ what: String) -> CheckpointError { CheckpointError(path: url.path, problem: "metadata '\(key)' \(what)") }
        guard let step = metadata["step"].flatMap({ Int($0) }) else { throw problem("step", "is missing") }
        guard step >= 0 else { throw problem("step", "is \(step); a training state's step is 0 or more") }
        var optimizer: [String: [Float]] = [:]
        var raw: [NamedTensor] = []
        for t in tensors {
            if t.name.hasPrefix(rawPrefix) {
                raw.append(NamedTensor(name: String(t.name.dropFirst(rawPrefix.count)), shape: t.shape, values: t.values))
            } else {
                optimizer[t.name] = t.values
            }
        }
        // `best_map50`: the key of states written before the icon classifier shared them.
        var state = TrainingState(step: step, bestScore: (metadata["best_score"] ?? metadata["best_map50"]).flatMap { Double($0) },
                                  bestStep: metadata["best_step"].flatMap { Int($0) }, optimizer: optimizer, window: try window(metadata["window"], problem))
        state.rawWeights = raw
        state.emaUpdates = metadata["ema_updates"].flatMap { Int($0) } ?? 0
        state.validationsSinceBest = metadata["validations_since_best"].flatMap { Int($0) } ?? 0
        state.stoppedEarly = metadata["stopped_early"] == "true"
        return state
    }

    /// The metrics window of the metadata: JSON, or the four numbers of states written before it was
    /// (steps, loss, classification, box); anything else is an error, never an empty window.
    private static func window(_ text: String?, _ problem: (String, String) -> CheckpointError) throws -> MetricsWindow {
        guard let text else { return MetricsWindow() }
        if let decoded = try? JSONDecoder().decode(MetricsWindow.self, from: Data(text.utf8)) { return decoded }
        let parts = text.split(separator: " ")
        guard parts.count == 4, let n = Int(parts[0]), let l = Double(parts[1]), let c = Double(parts[2]), let b = Double(parts[3]) else {
            throw problem("window", "is '\(text.prefix(80))', not the metrics window (JSON with steps, loss, classification and box)")
        }
        var window = MetricsWindow()
        (window.steps, window.loss, window.classification, window.box) = (n, l, c, b)
        return window
    }
}
