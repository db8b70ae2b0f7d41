import Engine
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
