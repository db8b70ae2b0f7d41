@testable import Engine
import TestSupport
import XCTest

/// Batch norm's input gradient left to the 1x1 conv before it (`DeferredGradient`): made a block of
/// rows at a time inside the conv's two products, or written whole when the conv cannot make it or
/// another rule adds to the conv's output gradient after batch norm's, with the bits of batch norm's
/// own pass every time.
final class DeferredGradientTests: XCTestCase {
    /// Where a second use of the conv's output (a product with zero) adds its gradient.
    enum SecondUse { case none, beforeBatchNorm, afterBatchNorm }

    struct Result {
        var grads: [[Float]]
        /// Deferred gradients made inside the conv's passes, and written whole.
        var made = 0, written = 0
        /// Of the leading batch norm's gradient sums (`leadingBatchNorm`): groups the conv gathered, and all.
        var gathered = 0, groups = 0
        /// Every gradient's bits, so that -0 and +0 differ.
        var bits: [[UInt32]] { grads.map { $0.map(\.bitPattern) } }
    }

    /// 1x1 conv (16 -> 48: both gradients panel products; 1,152 rows: two blocks of dW, the first in
    /// four of dX's; 48 channels: batch norm's coefficient tiles of 10 rows, so blocks start inside
    /// a tile), batch norm with ReLU6 on the moments the conv gathered, 3x3 depthwise conv. With
    /// `leadingBatchNorm`, the conv's input is a batch norm's output, whose sums the conv's dX gathers.
    func pass(_ second: SecondUse = .none, frozenWeight: Bool = false, leadingBatchNorm: Bool = false) -> Result {
        let x = randomInput([2, 12, 48, 16], in: -2...2, seed: 70), w = randomInput([1, 1, 16, 48], in: -0.5...0.5, seed: 71)
        let scale = randomInput([48], in: 0.5...1.5, seed: 72), shift = randomInput([48], seed: 73)
        let dw = randomInput([3, 3, 1, 48], seed: 74)
        w.setRequiresGradient(!frozenWeight)
        let rm = Tensor.zeros([48]), rv = Tensor(shape: [48], repeating: 1)
        let input = leadingBatchNorm
            ? x.batchNorm(scale: randomInput([16], in: 0.5...1.5, seed: 75), shift: randomInput([16], seed: 76), runningMean: Tensor.zeros([16]),
                          runningVariance: Tensor(shape: [16], repeating: 1), mode: .training(momentum: 0.1), clampedTo: 0...6)
            : x
        let (conv, moments) = input.conv2dGatheringMoments(weight: w)
        let y = conv.batchNorm(scale: scale, shift: shift, runningMean: rm, runningVariance: rv,
                               mode: .training(momentum: 0.1), clampedTo: 0...6, moments: moments)
        let z = y.conv2d(weight: dw, padding: 1, groups: 48)
        let main = (z * z).sum(), zeroUse = (conv * Tensor.zeros(conv.shape)).sum()
        let (made, written) = (Autodiff.testingDeferredMade.load(ordering: .relaxed), Autodiff.testingDeferredWritten.load(ordering: .relaxed))
        // Rules run in reverse of a depth-first walk from the loss: the first term's after the second's.
        switch second {
        case .none: main.backward()
        case .beforeBatchNorm: (main + zeroUse).backward()
        case .afterBatchNorm: (zeroUse + main).backward()
        }
        var result = Result(grads: [x.grad!, scale.grad!, shift.grad!, dw.grad!] + (frozenWeight ? [] : [w.grad!]))
        result.made = Autodiff.testingDeferredMade.load(ordering: .relaxed) - made
        result.written = Autodiff.testingDeferredWritten.load(ordering: .relaxed) - written
        if let sums = input.batchNormGradientSums { (result.gathered, result.groups) = (sums.gatheredByWriter, sums.groupCount) }
        return result
    }

    /// Batch norm's own passes for everything.
    func own(_ body: () -> Result) -> Result { BatchNormFusion.withoutFusion(body) }

    func testTheConvMakesBatchNormsInputGradientWithItsBits() {
        let reference = own { pass() }, fused = pass()
        XCTAssertEqual([reference.made, reference.written], [0, 0], "batch norm's own passes defer nothing")
        XCTAssertEqual([fused.made, fused.written], [1, 0], "the conv should make the deferred gradient itself")
        XCTAssertEqual(fused.bits, reference.bits)
    }

    func testAGradientAddedAfterBatchNormsIsWrittenFirst() {
        let fused = pass(.afterBatchNorm)
        XCTAssertEqual([fused.made, fused.written], [0, 1], "the second use should have the deferred gradient written")
        XCTAssertEqual(fused.bits, own { pass(.afterBatchNorm) }.bits)
        XCTAssertEqual(fused.grads, pass().grads, "adding zero changes nothing")
    }

    func testNothingIsDeferredOntoAGradientAlreadyThere() {
        let fused = pass(.beforeBatchNorm)
        XCTAssertEqual([fused.made, fused.written], [0, 0])
        XCTAssertEqual(fused.bits, own { pass(.beforeBatchNorm) }.bits)
    }

    func testAConvWithAFrozenWeightHasItWritten() {
        let fused = pass(frozenWeight: true)
        XCTAssertEqual([fused.made, fused.written], [0, 1], "with one gradient wanted, the conv's own rule reads it written")
        XCTAssertEqual(fused.bits, own { pass(frozenWeight: true) }.bits)
    }

    func testTheConvGathersTheLeadingBatchNormsSumsAsItMakesDX() {
        let fused = BatchNormFusion.$minimumGatheredGradientBytes.withValue(0) { pass(leadingBatchNorm: true) }
        XCTAssertEqual(fused.made, 1)
        XCTAssertGreaterThan(fused.groups, 1)
        XCTAssertEqual(fused.gathered, fused.groups, "groups the conv left to the leading batch norm")
        XCTAssertEqual(fused.bits, own { pass(leadingBatchNorm: true) }.bits)
    }

    func testConvThenBatchNormGradients() {
        // Through the deferred path: the conv's input and weight, batch norm's scale and shift.
        let x = randomInput([2, 3, 4, 16], in: -2...2, seed: 77), w = randomInput([1, 1, 16, 16], in: -0.5...0.5, seed: 78)
        let scale = randomInput([16], in: 0.5...1.5, seed: 79), shift = randomInput([16], seed: 80)
        let dw = randomInput([3, 3, 1, 16], seed: 81, requiresGrad: false)
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
