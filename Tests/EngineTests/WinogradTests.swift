import Engine
import TestSupport
import XCTest

/// Winograd F(2x2, 3x3) (`ConvolutionAlgorithm.winograd`) and F(4x4, 3x3) (`.winograd4x4`)
/// against the double-precision reference, the im2col + GEMM path and finite differences.
///
/// Tolerance: F(2x2, 3x3) sums its products in another order than the direct conv and
/// adds up to 4 inputs before them, so it agrees with the exact result to within
/// 1e-5 of the output's scale (the largest |y|); measured errors are at most 5e-7 of it.
/// F(4x4, 3x3) weighs inputs by up to 5 and products by up to 8 (and the kernel by 1/6,
/// 1/24, not exact in binary): within 5e-5, measured at most 5e-6.
final class WinogradTests: XCTestCase {
    struct Case {
        let name: String
        let x: [Int]  // N, H, W, Cin
        let cout: Int
        let bias: Bool
    }

    // Odd and even, non-square maps; channel counts below, at and past the 8-wide lanes.
    static let cases: [Case] = [
        Case(name: "odd map, 3 -> 4, bias", x: [2, 5, 7, 3], cout: 4, bias: true),
        Case(name: "even map, 8 -> 8", x: [2, 4, 6, 8], cout: 8, bias: false),
        Case(name: "one row, 2 -> 3", x: [1, 1, 3, 2], cout: 3, bias: true),
        Case(name: "one pixel, 9 -> 5", x: [3, 1, 1, 9], cout: 5, bias: false),
        Case(name: "odd map, 16 -> 24, bias", x: [3, 7, 9, 16], cout: 24, bias: true),
        Case(name: "tall, 19 -> 17", x: [2, 9, 4, 19], cout: 17, bias: true),
        Case(name: "bench-like, 64 -> 64", x: [2, 16, 12, 64], cout: 64, bias: true),
    ]

    /// Both tiles, each with its tolerance (relative to the output's scale).
    static let algorithms: [(ConvolutionAlgorithm, String, Float)] = [(.winograd, "F(2x2)", 1e-5), (.winograd4x4, "F(4x4)", 5e-5)]

    func inputs(_ c: Case, seed: UInt64) -> (x: Tensor, w: Tensor, b: Tensor?) {
        let x = randomInput(c.x, seed: seed)
        // He-like scale, as in the network: outputs of order 1 whatever Cin.
        let w = randomInput([3, 3, c.x[3], c.cout], in: -1...1, seed: seed + 1).scaled(by: 1 / Float(3 * c.x[3]).squareRoot()).detached()
        w.setRequiresGradient(true)
        let b = c.bias ? randomInput([c.cout], seed: seed + 2) : nil
        return (x, w, b)
    }

    /// Largest |a - b| over the largest |b|.
    func relativeError(_ a: [Float], _ b: [Float]) -> Float {
        let scale = b.map(abs).max() ?? 0
        let worst = zip(a, b).map { abs($0 - $1) }.max() ?? 0
        return worst / max(scale, .leastNormalMagnitude)
    }

    func testForwardMatchesDoubleReferenceWithinStatedTolerance() {
        for (algorithm, tile, tolerance) in Self.algorithms {
            for (i, c) in Self.cases.enumerated() {
                let (x, w, b) = inputs(c, seed: UInt64(10 * i))
                let y = x.conv2d(weight: w, bias: b, padding: 1, algorithm: algorithm)
                XCTAssertEqual(y.shape, [c.x[0], c.x[1], c.x[2], c.cout], c.name)
                let ref = referenceConv2D(x: x.scalars, xShape: x.shape, w: w.scalars, wShape: w.shape, bias: b?.scalars,
                                          stride: 1, padding: 1, groups: 1)
                let error = relativeError(y.scalars, ref)
                XCTAssertLessThanOrEqual(error, tolerance, "\(tile) \(c.name): relative error \(error)")
            }
        }
    }

    func testForwardAndGradientsMatchIm2col() {
        for (algorithm, tile, tolerance) in Self.algorithms {
            for (i, c) in Self.cases.enumerated() {
                func run(_ algorithm: ConvolutionAlgorithm) -> [[Float]] {
                    let (x, w, b) = inputs(c, seed: UInt64(50 + 10 * i))
                    let y = x.conv2d(weight: w, bias: b, padding: 1, algorithm: algorithm)
                    let dy = randomInput(y.shape, seed: 7, requiresGrad: false)
                    (y * dy).sum().backward()
                    return [y.scalars, x.grad!, w.grad!] + (b.map { [$0.grad!] } ?? [])
                }
                let (winograd, im2col) = (run(algorithm), run(.im2col))
                for (k, name) in ["y", "dx", "dw", "db"].prefix(winograd.count).enumerated() {
                    let error = relativeError(winograd[k], im2col[k])
                    XCTAssertLessThanOrEqual(error, tolerance, "\(tile) \(c.name) \(name): relative difference \(error)")
                }
            }
        }
    }

