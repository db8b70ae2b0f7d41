import Foundation

/// thresholds.json (evaluation.md): the threshold picked for each class with the precision, recall and F1 it gives.
///
/// `uidetect evaluate` and `uidetect thresholds` write it, and `predict` and `export` read it, through this type.
public struct ThresholdsFile: Codable, Equatable, Sendable {
    /// One class's pick.
    public struct Entry: Codable, Equatable, Sendable {
        public var threshold: Double
        public var precision: Double
        public var recall: Double
        public var f1: Double
        /// The strategy that picked this class, where classes may differ (`uidetect thresholds --class`); absent otherwise.
        public var strategy: ThresholdStrategy?

        /// An entry with every figure given.
        public init(threshold: Double, precision: Double, recall: Double, f1: Double, strategy: ThresholdStrategy? = nil) {
            self.threshold = threshold
            self.precision = precision
            self.recall = recall
            self.f1 = f1
            self.strategy = strategy
        }

        /// What `pick` gives, optionally with the strategy that made it.
        public init(_ pick: PickedThreshold, strategy: ThresholdStrategy? = nil) {
            self.init(threshold: pick.threshold, precision: pick.precision, recall: pick.recall, f1: pick.f1, strategy: strategy)
        }
    }

    /// The file's name in an evaluation folder.
    public static let fileName = "thresholds.json"

    /// The strategy of every class without its own.
    public var strategy: ThresholdStrategy
    /// By class name; nil (JSON null) for a class without a threshold.
    public var classes: [String: Entry?]

    /// A file with `strategy` as the default and `classes` as given.
    public init(strategy: ThresholdStrategy, classes: [String: Entry?]) {
        self.strategy = strategy
        self.classes = classes
    }

    /// The picks of `summary`, all made by its strategy.
    public init(_ summary: EvaluationSummary) {
        var classes: [String: Entry?] = [:]
        for (c, pick) in zip(summary.result.classes, summary.picks) {
            // updateValue: assigning nil through the subscript would remove the key instead of storing null.
            classes.updateValue(pick.map { Entry($0) }, forKey: c.name)
        }
        self.init(strategy: summary.strategy, classes: classes)
    }

    /// The threshold of each class that has one (what a deployment filter applies).
    public var thresholdsByClass: [String: Float] {
        var out: [String: Float] = [:]
        for case let (name, entry?) in classes { out[name] = Float(entry.threshold) }
        return out
    }

    /// Reads a thresholds.json; a class's threshold outside [0, 1], or not finite, is an
    /// `EvaluationInputError` naming the file, the class and the value.
    public init(contentsOf url: URL) throws {
        self = try JSONFile.read(Self.self, from: url)
        // -1 would keep every detection of the class and 5 none, without a word: refused as
        // --score-threshold refuses them. Sorted, so that the same file names the same class.
        for case let (name, entry?) in classes.sorted(by: { $0.key < $1.key }) where !(entry.threshold >= 0 && entry.threshold <= 1) {
            throw EvaluationInputError(path: url.path, position: "classes.\(name).threshold",
                                       problem: "\(entry.threshold) for class '\(name)' is not a score threshold: it must lie in [0, 1], as --score-threshold must")
        }
    }

    /// Writes the file atomically.
    public func write(to url: URL) throws {
        try JSONFile.write(self, to: url)
    }
}
