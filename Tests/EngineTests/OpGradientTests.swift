import Engine
import TestSupport
import XCTest

final class OpGradientTests: XCTestCase {
    func testAddSubtractMultiplyScale() {
        let a = randomInput([3, 4], seed: 1), b = randomInput([3, 4], seed: 2)
        assertGradientsMatch([a, b]) { $0[0] + $0[1] }
        assertGradientsMatch([a, b]) { $0[0] - $0[1] }
        assertGradientsMatch([a, b]) { $0[0] * $0[1] }
        assertGradientsMatch([a]) { $0[0].scaled(by: -2.5) }
    }

    func testTensorUsedTwiceAccumulatesBothContributions() {
        let a = Tensor(shape: [2], values: [3, -1], requiresGrad: true)
        (a * a + a).sum().backward()
        XCTAssertEqual(a.grad!, [7, -1])  // d(a^2 + a) = 2a + 1
        assertGradientsMatch([randomInput([5], seed: 3)]) { ($0[0] * $0[0]) + $0[0] }
    }

    func testBroadcastBias() {
        let x = randomInput([2, 3, 2, 5], seed: 4), b = randomInput([5], seed: 5)
        assertGradientsMatch([x, b]) { $0[0].addingBias($0[1]) }
        let y = Tensor(shape: [2, 2], values: [1, 2, 3, 4]).addingBias(Tensor(shape: [2], values: [10, 20]))
        XCTAssertEqual(y.scalars, [11, 22, 13, 24])
    }

    func testReLUFamilyAndSigmoid() {
        let x = randomInputAvoiding([4, 7], kinks: [0], in: -2...2, seed: 6)
        assertGradientsMatch([x]) { $0[0].relu() }
        let y = randomInputAvoiding([4, 7], kinks: [0, 6], in: -2...8, seed: 7)
        assertGradientsMatch([y]) { $0[0].relu6() }
        assertGradientsMatch([randomInput([4, 7], in: -6...6, seed: 8)]) { $0[0].sigmoid() }
        XCTAssertEqual(Tensor(shape: [4], values: [-1, 3, 7, 6]).relu6().scalars, [0, 3, 6, 6])
        XCTAssertEqual(Tensor(shape: [2], values: [-1, 3]).relu().scalars, [0, 3])
        XCTAssertEqual(Tensor(shape: [2], values: [-200, 200]).sigmoid().scalars, [0, 1])
    }

    func testUpsampleNearest2x() {
        let x = Tensor(shape: [1, 1, 2, 1], values: [1, 2])
        XCTAssertEqual(x.upsampledNearest2x().scalars, [1, 1, 2, 2, 1, 1, 2, 2])
        assertGradientsMatch([randomInput([2, 3, 2, 3], seed: 9)]) { $0[0].upsampledNearest2x() }
    }

    func testConcatenateAlongEachAxis() {
        let a = randomInput([2, 3, 4], seed: 10), b = randomInput([2, 1, 4], seed: 11)
        assertGradientsMatch([a, b]) { Tensor.concatenate([$0[0], $0[1]], axis: 1) }
        let c = randomInput([2, 3, 2], seed: 12)
        assertGradientsMatch([a, c]) { Tensor.concatenate([$0[0], $0[1]], axis: 2) }
        let d = randomInput([1, 3, 4], seed: 13)
        assertGradientsMatch([a, d]) { Tensor.concatenate([$0[0], $0[1]], axis: 0) }
        let m = Tensor.concatenate([Tensor(shape: [2, 1], values: [1, 2]), Tensor(shape: [2, 2], values: [3, 4, 5, 6])], axis: 1)
        XCTAssertEqual(m.scalars, [1, 3, 4, 2, 5, 6])
    }

    func testReshapeAndTranspose() {
        let x = randomInput([2, 3, 4], seed: 14)
        assertGradientsMatch([x]) { $0[0].reshaped([6, -1]) }
        assertGradientsMatch([x]) { $0[0].transposed([2, 0, 1]) }
        let t = Tensor(shape: [2, 3], values: [1, 2, 3, 4, 5, 6]).transposed([1, 0])
        XCTAssertEqual(t.shape, [3, 2])
        XCTAssertEqual(t.scalars, [1, 4, 2, 5, 3, 6])
    }

    func testGatherRowsWithRepeats() {
        let x = randomInput([5, 3], seed: 15)
        assertGradientsMatch([x]) { $0[0].gatheringRows([4, 0, 4, 2]) }
        let y = Tensor(shape: [3, 2], values: [1, 2, 3, 4, 5, 6]).gatheringRows([2, 0])
        XCTAssertEqual(y.scalars, [5, 6, 1, 2])
    }

    func testSumAndMean() {
        let x = randomInput([3, 5], seed: 16)
        assertGradientsMatch([x]) { $0[0].sum() }
        assertGradientsMatch([x]) { $0[0].mean() }
        XCTAssertEqual(Tensor(shape: [4], values: [1, 2, 3, 4]).mean().item, 2.5)
    }

    func testBackwardOnlyFromScalarAndSkipsConstants() {
        let c = Tensor(shape: [2], values: [1, 2])
        let p = Tensor(shape: [2], values: [3, 4], requiresGrad: true)
        (c * p).sum().backward()
        XCTAssertNil(c.grad)
        XCTAssertEqual(p.grad!, [1, 2])
        let y = Autodiff.withoutTape { (c * p).sum() }
        XCTAssertFalse(y.requiresGrad)
    }
}

final class ClassificationOpTests: XCTestCase {
    func testGlobalAveragePoolingAndItsGradient() {
        let x = Tensor(shape: [1, 2, 2, 2], values: [1, 10, 2, 20, 3, 30, 4, 40])
        XCTAssertEqual(x.globalAveragePooled().scalars, [2.5, 25])
        assertGradientsMatch([randomInput([2, 3, 4, 5], seed: 41)]) { ($0[0].globalAveragePooled() * $0[0].globalAveragePooled()).sum() }
    }

    func testSoftmaxCrossEntropyByHandAndItsGradient() {
        // Two classes, logits (0, ln 3): p = (1/4, 3/4); the loss of label 1 is -ln(3/4), of label 0 -ln(1/4).
        let x = Tensor(shape: [2, 2], values: [0, logf(3), 0, logf(3)])
        XCTAssertEqual(x.softmaxCrossEntropy(labels: [1, 0]).item, (-logf(0.75) - logf(0.25)) / 2, accuracy: 1e-6)
        // Smoothing 0.2 over 2 classes: targets (0.1, 0.9) for label 1.
        XCTAssertEqual(Tensor(shape: [1, 2], values: [0, logf(3)]).softmaxCrossEntropy(labels: [1], smoothing: 0.2).item,
                       -(0.1 * logf(0.25) + 0.9 * logf(0.75)), accuracy: 1e-6)
        let logits = randomInput([5, 7], in: -3...3, seed: 42)
        assertGradientsMatch([logits]) { $0[0].softmaxCrossEntropy(labels: [0, 6, 3, 3, 1]) }
        assertGradientsMatch([logits]) { $0[0].softmaxCrossEntropy(labels: [2, 2, 5, 0, 4], smoothing: 0.1) }
        let p = Tensor(shape: [1, 3], values: [1, 1, 1]).softmaxProbabilities()
        for v in p { XCTAssertEqual(v, 1 / 3, accuracy: 1e-7) }
    }
}