    func testGradientsMatchFiniteDifferences() {
        // Small enough for a finite difference of every element; 6x6 maps for a whole F(4x4) tile and a cut one.
        let cases = Self.cases.prefix(4) + [Case(name: "6x6 map, 3 -> 2, bias", x: [1, 6, 6, 3], cout: 2, bias: true)]
        for (algorithm, _, _) in Self.algorithms {
            for (i, c) in cases.enumerated() {
                let (x, w, b) = inputs(c, seed: UInt64(100 + 10 * i))
                assertGradientsMatch([x, w] + (b.map { [$0] } ?? [])) { t in
                    t[0].conv2d(weight: t[1], bias: t.count > 2 ? t[2] : nil, padding: 1, algorithm: algorithm)
                }
            }
        }
    }

    func testGradientsAddUpWhenInputAndWeightAreUsedTwice() {
        // x feeds two convs (dX accumulates); w serves two convs (dW accumulates); odd map, 8-wide lanes.
        for (algorithm, _, _) in Self.algorithms {
            let x = randomInput([2, 5, 3, 8], seed: 200)
            let w = randomInput([3, 3, 8, 8], seed: 201).scaled(by: 0.2).detached()
            let w2 = randomInput([3, 3, 8, 8], seed: 202).scaled(by: 0.2).detached()
            let b = randomInput([8], seed: 203)
            w.setRequiresGradient(true)
            w2.setRequiresGradient(true)
            assertGradientsMatch([x, w, w2, b]) { t in
                let y = t[0].conv2d(weight: t[1], bias: t[3], padding: 1, algorithm: algorithm)
                    + t[0].conv2d(weight: t[2], padding: 1, algorithm: algorithm)
                return y.conv2d(weight: t[1], padding: 1, algorithm: algorithm)
            }
        }
    }

    func testResultsAreIdenticalWithOneOrTwoThreads() {
        // Several blocks of tiles in every pass; odd sizes and a lane remainder.
        for (algorithm, tile, _) in Self.algorithms {
            for (xShape, cout) in [([4, 33, 18, 16], 24), ([3, 20, 30, 12], 9)] {
                func run(threads: Int) -> [[Float]] {
                    Parallel.withThreads(threads) {
                        let x = randomInput(xShape, seed: 40), w = randomInput([3, 3, xShape[3], cout], seed: 41)
                        let b = randomInput([cout], seed: 42)
                        let y = x.conv2d(weight: w, bias: b, padding: 1, algorithm: algorithm)
                        (y * y).sum().backward()
                        return [y.scalars, x.grad!, w.grad!, b.grad!]
                    }
                }
                let one = run(threads: 1), two = run(threads: 2)
                for (i, name) in ["y", "dx", "dw", "db"].enumerated() {
                    XCTAssertEqual(one[i], two[i], "\(tile) \(xShape) -> \(cout): \(name) differs between 1 and 2 threads")
                }
            }
        }
    }

    func testAutomaticChoiceAgreesWithTheChosenPaths() {
        // 64 tiles of 64 channels: `.automatic` runs the forward and data passes by Winograd and
        // the weight pass by im2col; each result must equal that path's bit for bit.
        let c = Case(name: "64 -> 64", x: [2, 16, 8, 64], cout: 64, bias: true)
        func run(_ algorithm: ConvolutionAlgorithm) -> [[Float]] {
            let (x, w, b) = inputs(c, seed: 300)
            let y = x.conv2d(weight: w, bias: b, padding: 1, algorithm: algorithm)
            // A fixed dY, so each gradient depends on its own pass only.
            (y * randomInput(y.shape, seed: 301, requiresGrad: false)).sum().backward()
            return [y.scalars, x.grad!, w.grad!]
        }
        let (automatic, winograd, im2col) = (run(.automatic), run(.winograd), run(.im2col))
        XCTAssertEqual(automatic[0], winograd[0], "y")
        XCTAssertEqual(automatic[1], winograd[1], "dx")
        XCTAssertEqual(automatic[2], im2col[2], "dw")
    }

