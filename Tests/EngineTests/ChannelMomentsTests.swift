@testable import Engine
import TestSupport
import XCTest

/// Batch norm's statistics gathered by the conv that writes its input: the same bits whoever
/// gathers them, and each kernel on the network's shapes really gathers them as it writes.
final class ChannelMomentsTests: XCTestCase {
    /// Mean and sum of squared deviations in double, two passes.
    func reference(_ v: [Float], channels c: Int) -> (mean: [Double], m2: [Double]) {
        let rows = v.count / c
        let mean = (0..<c).map { j in (0..<rows).reduce(0.0) { $0 + Double(v[$1 * c + j]) } / Double(rows) }
        let m2 = (0..<c).map { j in (0..<rows).reduce(0.0) { $0 + (Double(v[$1 * c + j]) - mean[j]) * (Double(v[$1 * c + j]) - mean[j]) } }
        return (mean, m2)
    }

    func testMomentsMatchTwoPassDoublesAtALargeOffset() {
        // Vector (8, 16, 16 + 8 channels) and scalar (5) paths; groups of 16-256 rows and a partial last group.
        for c in [5, 8, 16, 24] {
            let rows = 1003
            let x = randomInput([rows, c], in: -1...1, seed: 50, requiresGrad: false)
            let values = x.scalars.enumerated().map { 1000 + 0.03 * $0.element + Float($0.offset % c) }
            let t = Tensor(shape: [rows, c], values: values)
            let (count, mean, m2) = ChannelMoments(shape: [rows, c]).finish(t.pointer)
            let ref = reference(values, channels: c)
            XCTAssertEqual(count, rows)
            for j in 0..<c {
                XCTAssertEqual(mean[j], ref.mean[j], accuracy: 1e-9 * abs(ref.mean[j]), "c \(c) channel \(j) mean")
                XCTAssertEqual(m2[j], ref.m2[j], accuracy: 1e-5 * ref.m2[j], "c \(c) channel \(j) M2")
            }
        }
    }

    func testGatheringInAnyBlocksGivesTheSameBits() {
        let (rows, c) = (1000, 24)
        let x = randomInput([rows, c], in: -3...5, seed: 51, requiresGrad: false)
        let plain = ChannelMoments(shape: [rows, c]).finish(x.pointer)
        // Blocks aligned to groups, blocks that split groups, the whole matrix, on one and two threads.
        for (threads, block) in [(1, 7), (2, 37), (2, 64), (2, 128), (1, 1000)] {
            let moments = ChannelMoments(shape: [rows, c])
            Parallel.withThreads(threads) {
                Parallel.forEachBlock(count: rows, blockSize: block) { _, r in moments.gather(x.pointer, rows: r) }
            }
            let gathered = moments.finish(x.pointer)
            XCTAssertEqual(gathered.mean, plain.mean, "blocks of \(block) rows on \(threads) threads")
            XCTAssertEqual(gathered.m2, plain.m2, "blocks of \(block) rows on \(threads) threads")
        }
    }

    /// Every kernel a `ConvBNActivation` can run: the output as `conv2d` writes it, the moments
    /// bit-identical to those found afterwards, and gathered by the kernel itself where it writes in
    /// blocks of whole groups (all but Winograd and the grouped im2col path).
    func testConvolutionsGatherTheirOutputsMomentsAsTheyWrite() {
        struct Case { let name: String; let x: [Int]; let w: [Int]; let stride, padding, groups: Int; let gathers: Bool }
        let cases = [
            Case(name: "depthwise 3x3 s1", x: [2, 12, 16, 32], w: [3, 3, 1, 32], stride: 1, padding: 1, groups: 32, gathers: true),
            Case(name: "depthwise 3x3 s2", x: [2, 12, 16, 16], w: [3, 3, 1, 16], stride: 2, padding: 1, groups: 16, gathers: true),
            Case(name: "depthwise generic", x: [2, 9, 8, 6], w: [3, 3, 1, 6], stride: 1, padding: 1, groups: 6, gathers: true),
            Case(name: "stem, 16 outputs", x: [2, 16, 32, 3], w: [3, 3, 3, 16], stride: 2, padding: 1, groups: 1, gathers: true),
            Case(name: "stem, 8 outputs", x: [2, 16, 32, 3], w: [3, 3, 3, 8], stride: 2, padding: 1, groups: 1, gathers: true),
            Case(name: "pointwise panel", x: [2, 16, 32, 16], w: [1, 1, 16, 32], stride: 1, padding: 0, groups: 1, gathers: true),
            Case(name: "pointwise sgemm", x: [2, 16, 32, 64], w: [1, 1, 64, 128], stride: 1, padding: 0, groups: 1, gathers: true),
            Case(name: "3x3 s2 im2col", x: [2, 16, 16, 16], w: [3, 3, 16, 32], stride: 2, padding: 1, groups: 1, gathers: true),
            Case(name: "3x3 s1 Winograd", x: [2, 16, 16, 16], w: [3, 3, 16, 32], stride: 1, padding: 1, groups: 1, gathers: false),
        ]
        for k in cases {
            let x = randomInput(k.x, seed: 52, requiresGrad: false), w = randomInput(k.w, seed: 53, requiresGrad: false)
            let (y, moments) = x.conv2dGatheringMoments(weight: w, stride: k.stride, padding: k.padding, groups: k.groups)
            let plain = x.conv2d(weight: w, stride: k.stride, padding: k.padding, groups: k.groups)
            XCTAssertEqual(y.scalars, plain.scalars, k.name)
            if k.gathers {
                XCTAssertEqual(moments.groups.summedCount, moments.groups.count, "\(k.name): groups left to finish")
            }
            let afterwards = ChannelMoments(shape: moments.shape).finish(y.pointer)
            let gathered = moments.finish(y.pointer)
            XCTAssertEqual(gathered.mean, afterwards.mean, k.name)
            XCTAssertEqual(gathered.m2, afterwards.m2, k.name)
        }
    }

