import FileKeys
import Foundation

/// How classes are weighted in the classification loss (ssd-model.md, "Loss").
public enum ClassBalance: Equatable, Sendable {
    /// w_c = (1 - beta) / (1 - beta^n_c).
    case effectiveNumber(beta: Double)
    /// w_c = 1 / n_c.
    case inverseFrequency
    case none
    /// Given weights, one per class, used as they are.
    case explicit([Float])

    /// Weights from per-class box counts: a class without boxes gets 0, and the others are
    /// scaled so that they sum to their number.
    public func weights(counts: [Int]) -> [Float] {
        if case .explicit(let w) = self { return w }
        let raw: [Double] = counts.map { n in
            guard n > 0 else { return 0 }
            switch self {
            case .effectiveNumber(let beta): return (1 - beta) / (1 - pow(beta, Double(n)))
            case .inverseFrequency: return 1 / Double(n)
            default: return 1
            }
        }
        let present = counts.filter { $0 > 0 }.count
        let sum = raw.reduce(0, +)
        return raw.map { sum > 0 ? Float($0 * Double(present) / sum) : 0 }
    }
}

/// The loss of ssd-model.md as a run config's `loss` section: class-balanced sigmoid focal
/// classification and smooth L1 boxes. Every default is the spec's, here and nowhere else.
public struct LossConfig: Codable, Equatable, Sendable {
    public enum Balance: String, Codable, CaseIterable, Sendable {
        case effectiveNumber = "effective_number", inverseFrequency = "inverse_frequency", none, explicit
    }
    public var classBalance = Balance.effectiveNumber
    /// beta of `effective_number`.
    public var beta = 0.999
    /// One weight per class, for `explicit` only.
    @Nullable public var classWeights: [Float]? = nil
    public var focalAlpha: Float = 0.25
    public var focalGamma: Float = 2
    public var smoothL1Beta: Float = 1.0 / 9
    public var boxLossWeight: Float = 1

    public init() {}

    // In the order a resolved config lists them: a synthesised encoder writes keys in the order of these cases.
    enum CodingKeys: String, CodingKey {
        case classBalance = "class_balance", beta, classWeights = "class_weights", focalAlpha = "focal_alpha", focalGamma = "focal_gamma"
        case smoothL1Beta = "smooth_l1_beta", boxLossWeight = "box_loss_weight"
    }

    /// The class-balance rule.
    public var balance: ClassBalance {
        switch classBalance {
        case .effectiveNumber: return .effectiveNumber(beta: beta)
        case .inverseFrequency: return .inverseFrequency
        case .none: return .none
        case .explicit: return .explicit(classWeights ?? [])
        }
    }

    /// Impossible values for a model of `classes` classes, each naming its key in the section.
    public func problems(classes: Int) -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        if classBalance == .explicit {
            if let w = classWeights {
                if w.count != classes { found.add(.classWeights, "has \(w.count) weights for model.num_classes = \(classes) classes") }
                if w.contains(where: { !($0 >= 0) || !$0.isFinite }) { found.add(.classWeights, "weights must be finite and non-negative") }
            } else {
                found.add(.classWeights, "class_balance: explicit needs a list of \(classes) weights")
            }
        } else if classWeights != nil {
            found.add(.classWeights, "is only used with class_balance: explicit (it is \(classBalance.rawValue))")
        }
        if !(beta > 0 && beta < 1) { found.add(.beta, "must lie in (0, 1), got \(beta)") }
        if !(focalAlpha >= 0 && focalAlpha <= 1) { found.add(.focalAlpha, "must lie in [0, 1]") }
        if !(focalGamma >= 0 && focalGamma.isFinite) { found.add(.focalGamma, "must be 0 or more and finite") }
        if !(smoothL1Beta > 0 && smoothL1Beta.isFinite) { found.add(.smoothL1Beta, "must be positive and finite") }
        if !(boxLossWeight >= 0 && boxLossWeight.isFinite) { found.add(.boxLossWeight, "must be 0 or more and finite") }
        return found.list
    }
}
