import Engine
import TestSupport
import XCTest

final class ConvolutionTests: XCTestCase {
    struct Case {
        let name: String
        let x: [Int]       // N, H, W, Cin
        let k: (Int, Int)  // kh, kw
        let cout, stride, padding, groups: Int
        let bias: Bool
    }

    // Non-square inputs everywhere: height/width mix-ups must show.
    static let cases: [Case] = [
        Case(name: "dense 3x3 s1 p1", x: [2, 5, 4, 3], k: (3, 3), cout: 4, stride: 1, padding: 1, groups: 1, bias: true),
        // Few input channels and Cout a multiple of 8: the direct stem kernels (odd Cout/16 split included).
        Case(name: "stem 3x3 s2 rgb -> 16", x: [2, 9, 6, 3], k: (3, 3), cout: 16, stride: 2, padding: 1, groups: 1, bias: false),
        Case(name: "stem 3x3 s1 2ch -> 24 bias", x: [1, 5, 7, 2], k: (3, 3), cout: 24, stride: 1, padding: 1, groups: 1, bias: true),
        // 8 output channels (the small detectors' stem), a row too narrow for a run of eight: pixel by pixel.
        Case(name: "stem 3x3 s2 rgb -> 8", x: [2, 5, 13, 3], k: (3, 3), cout: 8, stride: 2, padding: 1, groups: 1, bias: true),
        // Runs of eight pixels inside the image: two, then one overlapping the second (17 interior
        // columns); two overlapping (10); exactly one (8); edge pixels one by one around them.
        Case(name: "stem 3x3 s2 rgb -> 8 wide", x: [1, 5, 37, 3], k: (3, 3), cout: 8, stride: 2, padding: 1, groups: 1, bias: true),
        Case(name: "stem 3x3 s1 rgb -> 24 wide", x: [2, 4, 12, 3], k: (3, 3), cout: 24, stride: 1, padding: 1, groups: 1, bias: false),
        Case(name: "stem 3x3 s1 rgb -> 16 one run", x: [1, 3, 10, 3], k: (3, 3), cout: 16, stride: 1, padding: 1, groups: 1, bias: true),
        Case(name: "dense 3x3 s2 p1 odd", x: [2, 7, 5, 3], k: (3, 3), cout: 2, stride: 2, padding: 1, groups: 1, bias: false),
        Case(name: "pointwise 1x1", x: [2, 3, 5, 4], k: (1, 1), cout: 3, stride: 1, padding: 0, groups: 1, bias: true),
        Case(name: "1x1 stride 2", x: [1, 5, 6, 3], k: (1, 1), cout: 2, stride: 2, padding: 0, groups: 1, bias: false),
        Case(name: "5x3 kernel p2", x: [1, 6, 7, 2], k: (5, 3), cout: 3, stride: 1, padding: 2, groups: 1, bias: true),
        Case(name: "2x2 s3 no pad", x: [2, 8, 7, 2], k: (2, 2), cout: 2, stride: 3, padding: 0, groups: 1, bias: true),
        Case(name: "grouped 3x3 g2", x: [2, 5, 4, 4], k: (3, 3), cout: 6, stride: 1, padding: 1, groups: 2, bias: true),
        Case(name: "grouped 1x1 g3 s2", x: [1, 5, 5, 6], k: (1, 1), cout: 3, stride: 2, padding: 0, groups: 3, bias: false),
        Case(name: "depthwise 3x3 s1", x: [2, 5, 4, 5], k: (3, 3), cout: 5, stride: 1, padding: 1, groups: 5, bias: false),
        Case(name: "depthwise 3x3 s2 odd", x: [2, 7, 5, 3], k: (3, 3), cout: 3, stride: 2, padding: 1, groups: 3, bias: true),
        Case(name: "depthwise x2 multiplier", x: [1, 4, 5, 2], k: (3, 3), cout: 4, stride: 1, padding: 1, groups: 2, bias: false),
        Case(name: "depthwise 5x5 p2 s2 many channels", x: [1, 6, 9, 17], k: (5, 5), cout: 17, stride: 2, padding: 2, groups: 17, bias: true),
        // Channels in multiples of 8 take the register-blocked 3x3 kernels.
        Case(name: "depthwise 3x3 s1 c8k", x: [2, 5, 7, 16], k: (3, 3), cout: 16, stride: 1, padding: 1, groups: 16, bias: true),
        Case(name: "depthwise 3x3 s2 c8k odd", x: [2, 7, 5, 8], k: (3, 3), cout: 8, stride: 2, padding: 1, groups: 8, bias: false),
        Case(name: "depthwise 3x3 s2 c8k even", x: [1, 6, 8, 24], k: (3, 3), cout: 24, stride: 2, padding: 1, groups: 24, bias: true),
        Case(name: "depthwise 3x3 s1 no pad c8k", x: [1, 5, 6, 8], k: (3, 3), cout: 8, stride: 1, padding: 0, groups: 8, bias: false),
        // 1x1 with channels in whole 16-lane vectors: the panel kernels (4-row tiles with a remainder,
        // 16-, 32- and 48-column outputs, dX's and dW's panels too).
        Case(name: "pointwise panel 6 -> 16", x: [2, 3, 5, 6], k: (1, 1), cout: 16, stride: 1, padding: 0, groups: 1, bias: true),
        Case(name: "pointwise panel 32 -> 16", x: [1, 3, 3, 32], k: (1, 1), cout: 16, stride: 1, padding: 0, groups: 1, bias: false),
        Case(name: "pointwise panel 16 -> 48", x: [1, 2, 5, 16], k: (1, 1), cout: 48, stride: 1, padding: 0, groups: 1, bias: true),
        // Single-column and single-row images: every window column but the middle is padding.
        Case(name: "depthwise 3x3 s1 c8k one column", x: [2, 4, 1, 8], k: (3, 3), cout: 8, stride: 1, padding: 1, groups: 8, bias: true),
        Case(name: "depthwise 3x3 s2 c8k one row", x: [1, 1, 5, 16], k: (3, 3), cout: 16, stride: 2, padding: 1, groups: 16, bias: false),
        // Rows wide enough for the stride-1 kernels' runs of four columns, with columns left over.
        Case(name: "depthwise 3x3 s1 c8k wide", x: [1, 3, 13, 16], k: (3, 3), cout: 16, stride: 1, padding: 1, groups: 16, bias: true),
        Case(name: "depthwise 3x3 s1 c24 wide", x: [1, 3, 13, 24], k: (3, 3), cout: 24, stride: 1, padding: 1, groups: 24, bias: false),
        Case(name: "depthwise 3x3 s1 no pad c8k wide", x: [1, 4, 11, 8], k: (3, 3), cout: 8, stride: 1, padding: 0, groups: 8, bias: false),
        Case(name: "depthwise 3x3 s1 p2 c8k wide", x: [2, 5, 11, 8], k: (3, 3), cout: 8, stride: 1, padding: 2, groups: 8, bias: true),
        Case(name: "depthwise 3x3 s1 c8k one run exactly", x: [1, 3, 6, 8], k: (3, 3), cout: 8, stride: 1, padding: 1, groups: 8, bias: false),
        // Widths in whole runs: the last run's right column lies in the padding too (both ends at width 4).
        Case(name: "depthwise 3x3 s1 c8k runs at both edges", x: [2, 4, 8, 16], k: (3, 3), cout: 16, stride: 1, padding: 1, groups: 16, bias: true),
        Case(name: "depthwise 3x3 s1 c8k one run, both edges", x: [1, 3, 4, 8], k: (3, 3), cout: 8, stride: 1, padding: 1, groups: 8, bias: false),
        Case(name: "depthwise 3x3 s2 c8k wide", x: [1, 5, 14, 16], k: (3, 3), cout: 16, stride: 2, padding: 1, groups: 16, bias: true),
        Case(name: "depthwise 3x3 s2 no pad c8k wide odd", x: [1, 5, 15, 8], k: (3, 3), cout: 8, stride: 2, padding: 0, groups: 8, bias: false),
    ]

