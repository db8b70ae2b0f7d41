@testable import Engine
import TestSupport
import XCTest

final class BatchNormTests: XCTestCase {
    func makeParameters(_ c: Int) -> (Tensor, Tensor, Tensor, Tensor) {
        (randomInput([c], in: 0.5...1.5, seed: 21), randomInput([c], seed: 22),
         randomInput([c], seed: 23, requiresGrad: false), randomInput([c], in: 0.5...2, seed: 24, requiresGrad: false))
    }

    func testTrainingModeNormalisesWithBatchStatistics() {
        let x = Tensor(shape: [4, 1], values: [1, 2, 3, 6])  // mean 3, biased var 3.5, unbiased 14/3
        let (g, b) = (Tensor(shape: [1], values: [2]), Tensor(shape: [1], values: [0.5]))
        let rm = Tensor(shape: [1], values: [0]), rv = Tensor(shape: [1], values: [1])
        let y = x.batchNorm(scale: g, shift: b, runningMean: rm, runningVariance: rv, epsilon: 1e-3, mode: .training(momentum: 0.1))
        let inv = 1 / (3.5 + 1e-3).squareRoot()
        assertClose(y.scalars, [1, 2, 3, 6].map { Float(2 * ($0 - 3) * inv + 0.5) }, tolerance: 1e-6)
        assertClose(rm.scalars, [0.3], tolerance: 1e-6)
        assertClose(rv.scalars, [Float(0.9 + 0.1 * 14.0 / 3.0)], tolerance: 1e-6)
    }

    func testInferenceModeUsesRunningStatisticsAndLeavesThem() {
        let x = Tensor(shape: [2, 2], values: [1, 2, 3, 4])
        let (g, b) = (Tensor(shape: [2], values: [1, 2]), Tensor(shape: [2], values: [0, 1]))
        let rm = Tensor(shape: [2], values: [1, 1]), rv = Tensor(shape: [2], values: [4, 1])
        let y = x.batchNorm(scale: g, shift: b, runningMean: rm, runningVariance: rv, epsilon: 0, mode: .inference)
        XCTAssertEqual(y.scalars, [0, 3, 1, 7])
        XCTAssertEqual(rm.scalars, [1, 1])
        XCTAssertEqual(rv.scalars, [4, 1])
    }

    func testTrainingGradients() {
        let x = randomInput([2, 3, 4, 5], in: -2...2, seed: 25)
        let (g, b, rm, rv) = makeParameters(5)
        assertGradientsMatch([x, g, b], step: 5e-3) {
            $0[0].batchNorm(scale: $0[1], shift: $0[2], runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1))
        }
    }

    func testInferenceGradients() {
        let x = randomInput([2, 3, 3, 4], in: -2...2, seed: 26)
        let (g, b, rm, rv) = makeParameters(4)
        assertGradientsMatch([x, g, b]) {
            $0[0].batchNorm(scale: $0[1], shift: $0[2], runningMean: rm, runningVariance: rv, mode: .inference)
        }
    }

    func testLargeOffsetDoesNotLoseVariance() {
        // One-pass sums on raw values would cancel catastrophically at this offset.
        let values = (0..<1000).map { 1000 + Float($0 % 10) * 0.01 }
        let x = Tensor(shape: [1000, 1], values: values)
        let y = x.batchNorm(scale: Tensor(shape: [1], values: [1]), shift: Tensor(shape: [1], values: [0]),
                            runningMean: Tensor(shape: [1], values: [0]), runningVariance: Tensor(shape: [1], values: [1]),
                            epsilon: 0, mode: .training(momentum: 0.1))
        let s = y.scalars
        let mean = s.reduce(0, +) / Float(s.count)
        let variance = s.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(s.count)
        XCTAssertEqual(variance, 1, accuracy: 1e-2)
    }
}

final class FusedBatchNormTests: XCTestCase {
    func parameters(_ c: Int) -> (Tensor, Tensor, Tensor, Tensor) {
        (randomInput([c], in: 0.5...1.5, seed: 31), randomInput([c], seed: 32),
         randomInput([c], seed: 33, requiresGrad: false), randomInput([c], in: 0.5...2, seed: 34, requiresGrad: false))
    }

    /// Batch norm and ReLU6 as one op give the same bits as the two ops, forward and backward.
    func testFusedClampEqualsBatchNormThenClampBitForBit() {
        for mode in [BatchNormMode.training(momentum: 0.1), .inference] {
            func run(fused: Bool) -> [[Float]] {
                let x = randomInput([2, 5, 6, 24], in: -4...4, seed: 35)
                let (g, b, rm, rv) = parameters(24)
                let scale = randomInput([2, 5, 6, 24], seed: 36, requiresGrad: false)
                let y = fused
                    ? x.batchNorm(scale: g, shift: b, runningMean: rm, runningVariance: rv, mode: mode, clampedTo: 0...6)
                    : x.batchNorm(scale: g, shift: b, runningMean: rm, runningVariance: rv, mode: mode).relu6()
                (y * scale).sum().backward()
                return [y.scalars, x.grad!, g.grad!, b.grad!, rm.scalars, rv.scalars]
            }
            XCTAssertEqual(run(fused: true), run(fused: false), "\(mode)")
        }
    }

    /// Passes that write with streaming stores give the same bits as plain stores: with and without
    /// the clamp, on tiles whose starts are 64-byte aligned (16 channels) and on some that are not
    /// (24 channels: 21-row tiles, written plain).
    func testStreamingStoresChangeNoBits() {
        for (shape, clamp) in [([2, 5, 6, 16], true), ([2, 5, 6, 16], false), ([3, 7, 9, 24], true), ([3, 7, 9, 24], false)] {
            func run(streaming: Bool) -> [[Float]] {
                StreamingPolicy.$minimumBytes.withValue(streaming ? 0 : .max) {
                    let c = shape.last!
                    let x = randomInput(shape, in: -4...4, seed: 38)
                    let (g, b, rm, rv) = parameters(c)
                    let scale = randomInput(shape, seed: 39, requiresGrad: false)
                    let y = x.batchNorm(scale: g, shift: b, runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1),
                                        clampedTo: clamp ? 0...6 : nil)
                    (y * scale).sum().backward()
                    return [y.scalars, x.grad!, g.grad!, b.grad!]
                }
            }
            let (streamed, plain) = (run(streaming: true), run(streaming: false))
            XCTAssertTrue(streamed == plain, "\(shape), clamp \(clamp): streaming stores changed the results")
        }
    }

    func testFusedClampGradients() {
        // Inputs spread so that some outputs clamp at 0 and at 6; kinks are skipped as for the network check.
        let x = randomInput([2, 3, 4, 5], in: -3...3, seed: 37)
        let (g, b, rm, rv) = parameters(5)
        let big = Tensor(shape: [5], values: [4, 4, 4, 4, 4], requiresGrad: true)
        assertGradientsMatch([x, g, b], step: 1e-3, absoluteTolerance: 2e-3, relativeTolerance: 1e-2, skipKinks: 0.05) {
            $0[0].batchNorm(scale: $0[1] * big, shift: $0[2], runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1), clampedTo: 0...6)
        }
    }
}
