import Engine
import Foundation

/// An exponential moving average of tensors (weights and batch-norm running statistics), as
/// Ultralytics' ModelEMA: after each update, average = d * average + (1 - d) * value with
/// d = decay * (1 - exp(-updates / warmupSteps)), so that early averages do not hold on to
/// the random start.
public final class WeightAverage {
    /// The averages, in the order of `values`.
    public let averages: [Tensor]
    /// The live tensors being averaged.
    public let values: [Tensor]
    public let decay: Double
    public let warmupSteps: Int
    /// Updates so far (kept in checkpoints: the decay depends on it).
    public private(set) var updates: Int

    /// Averages of `values` kept in `averages` (same shapes), which start as copies of `values`.
    public init(values: [Tensor], averages: [Tensor], decay: Double, warmupSteps: Int, updates: Int = 0) {
        precondition(values.count == averages.count && zip(values, averages).allSatisfy { $0.shape == $1.shape }, "averages must match the values' shapes")
        self.values = values
        self.averages = averages
        self.decay = decay
        self.warmupSteps = warmupSteps
        self.updates = updates
        if updates == 0 { for (v, a) in zip(values, averages) { a.mutablePointer.update(from: v.pointer, count: v.count) } }
    }

    /// The decay the next update uses.
    public var currentDecay: Float { Float(decay * (1 - exp(-Double(updates + 1) / Double(warmupSteps)))) }

    /// Moves every average towards its value.
    public func update() {
        let d = currentDecay, keep = 1 - d
        for (v, a) in zip(values, averages) {
            let src = v.pointer, dst = a.mutablePointer
            for i in 0..<v.count { dst[i] = d * dst[i] + keep * src[i] }
        }
        updates += 1
    }

    /// Continues from a checkpoint: `updates` already made (the averages are loaded by the caller).
    public func resume(updates: Int) { self.updates = updates }
}