    func makeInputs(_ c: Case, seed: UInt64) -> (x: Tensor, w: Tensor, b: Tensor?) {
        let x = randomInput(c.x, seed: seed)
        let w = randomInput([c.k.0, c.k.1, c.x[3] / c.groups, c.cout], seed: seed + 1)
        let b = c.bias ? randomInput([c.cout], seed: seed + 2) : nil
        return (x, w, b)
    }

    func testForwardMatchesDoubleReference() {
        for (i, c) in Self.cases.enumerated() {
            let (x, w, b) = makeInputs(c, seed: UInt64(10 * i))
            let y = x.conv2d(weight: w, bias: b, stride: c.stride, padding: c.padding, groups: c.groups)
            let ref = referenceConv2D(x: x.scalars, xShape: x.shape, w: w.scalars, wShape: w.shape, bias: b?.scalars,
                                      stride: c.stride, padding: c.padding, groups: c.groups)
            XCTAssertEqual(y.shape[1], (c.x[1] + 2 * c.padding - c.k.0) / c.stride + 1, c.name)
            XCTAssertEqual(y.shape[2], (c.x[2] + 2 * c.padding - c.k.1) / c.stride + 1, c.name)
            assertClose(y.scalars, ref, tolerance: 1e-5, c.name)
        }
    }

