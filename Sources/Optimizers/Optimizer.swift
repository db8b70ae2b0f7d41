import Engine

/// Parameters that share optimizer settings (e.g. no weight decay on biases and norms).
public struct ParameterGroup {
    public var parameters: [Tensor]
    public var weightDecay: Float

    public init(parameters: [Tensor], weightDecay: Float) {
        self.parameters = parameters
        self.weightDecay = weightDecay
    }
}

/// Updates parameters from their gradients.
public protocol Optimizer: AnyObject {
    /// Parameter groups in a fixed order.
    var groups: [ParameterGroup] { get }
    /// Applies one update with learning rate `learningRate`; parameters without a gradient are left alone.
    func step(learningRate: Float)
    /// The optimizer's per-parameter state by name, for checkpoints.
    func state() -> [String: [Float]]
    /// Restores what `state()` returned.
    func loadState(_ state: [String: [Float]]) throws
}

extension Optimizer {
    /// All parameters of all groups.
    public var allParameters: [Tensor] { groups.flatMap(\.parameters) }

    /// Drops every parameter's gradient.
    public func zeroGrad() { for p in allParameters { p.zeroGrad() } }
}

/// Why optimizer state could not be restored.
public enum OptimizerStateError: Error, CustomStringConvertible, Equatable {
    case missing(String)
    case wrongLength(String, expected: Int, found: Int)

    public var description: String {
        switch self {
        case .missing(let key): return "optimizer state '\(key)' is missing"
        case .wrongLength(let key, let expected, let found):
            return "optimizer state '\(key)' has \(found) values, expected \(expected)"
        }
    }
}

/// Per-parameter slot buffers (momentum, moments), created lazily and named for checkpoints.
final class Slots {
    let name: String
    private(set) var buffers: [[Float]?]

    init(name: String, count: Int) {
        self.name = name
        buffers = Array(repeating: nil, count: count)
    }

    func withBuffer<R>(_ index: Int, count: Int, _ body: (UnsafeMutablePointer<Float>) -> R) -> R {
        if buffers[index] == nil { buffers[index] = [Float](repeating: 0, count: count) }
        return buffers[index]!.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    func export(into state: inout [String: [Float]]) {
        for (i, b) in buffers.enumerated() { if let b { state["\(name).\(i)"] = b } }
    }

    func restore(from state: [String: [Float]], counts: [Int]) throws {
        for i in buffers.indices {
            let key = "\(name).\(i)"
            if let v = state[key] {
                guard v.count == counts[i] else { throw OptimizerStateError.wrongLength(key, expected: counts[i], found: v.count) }
                buffers[i] = v
            } else {
                buffers[i] = nil
            }
        }
    }
}

/// SGD with momentum and coupled weight decay, as `torch.optim.SGD`:
/// g += wd * p; v = momentum * v + g; p -= lr * v.
public final class SGD: Optimizer {
    public let groups: [ParameterGroup]
    public let momentum: Float
    public let nesterov: Bool
    private let velocity: Slots

    public init(groups: [ParameterGroup], momentum: Float = 0.9, nesterov: Bool = false) {
        self.groups = groups
        self.momentum = momentum
        self.nesterov = nesterov
        velocity = Slots(name: "momentum", count: groups.reduce(0) { $0 + $1.parameters.count })
    }

    public convenience init(parameters: [Tensor], momentum: Float = 0.9, weightDecay: Float = 0, nesterov: Bool = false) {
        self.init(groups: [ParameterGroup(parameters: parameters, weightDecay: weightDecay)], momentum: momentum, nesterov: nesterov)
    }

    public func step(learningRate lr: Float) {
        var index = 0
        for group in groups {
            let wd = group.weightDecay
            for p in group.parameters {
                defer { index += 1 }
                guard let g = p.gradStorageIfAny else { continue }
                let w = p.mutablePointer, n = p.count
                velocity.withBuffer(index, count: n) { v in
                    for i in 0..<n {
                        let d = g[i] + wd * w[i]
                        v[i] = momentum * v[i] + d
                        w[i] -= lr * (nesterov ? d + momentum * v[i] : v[i])
                    }
                }
            }
        }
    }

    public func state() -> [String: [Float]] {
        var s: [String: [Float]] = [:]
        velocity.export(into: &s)
        return s
    }

    public func loadState(_ state: [String: [Float]]) throws {
        try velocity.restore(from: state, counts: allParameters.map(\.count))
    }
}

/// Adam with decoupled weight decay (Loshchilov & Hutter), as `torch.optim.AdamW`.
public final class AdamW: Optimizer {
    public let groups: [ParameterGroup]
    public let beta1, beta2, epsilon: Float
    private var steps: Int = 0
    private let first: Slots
    private let second: Slots

    public init(groups: [ParameterGroup], beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8) {
        self.groups = groups
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        let n = groups.reduce(0) { $0 + $1.parameters.count }
        first = Slots(name: "exp_avg", count: n)
        second = Slots(name: "exp_avg_sq", count: n)
    }

    public convenience init(parameters: [Tensor], weightDecay: Float = 0.01, beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8) {
        self.init(groups: [ParameterGroup(parameters: parameters, weightDecay: weightDecay)], beta1: beta1, beta2: beta2, epsilon: epsilon)
    }

    public func step(learningRate lr: Float) {
        steps += 1
        let c1 = 1 - powf(beta1, Float(steps)), c2 = 1 - powf(beta2, Float(steps))
        let (b1, b2, eps) = (beta1, beta2, epsilon)
        var index = 0
        for group in groups {
            let decay = 1 - lr * group.weightDecay
            for p in group.parameters {
                defer { index += 1 }
                guard let g = p.gradStorageIfAny else { continue }
                let w = p.mutablePointer, n = p.count
                first.withBuffer(index, count: n) { m in
                    second.withBuffer(index, count: n) { v in
                        for i in 0..<n {
                            m[i] = b1 * m[i] + (1 - b1) * g[i]
                            v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i]
                            let mHat = m[i] / c1, vHat = v[i] / c2
                            w[i] = w[i] * decay - lr * mHat / (vHat.squareRoot() + eps)
                        }
                    }
                }
            }
        }
    }

    public func state() -> [String: [Float]] {
        var s: [String: [Float]] = ["step": [Float(steps)]]
        first.export(into: &s)
        second.export(into: &s)
        return s
    }

    public func loadState(_ state: [String: [Float]]) throws {
        guard let step = state["step"], step.count == 1 else { throw OptimizerStateError.missing("step") }
        steps = Int(step[0])
        let counts = allParameters.map(\.count)
        try first.restore(from: state, counts: counts)
        try second.restore(from: state, counts: counts)
    }
}

import Foundation
