@testable import Engine
import TestSupport
import XCTest

/// Rules that write an input's gradient over their output gradient's buffer (`Tensor.result(reusingGradient:)`):
/// the same bits as into a fresh buffer, and never over a buffer someone else holds.
final class GradientReuseTests: XCTestCase {
    /// A buffer holding `values`, as a backward pass hands a rule its output gradient's.
    private func buffer(_ values: [Float]) -> Storage {
        let s = Storage(count: values.count)
        values.withUnsafeBufferPointer { s.pointer.update(from: $0.baseAddress!, count: values.count) }
        return s
    }

    /// Runs `y`'s rule on `g` twice: into fresh gradients, then handed `g`'s buffer. The input
    /// `taker` must take the buffer, and every input's gradient must have the same bits both ways.
    private func assertReuse(_ make: () -> Tensor, inputs: [Tensor], taker: Tensor, seed: UInt64,
                             file: StaticString = #filePath, line: UInt = #line) {
        let y = make()
        let g = randomInput(y.shape, in: -1...1, seed: seed, requiresGrad: false).scalars
        for t in inputs { t.zeroGrad() }
        let fresh = buffer(g)
        y.node!.backward(UnsafePointer(fresh.pointer), nil)
        let expected = inputs.map { $0.grad! }
        XCTAssertFalse(taker.gradStorage === fresh, "without a spare the rule must not take the buffer", file: file, line: line)
        for t in inputs { t.zeroGrad() }
        let spare = buffer(g)
        make().node!.backward(UnsafePointer(spare.pointer), spare)
        XCTAssertTrue(taker.gradStorage === spare, "the rule did not write over the spare buffer", file: file, line: line)
        for (t, e) in zip(inputs, expected) {
            XCTAssertEqual(t.grad!.map(\.bitPattern), e.map(\.bitPattern), file: file, line: line)
            XCTAssertFalse(t !== taker && t.gradStorage === spare, "two tensors share one gradient buffer", file: file, line: line)
        }
    }

    func testBatchNormWritesItsInputGradientInPlace() {
        // 37 rows x 24 channels: whole vectors and a scalar tail; clamped and not.
        let x = randomInput([1, 37, 1, 24], in: -3...3, seed: 31)
        let scale = randomInput([24], in: 0.5...1.5, seed: 32), shift = randomInput([24], seed: 33)
        let (rm, rv) = (Tensor.zeros([24]), Tensor(shape: [24], repeating: 1))
        for clamp in [nil, Float(0)...6] {
            assertReuse({ x.batchNorm(scale: scale, shift: shift, runningMean: rm, runningVariance: rv,
                                      mode: .training(momentum: 0.1), clampedTo: clamp) },
                        inputs: [x, scale, shift], taker: x, seed: 34)
        }
    }

    func testReluAddBiasAndReshapeTakeTheBuffer() {
        let x = randomInput([3, 7, 5], in: -2...2, seed: 35), b = randomInput([3, 7, 5], seed: 36), bias = randomInput([5], seed: 37)
        assertReuse({ x.relu6() }, inputs: [x], taker: x, seed: 38)
        // Both runs above take the vector loop: check it against the rule written out (g where 0 < x < 6).
        let g = randomInput([3, 7, 5], in: -1...1, seed: 38, requiresGrad: false).scalars
        XCTAssertEqual(x.grad!.map(\.bitPattern), zip(x.scalars, g).map { $0 > 0 && $0 < 6 ? $1 : 0 }.map(\.bitPattern))
        assertReuse({ x + b }, inputs: [x, b], taker: x, seed: 39)
        assertReuse({ x.addingBias(bias) }, inputs: [x, bias], taker: x, seed: 40)
        assertReuse({ x.reshaped([21, 5]) }, inputs: [x], taker: x, seed: 41)
    }

    func testASumOfATensorWithItselfDoublesInPlace() {
        let x = randomInput([4, 9], seed: 42)
        assertReuse({ x + x }, inputs: [x], taker: x, seed: 43)
        XCTAssertEqual(x.grad!, randomInput([4, 9], seed: 43, requiresGrad: false).scalars.map { $0 + $0 })
    }

    func testAnInputWithAGradientAddsToItAndLeavesTheSpare() {
        let x = randomInput([6, 16], in: -2...2, seed: 48), b = randomInput([6, 16], seed: 49)
        let before = randomInput([6, 16], seed: 50, requiresGrad: false).scalars
        let g = randomInput([6, 16], seed: 51, requiresGrad: false).scalars
        let relu = zip(x.scalars, g).map { $0 > 0 ? $1 : 0 }
        let cases: [(() -> Tensor, [Float])] = [({ x.relu() }, relu), ({ x + b }, g), ({ x.reshaped([96]) }, g)]
        for (make, contribution) in cases {
            x.zeroGrad(); b.zeroGrad()
            x.gradientCreatingZeros.update(from: before, count: before.count)
            let spare = buffer(g)
            make().node!.backward(UnsafePointer(spare.pointer), spare)
            XCTAssertFalse(x.gradStorage === spare)
            XCTAssertEqual(x.grad!, zip(before, contribution).map { $0 + $1 })
        }
    }

    func testBackwardHandsOnlyBuffersNobodyElseHolds() {
        let x = randomInput([2, 5, 3, 16], in: -3...3, seed: 44)
        let scale = randomInput([16], in: 0.5...1.5, seed: 45), shift = randomInput([16], seed: 46)
        let (rm, rv) = (Tensor.zeros([16]), Tensor(shape: [16], repeating: 1))
        func bn() -> Tensor { x.batchNorm(scale: scale, shift: shift, runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1), clampedTo: 0...6) }
        let seed = randomInput([2, 5, 3, 16], seed: 47, requiresGrad: false)
        let seedValues = seed.scalars
        // The caller's seed: batch norm gets it as its output gradient and must not write over it.
        let before = Autodiff.testingSparesHanded.load(ordering: .relaxed)
        bn().backward(gradient: seed)
        XCTAssertEqual(Autodiff.testingSparesHanded.load(ordering: .relaxed), before)
        XCTAssertEqual(seed.scalars, seedValues, "the caller's gradient was overwritten")
        let expected = x.grad!
        // Behind a reshape, which copies the seed into a buffer of its own: batch norm gets that one.
        x.zeroGrad(); scale.zeroGrad(); shift.zeroGrad()
        bn().reshaped([30, 16]).backward(gradient: seed.reshaped([30, 16]))
        XCTAssertGreaterThan(Autodiff.testingSparesHanded.load(ordering: .relaxed), before)
        XCTAssertEqual(seed.scalars, seedValues)
        XCTAssertEqual(x.grad!.map(\.bitPattern), expected.map(\.bitPattern))
    }
}