    /// The inference path (weights prepared once, bias and clamp applied as the output is written)
    /// agrees with the double-precision reference clamped afterwards, on every kernel: the cases
    /// above, a plain 1x1 GEMM big enough to split by rows, and a Winograd-sized 3x3.
    func testInferenceConvolutionClampsAsItWrites() {
        let extra = [
            Case(name: "1x1 split by rows", x: [1, 24, 24, 16], k: (1, 1), cout: 24, stride: 1, padding: 0, groups: 1, bias: true),
            Case(name: "3x3 by Winograd", x: [1, 18, 16, 16], k: (3, 3), cout: 24, stride: 1, padding: 1, groups: 1, bias: true),
            Case(name: "3x3 by Winograd, odd sizes", x: [2, 17, 13, 16], k: (3, 3), cout: 16, stride: 1, padding: 1, groups: 1, bias: false),
        ]
        for (i, c) in (Self.cases + extra).enumerated() {
            let (x, w, b) = makeInputs(c, seed: UInt64(500 + 10 * i))
            let ref = referenceConv2D(x: x.scalars, xShape: x.shape, w: w.scalars, wShape: w.shape, bias: b?.scalars,
                                      stride: c.stride, padding: c.padding, groups: c.groups)
            for clamp in [nil, Float(-0.25)...Float(0.5)] as [ClosedRange<Float>?] {
                let conv = InferenceConvolution(weight: w, bias: b, stride: c.stride, padding: c.padding, groups: c.groups, clampedTo: clamp)
                let expected = clamp.map { r in ref.map { min(max($0, r.lowerBound), r.upperBound) } } ?? ref
                // The odd-sized case runs Winograd F(4x4, 3x3) (40 of its tiles), whose transforms round more:
                // an error of 1.2e-5 measured here (weights not He-scaled as in WinogradTests, whose bound is relative).
                let tolerance: Float = c.name == "3x3 by Winograd, odd sizes" ? 5e-5 : 1e-5
                assertClose(conv(x).scalars, expected, tolerance: tolerance, "\(c.name), clamp \(String(describing: clamp))")
                XCTAssertEqual(x.convolvedForInference(weight: w, bias: b, stride: c.stride, padding: c.padding, groups: c.groups,
                                                       clampedTo: clamp).scalars, conv(x).scalars, c.name)
            }
        }
    }

    func testGradientsMatchFiniteDifferences() {
        for (i, c) in Self.cases.enumerated() {
            let (x, w, b) = makeInputs(c, seed: UInt64(100 + 10 * i))
            let inputs = [x, w] + (b.map { [$0] } ?? [])
            assertGradientsMatch(inputs) { t in
                t[0].conv2d(weight: t[1], bias: t.count > 2 ? t[2] : nil, stride: c.stride, padding: c.padding, groups: c.groups)
            }
        }
    }

    /// A gradient added to one already there (x feeding two convolutions), through every 1x1 path.
    func testGradientsAccumulateIntoAnInputUsedTwice() {
        for (cin, cout) in [(16, 32), (6, 16), (5, 3)] {
            let x = randomInput([1, 3, 4, cin], seed: 7)
            let w1 = randomInput([1, 1, cin, cout], seed: 8), w2 = randomInput([1, 1, cin, cout], seed: 9)
            assertGradientsMatch([x, w1, w2]) { t in t[0].conv2d(weight: t[1]) + t[0].conv2d(weight: t[2]) }
        }
    }

