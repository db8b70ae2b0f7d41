@testable import Engine
import XCTest

/// `panelGEMMTransposedA`, a 1x1 convolution's weight gradient: the bits of a plain loop that adds
/// each block's rows in order with fused multiply-adds and then the blocks in order, whatever the
/// slices, tiles and panels in between. A fused multiply-add rounds the same way on every machine.
final class PanelGEMMTests: XCTestCase {
    /// (rows, m, n, accumulate): several blocks of 1,024 rows and a short last one, slices with a
    /// remainder, tiles of C short of 4 rows, panels of 64 + 32 + 16 columns with AVX-512's layout.
    static let shapes: [(Int, Int, Int, Bool)] = [
        (2500, 22, 48, false),
        (700, 3, 16, true),
        (1030, 128, 64, false),
        (5, 6, 112, true),
    ]

    func testTransposedProductAddsEachBlocksRowsInOrder() {
        for (rows, m, n, accumulate) in Self.shapes {
            var g = SeededGenerator(seed: UInt64(rows + m + n))
            let a = (0..<(rows * m)).map { _ in Float.random(in: -1...1, using: &g) }
            let b = (0..<(rows * n)).map { _ in Float.random(in: -1...1, using: &g) }
            let old = (0..<(m * n)).map { _ in Float.random(in: -1...1, using: &g) }
            var expected = accumulate ? old : [Float](repeating: 0, count: m * n)
            for first in stride(from: 0, to: rows, by: 1024) {
                for i in 0..<m {
                    for j in 0..<n {
                        var s: Float = 0
                        for row in first..<min(rows, first + 1024) { s = s.addingProduct(a[row * m + i], b[row * n + j]) }
                        expected[i * n + j] += s
                    }
                }
            }
            for sixteenFloats in [false, true] {
                var c = old
                VectorRegisters.$holdSixteenFloats.withValue(sixteenFloats) {
                    c.withUnsafeMutableBufferPointer { c in
                        panelGEMMTransposedA(rows: rows, m: m, n: n, a: a, b: b, accumulate: accumulate, c: c.baseAddress!)
                    }
                }
                let wrong = zip(c, expected).filter { $0.0 != $0.1 }.count
                XCTAssertEqual(wrong, 0, "\(rows) rows, \(m) x \(n), accumulate \(accumulate), 16-float registers \(sixteenFloats): \(wrong) of \(m * n) differ")
            }
        }
    }

    /// A 1x1 conv's two gradients made block by block (`panelGEMMBothGradients`) give the bits of the two
    /// products one after the other, adding to old gradients or not, with dY in memory or made a block at
    /// a time: several blocks of 1,024 rows and a short last one, so dX's rows come in blocks of 256 inside each.
    func testBothGradientsTogetherGiveTheSeparateProductsBits() {
        for (rows, cin, cout, accumulate) in [(2600, 16, 32, false), (1100, 64, 48, true), (300, 32, 64, false)] {
            var g = SeededGenerator(seed: UInt64(rows + cin + cout))
            func random(_ count: Int) -> [Float] { (0..<count).map { _ in Float.random(in: -1...1, using: &g) } }
            let (x, gy, wT) = (random(rows * cin), random(rows * cout), random(cout * cin))
            let (oldW, oldX) = (random(cin * cout), random(rows * cin))
            var (expectedW, expectedX) = (oldW, oldX)
            expectedW.withUnsafeMutableBufferPointer { panelGEMMTransposedA(rows: rows, m: cin, n: cout, a: x, b: gy, accumulate: accumulate, c: $0.baseAddress!) }
            expectedX.withUnsafeMutableBufferPointer {
                panelGEMM(m: rows, n: cin, k: cout, a: gy, lda: cout, b: wT, accumulate: accumulate, c: $0.baseAddress!, ldc: cin)
            }
            // dY in memory, and made a block at a time (a deferred gradient copying it).
            let buffer = Storage(count: rows * cout)
            let deferred = DeferredGradient(rows: rows, rowLength: cout, buffer: buffer) { range, destination in
                gy.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + range.lowerBound * cout, count: range.count * cout) }
            }
            for deferring in [false, true] {
                var (w, dx) = (oldW, oldX)
                gy.withUnsafeBufferPointer { gyPointer in
                    w.withUnsafeMutableBufferPointer { w in
                        dx.withUnsafeMutableBufferPointer { dx in
                            panelGEMMBothGradients(rows: rows, cin: cin, cout: cout, x: x, gy: deferring ? .deferred(deferred) : .memory(gyPointer.baseAddress!),
                                                   wT: wT, gw: GradientTarget(pointer: w.baseAddress!, accumulate: accumulate, sums: nil),
                                                   gx: GradientTarget(pointer: dx.baseAddress!, accumulate: accumulate, sums: nil))
                        }
                    }
                }
                XCTAssertEqual(w.map(\.bitPattern), expectedW.map(\.bitPattern), "dW, \(rows) rows, \(cin) -> \(cout), accumulate \(accumulate), deferred dY \(deferring)")
                XCTAssertEqual(dx.map(\.bitPattern), expectedX.map(\.bitPattern), "dX, \(rows) rows, \(cin) -> \(cout), accumulate \(accumulate), deferred dY \(deferring)")
            }
        }
    }
}
