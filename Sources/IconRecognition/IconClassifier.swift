import Checkpoints
import Engine
import Foundation
import IconVocabulary
import Images
import Layers

/// What the classifier says of one icon: the probability of every type, the five most probable,
/// and the type it names (nil below the threshold or when `other` wins: a wrong label misleads
/// more than none).
public struct IconPrediction: Sendable {
    /// One per type of the vocabulary, in its order.
    public var probabilities: [Float]
    /// The most probable types, best first.
    public var top: [(type: IconType, probability: Float)]
    /// The type named, if any.
    public var type: IconType?
    /// The top probability.
    public var score: Float { top.first?.probability ?? 0 }
    /// What a screen reader says: the named type's label.
    public var label: String? { type?.label }
}

/// A trained icon classifier (icon-recognition.md): the network, the vocabulary it names, and
/// the threshold under which it names nothing. One file: `icon-classifier.safetensors`.
public final class IconClassifier: @unchecked Sendable {
    public static let format = "uidetect-icon-classifier-1"
    public static let fileName = "icon-classifier.safetensors"

    public let network: IconNet
    /// The least top probability at which a type is named.
    public let threshold: Float
    /// The training step the weights come from, where the file says.
    public let step: Int?
    /// What `other`'s probability is multiplied by before the types are ranked: training's prior of
    /// a type over `other`'s (`balancedOtherWeight`), so that the share of `other` crops in training
    /// does not make every unfamiliar design `other` (post-hoc logit adjustment, Menon et al., ICLR
    /// 2021). Whether a type is *said* stays the threshold's decision. 1 leaves the network's output.
    public let otherWeight: Float
    // The network's layers hold scratch state while they run: one classification at a time.
    private let lock = NSLock()

    public init(network: IconNet, threshold: Float, otherWeight: Float = 1, step: Int? = nil) {
        precondition(network.config.classes == IconVocabulary.types.count, "the network must name every type of the vocabulary")
        precondition(otherWeight > 0 && otherWeight <= 1, "otherWeight must lie in (0, 1]")
        self.network = network
        self.threshold = threshold
        self.otherWeight = otherWeight
        self.step = step
    }

    /// The weight that divides training's class prior out of `other`: a type's share of the crops
    /// over `other`'s, when `otherShare` of them are `other` and the rest spread over `types` types.
    public static func balancedOtherWeight(otherShare: Double, types: Int) -> Float {
        guard otherShare > 0, otherShare < 1, types > 0 else { return 1 }
        return Float(min(1, (1 - otherShare) / Double(types) / otherShare))
    }

    /// `p` with `other`'s probability weighted by `otherWeight`, normalised again.
    public static func balanced(_ p: [Float], otherWeight: Float) -> [Float] {
        guard otherWeight != 1 else { return p }
        var q = p
        q[IconVocabulary.other.index] *= otherWeight
        let sum = q.reduce(0, +)
        return sum > 0 ? q.map { $0 / sum } : p
    }

    /// Classifies icon crops (cut with `IconInput.crop`) in one batch.
    public func classify(_ crops: [RGBImage]) -> [IconPrediction] {
        guard !crops.isEmpty else { return [] }
        lock.lock(); defer { lock.unlock() }
        let probabilities = Autodiff.withoutTape {
            network.logits(IconInput.tensor(crops, side: network.config.inputSide), mode: .inference).softmaxProbabilities()
        }
        let k = network.config.classes
        return (0..<crops.count).map { i in
            Self.prediction(Self.balanced(Array(probabilities[i * k..<(i + 1) * k]), otherWeight: otherWeight), threshold: threshold)
        }
    }

    /// The prediction of one row of probabilities at `threshold`.
    public static func prediction(_ p: [Float], threshold: Float) -> IconPrediction {
        let order = p.indices.sorted { p[$0] != p[$1] ? p[$0] > p[$1] : $0 < $1 }
        let top = order.prefix(5).map { (type: IconVocabulary.types[$0], probability: p[$0]) }
        let best = top[0]
        return IconPrediction(probabilities: p, top: top, type: best.probability >= threshold && !best.type.isOther ? best.type : nil)
    }

    // MARK: the file

    /// Writes the classifier atomically: every tensor by name, and in the metadata the format, the
    /// vocabulary (version and names), the network's config, the threshold and the step.
    public func write(to url: URL, extra: [String: String] = [:]) throws {
        let tensors = network.namedState().map { NamedTensor(name: $0.name, shape: $0.tensor.shape, values: $0.tensor.scalars) }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        var metadata = extra.merging([
            "format": Self.format,
            "vocabulary_version": String(IconVocabulary.version),
            "vocabulary": String(decoding: try e.encode(IconVocabulary.types.map(\.name)), as: UTF8.self),
            "config": String(decoding: try e.encode(network.config), as: UTF8.self),
            "threshold": "\(threshold)",
            "other_weight": "\(otherWeight)",
            "input": "ink map: distance from the crop's border median, scaled to the strongest ink, letterboxed into input_side x input_side",
        ]) { _, ours in ours }
        if let step { metadata["step"] = String(step) }
        try Safetensors.write(tensors, metadata: metadata, to: url)
    }

    /// The classifier in `url`; a file that is not one, or names another vocabulary, is an error naming it.
    public convenience init(contentsOf url: URL) throws {
        let (tensors, metadata) = try Safetensors.read(url)
        func fail(_ problem: String) -> CheckpointError { CheckpointError(path: url.path, problem: problem) }
        guard metadata["format"] == Self.format else {
            throw fail(metadata["format"].map { "is a '\($0)' file, not an icon classifier (\(Self.format))" } ?? "is not an icon classifier (no format in its metadata)")
        }
        let version = metadata["vocabulary_version"].flatMap { Int($0) }
        let names = metadata["vocabulary"].flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        guard version == IconVocabulary.version, names == IconVocabulary.types.map(\.name) else {
            throw fail("names the icon types of vocabulary version \(version.map(String.init) ?? "?"), and this uidetect knows version \(IconVocabulary.version): train the classifier again")
        }
        guard let config = metadata["config"].flatMap({ try? JSONDecoder().decode(IconNet.Config.self, from: Data($0.utf8)) }),
              config.classes == IconVocabulary.types.count, config.inputSide >= 8, config.inputSide % 8 == 0, config.width >= 1 else {
            throw fail("metadata 'config' is missing or impossible")
        }
        guard let threshold = metadata["threshold"].flatMap({ Float($0) }), (0...1).contains(threshold) else { throw fail("metadata 'threshold' is missing or outside [0, 1]") }
        // Files written before the weight existed rank the network's own probabilities.
        let otherWeight = try metadata["other_weight"].map { text -> Float in
            guard let w = Float(text), w > 0, w <= 1 else { throw fail("metadata 'other_weight' must be a number in (0, 1], got '\(text)'") }
            return w
        } ?? 1
        var g = SeededGenerator(seed: 0)
        let network = IconNet(config: config, generator: &g)
        var values: [String: (shape: [Int], values: [Float])] = [:]
        for t in tensors {
            if let bad = t.values.firstIndex(where: { !$0.isFinite }) { throw fail("tensor '\(t.name)' holds \(t.values[bad]) at element \(bad)") }
            values[t.name] = (t.shape, t.values)
        }
        do { try network.load(values) } catch { throw fail("the weights do not fit the network of its config: \(error)") }
        self.init(network: network, threshold: threshold, otherWeight: otherWeight, step: metadata["step"].flatMap { Int($0) })
    }
}
