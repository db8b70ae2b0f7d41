import Foundation

/// The operating point that keeps a target precision: the lowest threshold whose precision is at
/// least the target (the most recall that keeps it), as evaluation.md's `min_precision` picks.
/// An example counts as positive when its score is >= the threshold, so the candidates are the
/// distinct scores, each with the counts after the last example of that score.
public struct PrecisionThreshold: Codable, Equatable, Sendable {
    public var threshold: Double
    public var precision: Double
    public var recall: Double
    public var truePositives: Int
    public var falsePositives: Int
    /// The positive examples in the set (recall's denominator).
    public var positives: Int

    /// A pick with every figure given.
    public init(threshold: Double, precision: Double, recall: Double, truePositives: Int, falsePositives: Int, positives: Int) {
        self.threshold = threshold
        self.precision = precision
        self.recall = recall
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.positives = positives
    }

    /// The pick over `scores` and `labels`; nil when no threshold reaches `minPrecision` or there is no positive.
    public static func pick(scores: [Double], labels: [Bool], minPrecision: Double) -> PrecisionThreshold? {
        operatingPoints(scores: scores, labels: labels).last { $0.precision >= minPrecision }
    }

    /// One point per distinct score, highest score first.
    static func operatingPoints(scores: [Double], labels: [Bool]) -> [PrecisionThreshold] {
        precondition(scores.count == labels.count, "\(scores.count) scores for \(labels.count) labels")
        let positives = labels.filter { $0 }.count
        guard positives > 0 else { return [] }
        let order = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        var tp = 0, fp = 0
        var points: [PrecisionThreshold] = []
        for (k, i) in order.enumerated() {
            if labels[i] { tp += 1 } else { fp += 1 }
            if k == order.count - 1 || scores[order[k + 1]] != scores[i] {
                points.append(PrecisionThreshold(threshold: scores[i], precision: Double(tp) / Double(tp + fp), recall: Double(tp) / Double(positives),
                                                 truePositives: tp, falsePositives: fp, positives: positives))
            }
        }
        return points
    }

    enum CodingKeys: String, CodingKey {
        case threshold, precision, recall, truePositives = "true_positives", falsePositives = "false_positives", positives
    }
}

/// Why an interactivity model could not be trained.
public enum IconModelError: Error, CustomStringConvertible, Equatable {
    case noExamples(set: String)
    case noPositives(set: String)
    case precisionNotReached(target: Double, best: Double?)

    public var description: String {
        switch self {
        case .noExamples(let set): return "icon interactivity: the \(set) set has no examples"
        case .noPositives(let set): return "icon interactivity: the \(set) set has no interactive icon"
        case .precisionNotReached(let target, let best):
            return "icon interactivity: no threshold reaches \(target) precision on the validation set"
                + (best.map { String(format: " (the best is about %.3f)", $0) } ?? "")
        }
    }
}

/// Step 5's icon model: boosted trees on `IconFeatures` giving the probability that an icon is a
/// button, and the threshold that kept the target precision (the spec's 90%) on validation icons.
/// Stored as JSON; a file that is not such a model is a `DescriptionFileError`.
public struct IconInteractivityModel: Codable, Equatable, Sendable {
    /// What the `format` field of a model file says.
    public static let formatName = "uidetect-icon-interactivity"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    /// The features the trees were grown on, in order (`IconFeatures.names` when made).
    public var featureNames: [String]
    public var parameters: BoostedTrees.Parameters
    public var booster: BoostedTrees
    public var targetPrecision: Double
    /// An icon is a button when its probability is at or above this.
    public var threshold: Double
    /// What the threshold gave on the validation icons (its recall is the model's reported recall).
    public var validation: PrecisionThreshold

    /// A model with every part given, for the features of this build.
    public init(booster: BoostedTrees, parameters: BoostedTrees.Parameters, targetPrecision: Double, validation: PrecisionThreshold) {
        format = Self.formatName
        version = Self.currentVersion
        featureNames = IconFeatures.names
        self.parameters = parameters
        self.booster = booster
        self.targetPrecision = targetPrecision
        threshold = validation.threshold
        self.validation = validation
    }

    /// Trees grown on `training`, with the threshold picked on `validation` to keep `targetPrecision`.
    public static func train(training: [IconExample], validation: [IconExample], parameters: BoostedTrees.Parameters = BoostedTrees.Parameters(),
                             targetPrecision: Double = 0.9) throws -> IconInteractivityModel {
        guard !training.isEmpty else { throw IconModelError.noExamples(set: "training") }
        guard !validation.isEmpty else { throw IconModelError.noExamples(set: "validation") }
        guard training.contains(where: \.interactive) else { throw IconModelError.noPositives(set: "training") }
        guard validation.contains(where: \.interactive) else { throw IconModelError.noPositives(set: "validation") }
        let booster = BoostedTrees.train(features: training.map(\.features.values), labels: training.map(\.interactive), parameters: parameters)
        let scores = validation.map { booster.probability($0.features.values) }
        let labels = validation.map(\.interactive)
        guard let pick = PrecisionThreshold.pick(scores: scores, labels: labels, minPrecision: targetPrecision) else {
            let best = PrecisionThreshold.operatingPoints(scores: scores, labels: labels).map(\.precision).max()
            throw IconModelError.precisionNotReached(target: targetPrecision, best: best)
        }
        return IconInteractivityModel(booster: booster, parameters: parameters, targetPrecision: targetPrecision, validation: pick)
    }

    /// The probability that the icon is a button.
    public func probability(_ features: IconFeatures) -> Double { booster.probability(features.values) }

    /// Whether the icon is marked a button: its probability at or above the threshold.
    public func isButton(_ features: IconFeatures) -> Bool { probability(features) >= threshold }

    /// Reads a model file.
    public init(contentsOf url: URL) throws {
        self = try Self.decode(try JSONCoding.read(url), path: url.path)
    }

    /// A model from the bytes of a file at `path` (named in errors).
    public static func decode(_ data: Data, path: String) throws -> IconInteractivityModel {
        struct Probe: Decodable { var format: String? }
        let probe: Probe
        do { probe = try JSONDecoder().decode(Probe.self, from: data) } catch {
            throw DescriptionFileError(path: path, position: "file", problem: "not an icon-interactivity model (not a JSON object)")
        }
        guard probe.format == formatName else {
            let found = probe.format.map { "format \"\($0)\"" } ?? "no format"
            throw DescriptionFileError(path: path, position: "format", problem: "not an icon-interactivity model (\(found), expected \"\(formatName)\")")
        }
        let model = try JSONCoding.decode(Self.self, from: data, path: path)
        func fail(_ position: String, _ problem: String) -> DescriptionFileError { DescriptionFileError(path: path, position: position, problem: problem) }
        guard model.version == currentVersion else { throw fail("version", "version \(model.version) is not \(currentVersion), the one this build reads") }
        guard model.featureNames == IconFeatures.names else {
            throw fail("feature_names", "made for features \(model.featureNames), this build computes \(IconFeatures.names)")
        }
        if let problem = model.booster.problem(featureCount: IconFeatures.names.count) { throw fail("booster", problem) }
        guard (0...1).contains(model.threshold) else { throw fail("threshold", "\(model.threshold) is not a probability") }
        return model
    }

    /// Writes the model atomically.
    public func write(to url: URL) throws {
        try JSONCoding.write(self, to: url)
    }

    enum CodingKeys: String, CodingKey {
        case format, version, featureNames = "feature_names", parameters, booster, targetPrecision = "target_precision", threshold, validation
    }
}