    /// Batch norm on moments the conv gathered equals batch norm finding them itself, forward and backward.
    func testBatchNormOnGatheredMomentsEqualsBatchNormAlone() {
        func run(gathered: Bool) -> [[Float]] {
            let x = randomInput([2, 10, 12, 16], seed: 54), w = randomInput([3, 3, 1, 16], seed: 55)
            let scale = randomInput([16], in: 0.5...1.5, seed: 56), shift = randomInput([16], seed: 57)
            let rm = Tensor.zeros([16]), rv = Tensor(shape: [16], repeating: 1)
            let (conv, moments) = gathered
                ? x.conv2dGatheringMoments(weight: w, padding: 1, groups: 16)
                : (x.conv2d(weight: w, padding: 1, groups: 16), nil)
            let y = conv.batchNorm(scale: scale, shift: shift, runningMean: rm, runningVariance: rv,
                                   mode: .training(momentum: 0.1), clampedTo: 0...6, moments: moments)
            (y * y).sum().backward()
            return [y.scalars, x.grad!, w.grad!, scale.grad!, shift.grad!, rm.scalars, rv.scalars]
        }
        XCTAssertEqual(run(gathered: true), run(gathered: false))
    }
}

/// Batch norm's backward sums gathered by the conv after it as that conv writes batch norm's output
/// gradient: gathered whole by the kernels the networks use, and the same bits as summing them apart.
final class BatchNormGradientSumsTests: XCTestCase {
    struct Consumer { let name: String; let channels: Int; let weight: [Int]; let groups: Int }
    static let consumers = [
        Consumer(name: "depthwise 3x3", channels: 16, weight: [3, 3, 1, 16], groups: 16),
        Consumer(name: "depthwise generic", channels: 6, weight: [3, 3, 1, 6], groups: 6),
        Consumer(name: "pointwise panel", channels: 32, weight: [1, 1, 32, 64], groups: 1),
        Consumer(name: "pointwise sgemm", channels: 128, weight: [1, 1, 128, 128], groups: 1),
    ]

    /// Batch norm (ReLU6 fused) then the consumer conv; with `second`, batch norm's output also feeds
    /// a product with zero, a second gradient contribution that adds nothing but stops the gathering.
    func run(_ k: Consumer, second: Bool) -> (grads: [[Float]], gathered: Int, groups: Int) {
        let x = randomInput([4, 8, 16, k.channels], in: -3...3, seed: 60)
        let scale = randomInput([k.channels], in: 0.5...1.5, seed: 61), shift = randomInput([k.channels], seed: 62)
        let rm = Tensor.zeros([k.channels]), rv = Tensor(shape: [k.channels], repeating: 1)
        let w = randomInput(k.weight, seed: 63)
        let y = x.batchNorm(scale: scale, shift: shift, runningMean: rm, runningVariance: rv,
                            mode: .training(momentum: 0.1), clampedTo: 0...6)
        let z = y.conv2d(weight: w, padding: k.weight[0] / 2, groups: k.groups)
        var loss = (z * z).sum()
        if second { loss = loss + (y * Tensor.zeros(y.shape)).sum() }
        loss.backward()
        let sums = y.batchNormGradientSums!
        return ([x.grad!, scale.grad!, shift.grad!, w.grad!], sums.gatheredByWriter, sums.groupCount)
    }

    /// `body` with gradients of any size gathered (the tests' tensors are small).
    func gatheringAll<T>(_ body: () -> T) -> T { BatchNormFusion.$minimumGatheredGradientBytes.withValue(0, operation: body) }

    func testTheConvAfterBatchNormGathersItsSums() {
        for k in Self.consumers {
            let (_, gathered, groups) = gatheringAll { run(k, second: false) }
            XCTAssertEqual(gathered, groups, "\(k.name): groups the conv left to batch norm")
        }
        XCTAssertEqual(run(Self.consumers[0], second: false).gathered, 0, "a small gradient is summed by batch norm's own pass")
    }

    func testGatheredSumsGiveTheSameBitsAsSumsApart() {
        for k in Self.consumers {
            let fused = gatheringAll { run(k, second: false) }, apart = gatheringAll { run(k, second: true) }
            XCTAssertEqual(apart.gathered, 0, "\(k.name): a second contribution must stop the gathering")
            XCTAssertTrue(fused.grads == apart.grads, k.name)
        }
    }

    func testBatchNormThenConvGradients() {
        // Through the gathering path: batch norm's input, scale and shift, and the conv's weight.
        let x = randomInput([2, 4, 8, 8], in: -2...2, seed: 64)
        let scale = randomInput([8], in: 0.5...1.5, seed: 65), shift = randomInput([8], seed: 66)
        let w = randomInput([3, 3, 1, 8], seed: 67)
        let rm = Tensor.zeros([8]), rv = Tensor(shape: [8], repeating: 1)
        gatheringAll {
            assertGradientsMatch([x, scale, shift, w], step: 1e-3, absoluteTolerance: 2e-3, relativeTolerance: 1e-2, skipKinks: 0.05) {
                $0[0].batchNorm(scale: $0[1], shift: $0[2], runningMean: rm, runningVariance: rv, mode: .training(momentum: 0.1))
                    .conv2d(weight: $0[3], padding: 1, groups: 8)
            }
        }
    }
}
