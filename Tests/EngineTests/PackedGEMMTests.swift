@testable import Engine
import TestSupport
import XCTest

/// The inference path's 1x1 product on weights packed once (`packedGEMM`), which runs every 1x1
/// shape at inference: those training's panel kernels take and those they do not (more than 64
/// output channels, or more than 128 input channels).
final class PackedGEMMTests: XCTestCase {
    /// (input NHWC, output channels): tiles of 6 rows with remainders of 1-5, several blocks of
    /// rows, products split into groups of panels (few rows, many columns), widths that leave a
    /// last panel of 16 after panels of 32 (AVX-512's layout), and last panels short of a vector.
    static let shapes: [([Int], Int)] = [
        ([1, 5, 7, 24], 80),     // 35 rows: 5 tiles and a remainder of 5
        ([2, 9, 11, 200], 16),   // K past the panel kernels', 198 rows in blocks
        ([1, 2, 4, 130], 144),   // 8 rows, 144 columns: groups of panels over few rows
        ([1, 1, 1, 96], 208),    // one row
        ([3, 8, 8, 72], 96),     // 192 rows, whole tiles
        ([1, 5, 3, 24], 104),    // a last panel of 8 columns (the class head's width)
        ([1, 3, 4, 20], 88),     // a last panel of 24: part of a 32-column panel with AVX-512's layout
        ([2, 3, 7, 40], 3),      // fewer columns than a vector
        ([1, 13, 9, 16], 32),    // panel kernels' shapes from here: b1.pointwise's
        ([2, 7, 5, 64], 64),     // b3.pointwise's
        ([1, 6, 11, 128], 64),   // fpn.lateral3's
    ]

    func run(_ x: Tensor, _ w: Tensor, _ b: Tensor, clamp: ClosedRange<Float>?, sixteenFloats: Bool, threads: Int) -> [Float] {
        VectorRegisters.$holdSixteenFloats.withValue(sixteenFloats) {
            Parallel.withThreads(threads) {
                let conv = InferenceConvolution(weight: w, bias: b, clampedTo: clamp)
                // A buffer of the output's size filled with NaN and freed, so that the output most
                // likely reuses it: a column the kernel failed to write shows as NaN, not as an
                // earlier run's right answer.
                let count = x.shape.dropLast().reduce(1, *) * w.shape[3]
                _ = Tensor(shape: [count], values: [Float](repeating: .nan, count: count))
                return conv(x).scalars
            }
        }
    }

    /// Matches the double-precision reference with the bias added and the clamp applied after it.
    func testMatchesDoubleReferenceWithBiasAndClamp() {
        for (i, (shape, cout)) in Self.shapes.enumerated() {
            let x = randomInput(shape, seed: UInt64(700 + 3 * i), requiresGrad: false)
            let w = randomInput([1, 1, shape[3], cout], seed: UInt64(701 + 3 * i), requiresGrad: false)
            let b = randomInput([cout], seed: UInt64(702 + 3 * i), requiresGrad: false)
            let ref = referenceConv2D(x: x.scalars, xShape: x.shape, w: w.scalars, wShape: w.shape, bias: b.scalars,
                                      stride: 1, padding: 0, groups: 1)
            for clamp in [nil, Float(-0.5)...Float(1)] as [ClosedRange<Float>?] {
                let expected = clamp.map { r in ref.map { min(max($0, r.lowerBound), r.upperBound) } } ?? ref
                for sixteen in [false, true] {
                    let got = run(x, w, b, clamp: clamp, sixteenFloats: sixteen, threads: 2)
                    // K up to 200 products of terms below 1: float sums stay within 1e-4 of the double ones.
                    assertClose(got, expected, tolerance: 1e-4, "\(shape) -> \(cout), clamp \(String(describing: clamp)), panels of \(sixteen ? 32 : 16)")
                }
            }
        }
    }

    /// Each output is the same K-ordered chain of multiply-adds whatever the panels' width and the
    /// split over threads: the same bits with panels of 32 and of 16, on one thread and on two.
    func testSameBitsForAnyPanelWidthAndThreadCount() {
        for (i, (shape, cout)) in Self.shapes.enumerated() {
            let x = randomInput(shape, seed: UInt64(800 + 3 * i), requiresGrad: false)
            let w = randomInput([1, 1, shape[3], cout], seed: UInt64(801 + 3 * i), requiresGrad: false)
            let b = randomInput([cout], seed: UInt64(802 + 3 * i), requiresGrad: false)
            let base = run(x, w, b, clamp: 0...6, sixteenFloats: false, threads: 1)
            XCTAssertFalse(base.allSatisfy { $0 == 0 }, "the product ran")
            for (sixteen, threads) in [(false, 2), (true, 1), (true, 2)] {
                XCTAssertTrue(run(x, w, b, clamp: 0...6, sixteenFloats: sixteen, threads: threads) == base,
                              "\(shape) -> \(cout): panels of \(sixteen ? 32 : 16), \(threads) threads differ")
            }
        }
    }

    /// Where training's panel kernels take the shape, inference gives the same bits as training's
    /// forward (conv2d, then the clamp): both sum K in order from zero and add the bias after.
    func testPanelShapesGiveTrainingForwardBits() {
        for (i, (shape, cout)) in Self.shapes.enumerated() where panelGEMMApplies(n: cout, k: shape[3]) {
            let x = randomInput(shape, seed: UInt64(900 + 3 * i), requiresGrad: false)
            let w = randomInput([1, 1, shape[3], cout], seed: UInt64(901 + 3 * i), requiresGrad: false)
            let b = randomInput([cout], seed: UInt64(902 + 3 * i), requiresGrad: false)
            let training = x.conv2d(weight: w, bias: b).relu6().scalars
            for sixteen in [false, true] {
                XCTAssertTrue(run(x, w, b, clamp: 0...6, sixteenFloats: sixteen, threads: 2) == training,
                              "\(shape) -> \(cout), panels of \(sixteen ? 32 : 16): inference differs from training's forward")
            }
        }
    }
}
