import Engine
import Optimizers
import TestSupport
import XCTest

final class OptimizerTests: XCTestCase {
    /// 0.5 * |w - a|^2, whose gradient is w - a.
    func quadraticLoss(_ w: Tensor, _ a: Tensor) -> Tensor {
        let d = w - a
        return (d * d).sum().scaled(by: 0.5)
    }

    func testSGDMomentumMatchesHandComputedSteps() {
        let w = Tensor(shape: [1], values: [1], requiresGrad: true)
        let a = Tensor(shape: [1], values: [0])
        let sgd = SGD(parameters: [w], momentum: 0.5, weightDecay: 0)
        // g = w: step 1 v = 1, w = 1 - 0.1 = 0.9; step 2 v = 0.5 + 0.9 = 1.4, w = 0.9 - 0.14 = 0.76.
        for _ in 0..<2 { sgd.zeroGrad(); quadraticLoss(w, a).backward(); sgd.step(learningRate: 0.1) }
        XCTAssertEqual(w.item, 0.76, accuracy: 1e-6)
    }

    func testSGDWithWeightDecayConvergesToShrunkenMinimum() {
        // Minimum of 0.5 |w - a|^2 + 0.5 wd |w|^2 is a / (1 + wd).
        let w = Tensor(shape: [3], values: [5, -5, 0], requiresGrad: true)
        let a = Tensor(shape: [3], values: [1, 2, -3])
        let sgd = SGD(parameters: [w], momentum: 0.9, weightDecay: 0.25)
        for _ in 0..<300 { sgd.zeroGrad(); quadraticLoss(w, a).backward(); sgd.step(learningRate: 0.05) }
        assertClose(w.scalars, [0.8, 1.6, -2.4], tolerance: 1e-4)
    }

    func testAdamWFitsALinearRegression() {
        // y = X theta + 0.5, written as a 1x1 convolution over (N, 1, 1, D).
        var g = SeededGenerator(seed: 1)
        let (n, d) = (64, 3)
        let theta: [Float] = [2, -1, 0.5]
        let x = Tensor.randomNormal([n, 1, 1, d], using: &g)
        let xs = x.scalars
        let y = Tensor(shape: [n, 1, 1, 1], values: (0..<n).map { i in (0..<d).reduce(0.5) { $0 + xs[i * d + $1] * theta[$1] } })
        let w = Tensor.zeros([1, 1, d, 1], requiresGrad: true)
        let b = Tensor.zeros([1], requiresGrad: true)
        let adam = AdamW(parameters: [w, b], weightDecay: 0)
        for _ in 0..<600 {
            adam.zeroGrad()
            let r = x.conv2d(weight: w, bias: b) - y
            (r * r).mean().backward()
            adam.step(learningRate: 0.05)
        }
        assertClose(w.scalars, theta, tolerance: 1e-3)
        XCTAssertEqual(b.item, 0.5, accuracy: 1e-3)
    }

    func testAdamWFirstStepAndDecoupledDecay() {
        // Step 1: m_hat = g, v_hat = g^2, so w <- w (1 - lr wd) - lr g / (|g| + eps).
        let w = Tensor(shape: [2], values: [2, -3], requiresGrad: true)
        let adam = AdamW(parameters: [w], weightDecay: 0.1)
        quadraticLoss(w, Tensor.zeros([2])).backward()
        adam.step(learningRate: 0.01)
        assertClose(w.scalars, [2 * 0.999 - 0.01, -3 * 0.999 + 0.01], tolerance: 1e-6)
    }

    func testOptimizerStateRoundTripContinuesIdenticallyInOneProcess() throws {
        func run(split: Bool) throws -> [Float] {
            let w = Tensor(shape: [2], values: [2, -3], requiresGrad: true)
            let a = Tensor(shape: [2], values: [0.5, 0.25])
            var adam = AdamW(parameters: [w], weightDecay: 0.01)
            for i in 0..<10 {
                if split && i == 5 {
                    let saved = adam.state()
                    adam = AdamW(parameters: [w], weightDecay: 0.01)
                    try adam.loadState(saved)
                }
                adam.zeroGrad(); quadraticLoss(w, a).backward(); adam.step(learningRate: 0.1)
            }
            return w.scalars
        }
        XCTAssertEqual(try run(split: true), try run(split: false))
        let sgd = SGD(parameters: [Tensor.zeros([2], requiresGrad: true)])
        XCTAssertThrowsError(try sgd.loadState(["momentum.0": [1, 2, 3]]))
    }

    func testWarmupCosineSchedule() {
        let s = WarmupCosine(base: 0.1, warmupSteps: 10, totalSteps: 110, warmupFactor: 0.001, minimum: 0.001)
        XCTAssertEqual(s.learningRate(at: 0), 0.0001, accuracy: 1e-9)
        XCTAssertEqual(s.learningRate(at: 5), 0.1 * (0.001 + 0.999 * 0.5), accuracy: 1e-7)
        XCTAssertEqual(s.learningRate(at: 10), 0.1, accuracy: 1e-7)
        XCTAssertEqual(s.learningRate(at: 60), 0.001 + 0.099 * 0.5, accuracy: 1e-7)
        XCTAssertEqual(s.learningRate(at: 110), 0.001, accuracy: 1e-7)
        XCTAssertEqual(s.learningRate(at: 500), 0.001, accuracy: 1e-7)
    }

    func testStepDecaySchedule() {
        let s = StepDecay(base: 1, milestones: [20, 10], gamma: 0.5, warmupSteps: 4, warmupFactor: 0)
        XCTAssertEqual(s.learningRate(at: 0), 0)
        XCTAssertEqual(s.learningRate(at: 2), 0.5)
        XCTAssertEqual(s.learningRate(at: 9), 1)
        XCTAssertEqual(s.learningRate(at: 10), 0.5)
        XCTAssertEqual(s.learningRate(at: 25), 0.25)
    }

    func testGradientNormClipping() {
        let a = Tensor(shape: [2], values: [0, 0], requiresGrad: true)
        let b = Tensor(shape: [1], values: [0], requiresGrad: true)
        (a * Tensor(shape: [2], values: [3, 0])).sum().backward()
        (b * Tensor(shape: [1], values: [4])).sum().backward()
        let norm = clipGradientNorm([a, b], maxNorm: 1)
        XCTAssertEqual(norm, 5, accuracy: 1e-6)
        assertClose(a.grad! + b.grad!, [0.6, 0, 0.8], tolerance: 1e-5)
        XCTAssertEqual(clipGradientNorm([a, b], maxNorm: 10), 1, accuracy: 1e-5)  // under the limit: untouched
        assertClose(a.grad! + b.grad!, [0.6, 0, 0.8], tolerance: 1e-5)
    }
}

final class NesterovTests: XCTestCase {
    func testNesterovMomentumMatchesHandComputedSteps() {
        // 0.5 |w|^2, g = w. Nesterov: v = m v + g; w -= lr (g + m v).
        // Step 1: g = 1, v = 1, w = 1 - 0.1 (1 + 0.5) = 0.85.
        // Step 2: g = 0.85, v = 0.5 + 0.85 = 1.35, w = 0.85 - 0.1 (0.85 + 0.675) = 0.6975.
        let w = Tensor(shape: [1], values: [1], requiresGrad: true)
        let sgd = SGD(parameters: [w], momentum: 0.5, weightDecay: 0, nesterov: true)
        for _ in 0..<2 {
            sgd.zeroGrad()
            (w * w).sum().scaled(by: 0.5).backward()
            sgd.step(learningRate: 0.1)
        }
        XCTAssertEqual(w.item, 0.6975, accuracy: 1e-6)
    }
}
