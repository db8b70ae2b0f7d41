@testable import Engine
import TestSupport
import XCTest

/// The per-channel kernels that walk 16 channels at a time (8 for a last odd group) give every
/// channel the same bits as a tensor of that channel's 8-channel slice alone, which takes the
/// 8-lane walk: the lane width changes how memory is read, never a channel's arithmetic.
/// Shapes small enough to be one row group and one weight-gradient block either way. The 1x1 panel
/// kernels' width (`VectorRegisters`) is checked the same way: set both ways, the same bits.
final class LaneWidthTests: XCTestCase {
    /// Channels `range` of an NHWC tensor, as a tensor of its own.
    func slice(_ t: Tensor, channels range: Range<Int>, requiresGrad: Bool = true) -> Tensor {
        let c = t.shape.last!
        let values = t.scalars
        let sliced = stride(from: 0, to: values.count, by: c).flatMap { values[($0 + range.lowerBound)..<($0 + range.upperBound)] }
        return Tensor(shape: Array(t.shape.dropLast()) + [range.count], values: Array(sliced), requiresGrad: requiresGrad)
    }

    func assertSameBits(_ whole: Tensor, _ parts: [Tensor], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let c = whole.shape.last!, width = parts[0].shape.last!
        for (k, part) in parts.enumerated() {
            let expected = slice(whole, channels: (k * width)..<((k + 1) * width), requiresGrad: false).scalars
            XCTAssertTrue(expected == part.scalars, "\(what): channels \(k * width)..<\((k + 1) * width) of \(c) differ", file: file, line: line)
        }
    }

    func testBatchNormForwardAndBackwardPerChannelBits() {
        // 24 channels: one 16-lane walk and one 8-lane walk; each slice alone: one 8-lane walk.
        let x = randomInput([2, 2, 4, 24], in: -3...3, seed: 90)
        let dy = randomInput([2, 2, 4, 24], seed: 91, requiresGrad: false)
        func run(_ x: Tensor, _ dy: Tensor) -> (y: Tensor, dx: Tensor, dScale: Tensor, dShift: Tensor) {
            let c = x.shape.last!
            let scale = Tensor(shape: [c], values: (0..<c).map { 0.5 + Float($0 % 8) * 0.1 }, requiresGrad: true)
            let shift = Tensor(shape: [c], values: (0..<c).map { Float($0 % 8) * 0.3 - 1 }, requiresGrad: true)
            let y = x.batchNorm(scale: scale, shift: shift, runningMean: .zeros([c]), runningVariance: Tensor(shape: [c], repeating: 1),
                                mode: .training(momentum: 0.1), clampedTo: 0...6)
            x.zeroGrad()
            y.backward(gradient: dy)
            return (y, Tensor(shape: x.shape, values: x.grad!), Tensor(shape: [c], values: scale.grad!),
                    Tensor(shape: [c], values: shift.grad!))
        }
        let whole = run(x, dy)
        let parts = (0..<3).map { k in run(slice(x, channels: (8 * k)..<(8 * k + 8)), slice(dy, channels: (8 * k)..<(8 * k + 8), requiresGrad: false)) }
        assertSameBits(whole.y, parts.map(\.y), "output")
        assertSameBits(whole.dx, parts.map(\.dx), "input gradient")
        assertSameBits(whole.dScale, parts.map(\.dScale), "scale gradient")
        assertSameBits(whole.dShift, parts.map(\.dShift), "shift gradient")
    }

    func testDepthwiseWeightGradientPerChannelBits() {
        for stride in [1, 2] {
            let x = randomInput([1, 6, 9, 24], seed: 92)
            let w = randomInput([3, 3, 1, 24], seed: 93)
            let outWidth = stride == 1 ? 9 : 5, outHeight = stride == 1 ? 6 : 3
            let dy = randomInput([1, outHeight, outWidth, 24], seed: 94, requiresGrad: false)
            func weightGradient(_ x: Tensor, _ w: Tensor, _ dy: Tensor) -> Tensor {
                let c = x.shape.last!
                w.zeroGrad()
                x.conv2d(weight: w, stride: stride, padding: 1, groups: c).backward(gradient: dy)
                return Tensor(shape: w.shape, values: w.grad!)
            }
            let whole = weightGradient(x, w, dy)
            let parts = (0..<3).map { k in
                weightGradient(slice(x, channels: (8 * k)..<(8 * k + 8)), slice(w, channels: (8 * k)..<(8 * k + 8)),
                               slice(dy, channels: (8 * k)..<(8 * k + 8), requiresGrad: false))
            }
            assertSameBits(whole, parts, "depthwise weight gradient, stride \(stride)")
        }
    }

    func testDepthwiseInputGradientPerChannelBits() {
        // 13 columns with padding 1: runs of four columns with stride 1 and pairs with stride 2, edges left over.
        for stride in [1, 2] {
            let x = randomInput([1, 5, 13, 24], seed: 95)
            let w = randomInput([3, 3, 1, 24], seed: 96, requiresGrad: false)
            let outWidth = stride == 1 ? 13 : 7, outHeight = stride == 1 ? 5 : 3
            let dy = randomInput([1, outHeight, outWidth, 24], seed: 97, requiresGrad: false)
            func inputGradient(_ x: Tensor, _ w: Tensor, _ dy: Tensor) -> Tensor {
                x.zeroGrad()
                x.conv2d(weight: w, stride: stride, padding: 1, groups: x.shape.last!).backward(gradient: dy)
                return Tensor(shape: x.shape, values: x.grad!)
            }
            let whole = inputGradient(x, w, dy)
            let parts = (0..<3).map { k in
                inputGradient(slice(x, channels: (8 * k)..<(8 * k + 8)), slice(w, channels: (8 * k)..<(8 * k + 8), requiresGrad: false),
                              slice(dy, channels: (8 * k)..<(8 * k + 8), requiresGrad: false))
            }
            assertSameBits(whole, parts, "depthwise input gradient, stride \(stride)")
        }
    }

    /// The 1x1 panel kernels give the same bits with panels of 64 columns (AVX-512's choice) and of 16
    /// (AVX2's and NEON's), on whichever machine runs the test: each output is the same K-ordered sum.
    func testPanelProductsGiveTheSameBitsInPanelsOfAnyWidth() {
        // 48 -> 64 channels on 2 x 3 x 5 pixels (a 2-row remainder tile): the forward and dW products are
        // 64 columns wide (one panel of 64, or four of 16), dX's 48 (32 + 16, or three of 16).
        let x = randomInput([2, 3, 5, 48], seed: 98)
        let w = randomInput([1, 1, 48, 64], seed: 99)
        let dy = randomInput([2, 3, 5, 64], seed: 100, requiresGrad: false)
        func run(sixteenFloats: Bool) -> [[Float]] {
            VectorRegisters.$holdSixteenFloats.withValue(sixteenFloats) {
                x.zeroGrad(); w.zeroGrad()
                let y = x.conv2d(weight: w)
                y.backward(gradient: dy)
                return [y.scalars, x.grad!, w.grad!]
            }
        }
        let (wide, narrow) = (run(sixteenFloats: true), run(sixteenFloats: false))
        for (k, what) in ["output", "input gradient", "weight gradient"].enumerated() {
            XCTAssertTrue(wide[k] == narrow[k], "\(what): panels of 64 and of 16 columns differ")
        }
        XCTAssertFalse(wide[0].allSatisfy { $0 == 0 }, "the product ran")
    }
}