    func testAutomaticRunsF4x4WhereItHasTheTilesForIt() {
        // 64 F(4x4) tiles: every pass by F(4x4), bit for bit.
        let c = Case(name: "16 -> 16", x: [1, 32, 32, 16], cout: 16, bias: true)
        func run(_ algorithm: ConvolutionAlgorithm) -> [[Float]] {
            let (x, w, b) = inputs(c, seed: 310)
            let y = x.conv2d(weight: w, bias: b, padding: 1, algorithm: algorithm)
            (y * randomInput(y.shape, seed: 311, requiresGrad: false)).sum().backward()
            return [y.scalars, x.grad!, w.grad!]
        }
        let (automatic, winograd) = (run(.automatic), run(.winograd4x4))
        for (k, name) in ["y", "dx", "dw"].enumerated() { XCTAssertTrue(automatic[k] == winograd[k], "\(name) differs from F(4x4)'s") }
        XCTAssertTrue(automatic[0] != run(.winograd)[0], "F(2x2) rounds differently: the test must tell the tiles apart")
    }

    func testPreparedInferenceConvolutionMatchesEachTile() {
        // The inference conv keeps U for both tiles, packed once, and picks by the input's size, as
        // `.automatic` does; training packs U per call for the same products, so the bits agree.
        let w = randomInput([3, 3, 16, 24], in: -0.2...0.2, seed: 320, requiresGrad: false)
        let b = randomInput([24], seed: 321, requiresGrad: false)
        let conv = InferenceConvolution(weight: w, bias: b, padding: 1, clampedTo: 0...6)
        for (shape, algorithm) in [([1, 32, 32, 16], ConvolutionAlgorithm.winograd4x4), ([1, 16, 16, 16], .winograd)] {
            let x = randomInput(shape, seed: 322, requiresGrad: false)
            let expected = x.conv2d(weight: w, bias: b, padding: 1, algorithm: algorithm).clamped(min: 0, max: 6)
            XCTAssertEqual(conv(x).scalars, expected.scalars, "\(shape): the prepared conv against \(algorithm)")
        }
    }

    func testAutomaticPicksWinogradOnlyForLargeDenseStrideOneConvs() {
        func passes(_ n: Int, _ h: Int, _ w: Int, _ cin: Int, _ cout: Int, stride: Int = 1, groups: Int = 1) -> WinogradPasses {
            ConvGeometry(batch: n, height: h, width: w, inChannels: cin, kernelHeight: 3, kernelWidth: 3, outChannels: cout,
                         stride: stride, padding: 1, groups: groups).winogradPasses(.automatic)
        }
        let all = WinogradPasses(forward: true, backwardData: true, backwardWeight: true)
        let all4x4 = WinogradPasses(forward: true, backwardData: true, backwardWeight: true, tile: .f4x4)
        XCTAssertEqual(passes(8, 64, 32, 64, 104), all4x4, "1024 F(4x4) tiles")
        XCTAssertEqual(passes(8, 16, 8, 64, 64), all4x4, "64 F(4x4) tiles")
        XCTAssertEqual(passes(2, 16, 13, 64, 32), all4x4, "32 F(4x4) tiles, the last column cut")
        let noWeightPass = WinogradPasses(forward: true, backwardData: true, backwardWeight: false)
        XCTAssertEqual(passes(2, 16, 12, 64, 32), noWeightPass, "24 F(4x4) tiles, 96 F(2x2)")
        XCTAssertEqual(passes(8, 8, 4, 64, 64), noWeightPass, "16 F(4x4) tiles, 64 F(2x2)")
        XCTAssertEqual(passes(64, 2, 2, 64, 64), noWeightPass, "64 F(4x4) tiles of 4 pixels each: F(2x2)")
        XCTAssertEqual(
            ConvGeometry(batch: 1, height: 64, width: 64, inChannels: 64, kernelHeight: 3, kernelWidth: 3, outChannels: 64,
                         stride: 1, padding: 1, groups: 1).winogradPasses(.winograd), all, "an explicit F(2x2) whatever the size")
        XCTAssertEqual(passes(1, 16, 8, 64, 64), WinogradPasses(), "32 tiles")
        XCTAssertEqual(passes(8, 64, 32, 3, 16), WinogradPasses(), "few input channels")
        XCTAssertEqual(passes(8, 64, 32, 64, 64, stride: 2), WinogradPasses(), "stride 2")
        XCTAssertEqual(passes(8, 64, 32, 64, 64, groups: 64), WinogradPasses(), "depthwise")
        XCTAssertEqual(
            ConvGeometry(batch: 8, height: 64, width: 32, inChannels: 64, kernelHeight: 3, kernelWidth: 3, outChannels: 64,
                         stride: 1, padding: 1, groups: 1).winogradPasses(.im2col), WinogradPasses())
    }
}
