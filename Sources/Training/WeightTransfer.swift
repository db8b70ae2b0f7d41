import Detection
import Engine
import Foundation
import Layers

/// What `init_from` did, for the run's log.
public struct WeightTransferReport: Sendable {
    /// The weights file read.
    public var source: String
    /// Tensors copied as they are.
    public var loaded: [String] = []
    /// Tensors started afresh (the class outputs when the vocabularies differ).
    public var reinitialised: [String] = []
    /// Classes whose rows of the class outputs were kept.
    public var keptClasses: [String] = []
    /// Tensors of the file this model has no place for.
    public var dropped: [String] = []
}

/// Loads a run's starting weights from earlier ones (`init_from`), tensor by tensor by name:
/// the backbone, FPN and box head transfer as they are; the class outputs transfer when the
/// vocabularies are equal, and otherwise keep their fresh initialisation except for the rows
/// of the classes both vocabularies name.
enum WeightTransfer {
    static func apply(from path: String, to model: SSDModel, classNames: [String]) throws -> WeightTransferReport {
        func refuse(_ problem: String) -> ConfigError { ConfigError(source: "config", key: "init_from", problem: problem) }
        let url: URL
        let source: SSDModel, sourceNames: [String]
        do {
            url = try ModelFiles(resolving: path).detector
            (source, sourceNames, _) = try DetectorWeights.read(url)
        } catch { throw refuse("\(error)") }
        var report = WeightTransferReport(source: url.path)
        let available = Dictionary(source.namedState().map { ($0.name, $0.tensor) }) { first, _ in first }
        let sameVocabulary = sourceNames == classNames
        let a = model.config.anchorsPerLocation
        for (name, target) in model.namedState() {
            guard let tensor = available[name] else {
                throw refuse("\(url.path) has no tensor '\(name)': its network differs from this config's (\(describe(source.config)) against \(describe(model.config)))")
            }
            if name.hasPrefix("class_head.out.") && !sameVocabulary {
                // Channels are (anchor, class): keep the fresh values, copy the rows of shared classes.
                let (k0, k1) = (sourceNames.count, classNames.count)
                guard tensor.shape.dropLast() == target.shape.dropLast(), tensor.shape.last == a * k0, target.shape.last == a * k1 else {
                    throw refuse("tensor '\(name)' is \(tensor.shape) in \(url.path) and \(target.shape) here: the class outputs cannot be matched")
                }
                let shared = classNames.enumerated().compactMap { k, n in sourceNames.firstIndex(of: n).map { (to: k, from: $0) } }
                let from = tensor.pointer, to = target.mutablePointer
                for j in 0..<(target.count / (a * k1)) {
                    for anchor in 0..<a {
                        for (kt, kf) in shared { to[j * a * k1 + anchor * k1 + kt] = from[j * a * k0 + anchor * k0 + kf] }
                    }
                }
                report.reinitialised.append(name)
                report.keptClasses = shared.map { classNames[$0.to] }
            } else {
                guard tensor.shape == target.shape else {
                    throw refuse("tensor '\(name)' is \(tensor.shape) in \(url.path) but \(target.shape) in this model (\(describe(source.config)) against \(describe(model.config)))")
                }
                target.assign(tensor.scalars)
                report.loaded.append(name)
            }
        }
        let wanted = Set(model.namedState().map(\.name))
        report.dropped = available.keys.filter { !wanted.contains($0) }.sorted()
        return report
    }

    static func describe(_ c: SSDConfig) -> String {
        "alpha \(c.alpha), FPN \(c.fpnDepth), \(c.headLayers) head layers, levels \(c.minLevel)-\(c.maxLevel), \(c.anchorsPerLocation) anchors per location"
    }
}
