import Foundation

/// A learning rate as a function of the step (0-based).
public protocol LearningRateSchedule: Sendable {
    func learningRate(at step: Int) -> Float
}

/// Linear warm-up from `base * warmupFactor` to `base` over `warmupSteps`, then
/// cosine decay to `minimum` at `totalSteps` (held there after).
public struct WarmupCosine: LearningRateSchedule {
    public var base: Float
    public var warmupSteps: Int
    public var totalSteps: Int
    public var warmupFactor: Float
    public var minimum: Float

    public init(base: Float, warmupSteps: Int, totalSteps: Int, warmupFactor: Float = 0.001, minimum: Float = 0) {
        precondition(totalSteps > warmupSteps, "cosine schedule: total steps must exceed warm-up steps")
        self.base = base
        self.warmupSteps = warmupSteps
        self.totalSteps = totalSteps
        self.warmupFactor = warmupFactor
        self.minimum = minimum
    }

    public func learningRate(at step: Int) -> Float {
        if step < warmupSteps {
            let t = Float(step) / Float(warmupSteps)
            return base * (warmupFactor + (1 - warmupFactor) * t)
        }
        let progress = min(1, Double(step - warmupSteps) / Double(totalSteps - warmupSteps))
        return minimum + (base - minimum) * Float(0.5 * (1 + cos(Double.pi * progress)))
    }
}

/// `base` multiplied by `gamma` at each milestone passed, after an optional linear warm-up.
public struct StepDecay: LearningRateSchedule {
    public var base: Float
    public var milestones: [Int]
    public var gamma: Float
    public var warmupSteps: Int
    public var warmupFactor: Float

    public init(base: Float, milestones: [Int], gamma: Float = 0.1, warmupSteps: Int = 0, warmupFactor: Float = 0.001) {
        self.base = base
        self.milestones = milestones.sorted()
        self.gamma = gamma
        self.warmupSteps = warmupSteps
        self.warmupFactor = warmupFactor
    }

    public func learningRate(at step: Int) -> Float {
        let decays = milestones.filter { step >= $0 }.count
        let lr = base * powf(gamma, Float(decays))
        guard step < warmupSteps else { return lr }
        let t = Float(step) / Float(warmupSteps)
        return lr * (warmupFactor + (1 - warmupFactor) * t)
    }
}
