@testable import Engine
import TestSupport
import XCTest

/// Batch norm's input gradient left to the 1x1 conv before it (`DeferredGradient`): made a block of
/// rows at a time inside the conv's two products, or written whole when another rule adds to the
/// conv's output gradient after batch norm's, with the bits of batch norm's own pass either way.
final class DeferredGradientTests: XCTestCase {
    /// Where a second use of the conv's output (a product with zero) adds its gradient.
    enum SecondUse { case none, beforeBatchNorm, afterBatchNorm }

    /// 1x1 conv (16 -> 48: both gradients panel products; 1,152 rows: two blocks of dW, the first in
    /// four of dX's; 48 channels: batch norm's coefficient tiles of 10 rows, so blocks start inside
    /// a tile), batch norm with ReLU6 on the moments the conv gathered, 3x3 depthwise conv.
    func run(_ second: SecondUse) -> [[Float]] {
        let x = randomInput([2, 12, 48, 16], in: -2...2, seed: 70), w = randomInput([1, 1, 16, 48], in: -0.5...0.5, seed: 71)
        let scale = randomInput([48], in: 0.5...1.5, seed: 72), shift = randomInput([48], seed: 73)
        let dw = randomInput([3, 3, 1, 48], seed: 74)
        let rm = Tensor.zeros([48]), rv = Tensor(shape: [48], repeating: 1)
        let (conv, moments) = x.conv2dGatheringMoments(weight: w)
        let y = conv.batchNorm(scale: scale, shift: shift, runningMean: rm, runningVariance: rv,
                               mode: .training(momentum: 0.1), clampedTo: 0...6, moments: moments)
        let z = y.conv2d(weight: dw, padding: 1, groups: 48)
        let main = (z * z).sum(), zeroUse = (conv * Tensor.zeros(conv.shape)).sum()
        // Rules run in reverse of a depth-first walk from the loss: the first term's after the second's.
        switch second {
        case .none: main.backward()
        case .beforeBatchNorm: (main + zeroUse).backward()
        case .afterBatchNorm: (zeroUse + main).backward()
        }
        return [x.grad!, w.grad!, scale.grad!, shift.grad!, dw.grad!]
    }

    /// Deferred gradients made by producers and written whole while `body` ran.
    func counting(_ body: () -> [[Float]]) -> (grads: [[Float]], made: Int, written: Int) {
        let (made, written) = (Autodiff.testingDeferredMade.load(ordering: .relaxed), Autodiff.testingDeferredWritten.load(ordering: .relaxed))
        let grads = body()
        return (grads, Autodiff.testingDeferredMade.load(ordering: .relaxed) - made, Autodiff.testingDeferredWritten.load(ordering: .relaxed) - written)
    }

    func testTheConvMakesBatchNormsInputGradientWithItsBits() {
        let own = counting { BatchNormFusion.withoutFusion { run(.none) } }
        let fused = counting { run(.none) }
        XCTAssertEqual([own.made, own.written], [0, 0], "batch norm's own passes defer nothing")
        XCTAssertEqual([fused.made, fused.written], [1, 0], "the conv should make the deferred gradient itself")
        XCTAssertTrue(fused.grads == own.grads)
    }

    func testAGradientAddedAfterBatchNormsIsWrittenFirst() {
        let own = counting { BatchNormFusion.withoutFusion { run(.afterBatchNorm) } }
        let fused = counting { run(.afterBatchNorm) }
        XCTAssertEqual([fused.made, fused.written], [0, 1], "the second use should have the deferred gradient written")
        XCTAssertTrue(fused.grads == own.grads)
        XCTAssertTrue(fused.grads == counting { run(.none) }.grads, "adding zero changes nothing")
    }

    func testNothingIsDeferredOntoAGradientAlreadyThere() {
        let fused = counting { run(.beforeBatchNorm) }
        XCTAssertEqual([fused.made, fused.written], [0, 0])
        XCTAssertTrue(fused.grads == counting { BatchNormFusion.withoutFusion { run(.beforeBatchNorm) } }.grads)
    }

    func testConvThenBatchNormGradients() {
        // Through the deferred path: the conv's input and weight, batch norm's scale and shift.
        let x = randomInput([2, 3, 4, 16], in: -2...2, seed: 75), w = randomInput([1, 1, 16, 16], in: -0.5...0.5, seed: 76)
        let scale = randomInput([16], in: 0.5...1.5, seed: 77), shift = randomInput([16], seed: 78)
        let dw = randomInput([3, 3, 1, 16], seed: 79, requiresGrad: false)
        let rm = Tensor.zeros([16]), rv = Tensor(shape: [16], repeating: 1)
        let made = Autodiff.testingDeferredMade.load(ordering: .relaxed)
        assertGradientsMatch([x, w, scale, shift], step: 1e-2, absoluteTolerance: 2e-3, relativeTolerance: 1e-2) {
            $0[0].conv2d(weight: $0[1])
                .batchNorm(scale: $0[2], shift: $0[3], runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1))
                .conv2d(weight: dw, padding: 1, groups: 16)
        }
        XCTAssertGreaterThan(Autodiff.testingDeferredMade.load(ordering: .relaxed), made, "the check should go through the deferred path")
    }
}
