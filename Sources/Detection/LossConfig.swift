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
    public var classWeights: [Float]? = nil
    public var focalAlpha: Float = 0.25
    public var focalGamma: Float = 2
    public var smoothL1Beta: Float = 1.0 / 9
    public var boxLossWeight: Float = 1

    public init() {}

    enum CodingKeys: String, CodingKey {
        case beta
        case classBalance = "class_balance", classWeights = "class_weights", focalAlpha = "focal_alpha", focalGamma = "focal_gamma"
        case smoothL1Beta = "smooth_l1_beta", boxLossWeight = "box_loss_weight"
    }

    // Written out so that the resolved config shows `class_weights: null`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(classBalance, forKey: .classBalance)
        try c.encode(beta, forKey: .beta)
        try c.encode(classWeights, forKey: .classWeights)
        try c.encode(focalAlpha, forKey: .focalAlpha)
        try c.encode(focalGamma, forKey: .focalGamma)
        try c.encode(smoothL1Beta, forKey: .smoothL1Beta)
        try c.encode(boxLossWeight, forKey: .boxLossWeight)
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

    /// Impossible values, each naming its key.
    public func problems(classes: Int) -> [(key: String, problem: String)] {
        var out: [(String, String)] = []
        if classBalance == .explicit {
            if let w = classWeights {
                if w.count != classes { out.append(("class_weights", "has \(w.count) weights for model.num_classes = \(classes) classes")) }
                if w.contains(where: { !($0 >= 0) || !$0.isFinite }) { out.append(("class_weights", "weights must be finite and non-negative")) }
            } else {
                out.append(("class_weights", "class_balance: explicit needs a list of \(classes) weights"))
            }
        } else if classWeights != nil {
            out.append(("class_weights", "is only used with class_balance: explicit (it is \(classBalance.rawValue))"))
        }
        if !(beta > 0 && beta < 1) { out.append(("beta", "must lie in (0, 1), got \(beta)")) }
        if !(focalAlpha >= 0 && focalAlpha <= 1) { out.append(("focal_alpha", "must lie in [0, 1]")) }
        if !(focalGamma >= 0 && focalGamma.isFinite) { out.append(("focal_gamma", "must be 0 or more and finite")) }
        if !(smoothL1Beta > 0 && smoothL1Beta.isFinite) { out.append(("smooth_l1_beta", "must be positive and finite")) }
        if !(boxLossWeight >= 0 && boxLossWeight.isFinite) { out.append(("box_loss_weight", "must be 0 or more and finite")) }
        return out
    }
}
