@testable import Engine
import TestSupport
import XCTest

/// The 3x3 depthwise backward pass's two ways to walk the weight gradient, and dX written inside the
/// weight gradient's blocks, give the bits of the plain passes. Shapes wide enough for several blocks
/// of rows, the later ones starting inside an image.
final class DepthwiseBackwardTests: XCTestCase {
    struct Shape { let x: [Int]; let stride: Int; let padding: Int }
    static let shapes = [
        Shape(x: [3, 5, 40, 64], stride: 1, padding: 1),   // blocks of 12 rows: runs of four, 16-lane walks
        Shape(x: [2, 9, 100, 24], stride: 1, padding: 1),  // blocks of 13 rows: a last 8-lane group
        Shape(x: [3, 9, 40, 64], stride: 2, padding: 1),   // odd height: the last input row of an image
        Shape(x: [3, 10, 23, 136], stride: 2, padding: 1), // 136 channels: 16-lane walks and an 8-lane one
        Shape(x: [5, 8, 41, 56], stride: 2, padding: 0),   // each image's last input row feeds no output
    ]

    /// x's and w's gradients of (y * dy).sum() for y the depthwise conv of `s`; nil where frozen.
    func gradients(_ s: Shape, input: Bool = true, weight: Bool = true) -> (dx: [Float]?, dw: [Float]?) {
        let c = s.x[3]
        let x = randomInput(s.x, seed: 81, requiresGrad: input)
        let w = randomInput([3, 3, 1, c], seed: 82, requiresGrad: weight)
        let y = x.conv2d(weight: w, stride: s.stride, padding: s.padding, groups: c)
        let dy = randomInput(y.shape, seed: 83, requiresGrad: false)
        y.backward(gradient: dy)
        return (input ? x.grad! : nil, weight ? w.grad! : nil)
    }

    func testBothWeightWalksGiveTheSameBits() {
        for s in Self.shapes {
            let walks = DepthwiseWeightWalk.allCases.map { walk in DepthwiseWeightWalk.$forced.withValue(walk) { gradients(s) } }
            XCTAssertTrue(walks[0].dw! == walks[1].dw!, "\(s): dW in registers and along memory differ")
            XCTAssertTrue(walks[0].dx! == walks[1].dx!, "\(s): dX differs with the walk")
            // Against double sums, so that a wrong walk cannot hide by being wrong both ways.
            let x = randomInput(s.x, seed: 81, requiresGrad: false).scalars
            let dy = randomInput(Self.outputShape(s), seed: 83, requiresGrad: false).scalars
            assertClose(walks[1].dw!, Self.referenceWeightGradient(s, x: x, dy: dy), tolerance: 1e-3)
        }
    }

    func testDxWrittenInsideTheWeightBlocksGivesTheBitsOfEachGradientAlone() {
        for s in Self.shapes {
            let both = gradients(s)
            let inputAlone = gradients(s, weight: false).dx!, weightAlone = gradients(s, input: false).dw!
            XCTAssertTrue(both.dx! == inputAlone, "\(s): dX with dW differs from dX alone")
            XCTAssertTrue(both.dw! == weightAlone, "\(s): dW with dX differs from dW alone")
        }
    }

    static func outputShape(_ s: Shape) -> [Int] {
        let (h, w) = (s.x[1], s.x[2])
        return [s.x[0], (h + 2 * s.padding - 3) / s.stride + 1, (w + 2 * s.padding - 3) / s.stride + 1, s.x[3]]
    }

    /// dW[ky, kx, c] = sum over outputs of dy[n, oy, ox, c] * x[n, oy * s - p + ky, ox * s - p + kx, c], in double.
    static func referenceWeightGradient(_ s: Shape, x: [Float], dy: [Float]) -> [Float] {
        let (n, h, w, c) = (s.x[0], s.x[1], s.x[2], s.x[3])
        let o = outputShape(s)
        var sums = [Double](repeating: 0, count: 9 * c)
        for b in 0..<n { for oy in 0..<o[1] { for ox in 0..<o[2] { for ky in 0..<3 { for kx in 0..<3 {
            let (iy, ix) = (oy * s.stride - s.padding + ky, ox * s.stride - s.padding + kx)
            guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
            for j in 0..<c {
                sums[(ky * 3 + kx) * c + j] += Double(dy[((b * o[1] + oy) * o[2] + ox) * c + j]) * Double(x[((b * h + iy) * w + ix) * c + j])
            }
        } } } } }
        return sums.map(Float.init)
    }
}