    func testLargeBatchUsesSeveralIm2colChunksCorrectly() {
        // 40 images of 64x64 with a 3x3x16 patch exceed the im2col budget, forcing chunks.
        let x = randomInput([40, 64, 64, 16], seed: 5, requiresGrad: false)
        let w = randomInput([3, 3, 16, 4], seed: 6, requiresGrad: false)
        let y = x.conv2d(weight: w, stride: 1, padding: 1)
        let ref = referenceConv2D(x: x.scalars, xShape: x.shape, w: w.scalars, wShape: w.shape, bias: nil, stride: 1, padding: 1, groups: 1)
        assertClose(y.scalars, ref, tolerance: 1e-4)
    }

    func testSplitGEMMsGiveIdenticalResultsWithOneOrTwoThreadsOnThisMachine() {
        // 3x3 dense: row-split forward, dX and dW; 1x1 with 16 input channels: K-split dW;
        // 1x1 256 -> 256 on 256 pixels: column-split forward and dW.
        // 1x1 32 -> 16 on 12,288 pixels: the panel kernels, dW summed over 12 blocks of rows.
        for (xShape, wShape, padding) in [([4, 32, 32, 16], [3, 3, 16, 32], 1), ([4, 128, 64, 16], [1, 1, 16, 8], 0),
                                          ([4, 8, 8, 256], [1, 1, 256, 256], 0), ([4, 64, 48, 32], [1, 1, 32, 16], 0)] {
            func run(threads: Int) -> [[Float]] {
                Parallel.withThreads(threads) {
                    let x = randomInput(xShape, seed: 40), w = randomInput(wShape, seed: 41)
                    // im2col forced: `.automatic` would run the 3x3 by Winograd (tested in WinogradTests).
                    let y = x.conv2d(weight: w, padding: padding, algorithm: .im2col)
                    (y * y).sum().backward()
                    return [y.scalars, x.grad!, w.grad!]
                }
            }
            let one = run(threads: 1), two = run(threads: 2)
            for (i, name) in ["y", "dx", "dw"].enumerated() {
                let diff = zip(one[i], two[i]).map { abs($0 - $1) }.max() ?? 0
                XCTAssertEqual(diff, 0, "\(wShape) \(name) differs by up to \(diff)")
            }
            let ref = referenceConv2D(x: randomInput(xShape, seed: 40).scalars, xShape: xShape, w: randomInput(wShape, seed: 41).scalars,
                                      wShape: wShape, bias: nil, stride: 1, padding: padding, groups: 1)
            assertClose(two[0], ref, tolerance: 1e-4)
        }
    }

    func testGradientsAreIdenticalWithOneOrTwoThreadsOnThisMachine() {
        let c = Self.cases.first { $0.name == "depthwise 3x3 s2 odd" }!
        func run(threads: Int) -> [[Float]] {
            Parallel.withThreads(threads) {
                let (x, w, b) = makeInputs(c, seed: 3)
                let y = x.conv2d(weight: w, bias: b, stride: c.stride, padding: c.padding, groups: c.groups)
                (y * y).sum().backward()
                return [y.scalars, x.grad!, w.grad!, b!.grad!]
            }
        }
        XCTAssertEqual(run(threads: 1), run(threads: 2))
    }

    /// The 3x3 depthwise forward takes the padding columns at the ends of its runs of four as zeros (and
    /// skips them one column at a time); with padding 0 on an input padded by hand, every window is inside
    /// and reads real zeros: the same bits, bias or not.
    func testDepthwisePaddingGivesTheSameBitsAsZerosPaddedByHand() {
        // 8 columns: both edges in runs; 13: a column left over; 4: one run with both edges.
        for (width, bias) in [(8, false), (13, true), (4, false)] {
            let (h, c) = (3, 16)
            let x = randomInput([2, h, width, c], seed: 61)
            let w = randomInput([3, 3, 1, c], seed: 62)
            let b = bias ? randomInput([c], seed: 63) : nil
            var padded = [Float](repeating: 0, count: 2 * (h + 2) * (width + 2) * c)
            let values = x.scalars
            for n in 0..<2 { for y in 0..<h { for col in 0..<width { for j in 0..<c {
                padded[((n * (h + 2) + y + 1) * (width + 2) + col + 1) * c + j] = values[((n * h + y) * width + col) * c + j]
            } } } }
            let byHand = Tensor(shape: [2, h + 2, width + 2, c], values: padded)
            let expected = byHand.conv2d(weight: w, bias: b, padding: 0, groups: c).scalars
            let y = x.conv2d(weight: w, bias: b, padding: 1, groups: c).scalars
            XCTAssertTrue(y == expected, "width \(width): the padded runs differ from zeros padded by hand")
        }
    }
}
