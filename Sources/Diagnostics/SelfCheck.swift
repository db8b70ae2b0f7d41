import Engine
import Layers
import Optimizers

/// The engine checking itself on this machine: every op family against finite
/// differences, and a tiny network trained until it fits a fixed target.
public struct SelfCheck {
    public struct Outcome: Sendable {
        public var name: String
        public var passed: Bool
        public var detail: String
    }

    public init() {}

    /// Runs every check in order, reporting each as it finishes.
    public func run(report: (Outcome) -> Void = { _ in }) -> [Outcome] {
        var outcomes: [Outcome] = []
        func record(_ o: Outcome) { outcomes.append(o); report(o) }
        for (name, inputs, f) in gradientCases() {
            let check = GradientCheck()
            let results = check.run(inputs, f)
            let worst = results.map(\.maxAbsoluteError).max() ?? 0
            record(Outcome(name: "gradient \(name)", passed: check.passes(results) && !results.isEmpty,
                           detail: "max |analytic - numeric| = \(format(worst))"))
        }
        record(fitTinyNetwork())
        return outcomes
    }

    private func random(_ shape: [Int], _ seed: UInt64, in range: ClosedRange<Float> = -1...1) -> Tensor {
        var g = SeededGenerator(seed: seed)
        return Tensor.randomUniform(shape, in: range, requiresGrad: true, using: &g)
    }

    private func gradientCases() -> [(String, [Tensor], ([Tensor]) -> Tensor)] {
        let rm = Tensor.zeros([4]), rv = Tensor(shape: [4], repeating: 1)
        return [
            ("conv 3x3 stride 2 + bias", [random([2, 7, 5, 3], 1), random([3, 3, 3, 4], 2), random([4], 3)],
             { $0[0].conv2d(weight: $0[1], bias: $0[2], stride: 2, padding: 1) }),
            ("conv 3x3 Winograd + bias", [random([2, 5, 3, 9], 22), random([3, 3, 9, 10], 23, in: -0.3...0.3), random([10], 24)],
             { $0[0].conv2d(weight: $0[1], bias: $0[2], padding: 1, algorithm: .winograd) }),
            ("conv 3x3 Winograd F(4x4) + bias", [random([1, 6, 7, 9], 25), random([3, 3, 9, 4], 26, in: -0.3...0.3), random([4], 27)],
             { $0[0].conv2d(weight: $0[1], bias: $0[2], padding: 1, algorithm: .winograd4x4) }),
            ("conv 1x1", [random([2, 3, 4, 5], 4), random([1, 1, 5, 3], 5)], { $0[0].conv2d(weight: $0[1]) }),
            ("conv grouped", [random([1, 5, 4, 4], 6), random([3, 3, 2, 4], 7)], { $0[0].conv2d(weight: $0[1], padding: 1, groups: 2) }),
            ("conv depthwise stride 2", [random([2, 7, 6, 4], 8), random([3, 3, 1, 4], 9)],
             { $0[0].conv2d(weight: $0[1], stride: 2, padding: 1, groups: 4) }),
            ("batch norm (training)", [random([2, 3, 3, 4], 10, in: -2...2), random([4], 11, in: 0.5...1.5), random([4], 12)],
             { $0[0].batchNorm(scale: $0[1], shift: $0[2], runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1)) }),
            ("batch norm (inference)", [random([2, 3, 3, 4], 13), random([4], 14), random([4], 15)],
             { $0[0].batchNorm(scale: $0[1], shift: $0[2], runningMean: rm, runningVariance: rv, mode: .inference) }),
            ("upsample + concat + add", [random([1, 2, 3, 2], 16), random([1, 4, 6, 2], 17)],
             { Tensor.concatenate([$0[0].upsampledNearest2x() + $0[1], $0[1]], axis: 3) }),
            ("sigmoid * bias", [random([3, 4], 18, in: -4...4), random([4], 19)], { $0[0].sigmoid().addingBias($0[1]) * $0[0] }),
            ("focal loss", [random([5, 3], 20, in: -4...4)],
             { $0[0].sigmoidFocalLoss(labels: [0, -1, 2, 1, -1], weights: [1, 1, 2, 0.5, 0]) }),
            ("smooth L1 + gather", [random([6, 4], 21, in: 0.2...1)],
             { $0[0].gatheringRows([5, 0, 2]).smoothL1Loss(target: Tensor.zeros([3, 4]), beta: 1.0 / 9) }),
        ]
    }

    private func fitTinyNetwork() -> Outcome {
        var g = SeededGenerator(seed: 42)
        let net = Sequential([
            ConvBNActivation(inputChannels: 3, outputChannels: 8, kernelSize: 3, stride: 2, generator: &g),
            DepthwiseSeparable(inputChannels: 8, outputChannels: 16, stride: 1, generator: &g),
            Conv2D(inputChannels: 16, outputChannels: 2, kernelSize: 3, padding: 1, generator: &g),
        ])
        let x = Tensor.randomUniform([4, 16, 8, 3], in: -1...1, using: &g)
        let target = Tensor.randomUniform([4, 8, 4, 2], in: -1...1, using: &g)
        let optimizer = SGD(parameters: net.parameters, momentum: 0.9)
        var first: Float = 0, last: Float = 0
        for step in 0..<200 {
            optimizer.zeroGrad()
            let d = net(x, mode: .training) - target
            let loss = (d * d).mean()
            loss.backward()
            optimizer.step(learningRate: 0.05)
            if step == 0 { first = loss.item }
            last = loss.item
        }
        return Outcome(name: "tiny network fits a fixed target (SGD, 200 steps)", passed: last < 0.1 * first,
                       detail: "loss \(format(Double(first))) -> \(format(Double(last)))")
    }

    private func format(_ v: Double) -> String { String(format: "%.2e", v) }
}

import Foundation
