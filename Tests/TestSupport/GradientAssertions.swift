import Foundation
import Engine
import XCTest

/// Fails the calling test unless every input's analytic gradient matches finite differences.
public func assertGradientsMatch(
    _ inputs: [Tensor], step: Float = 1e-2, absoluteTolerance: Double = 5e-4, relativeTolerance: Double = 2e-3,
    skipKinks: Double? = nil, file: StaticString = #filePath, line: UInt = #line, _ f: ([Tensor]) -> Tensor
) {
    var check = GradientCheck(step: step, absoluteTolerance: absoluteTolerance, relativeTolerance: relativeTolerance)
    check.skipKinks = skipKinks
    let results = check.run(inputs, f)
    XCTAssertEqual(results.count, inputs.filter(\.requiresGrad).count, "an input got no result", file: file, line: line)
    for r in results where !check.passes([r]) {
        XCTFail("gradient mismatch: \(r)", file: file, line: line)
    }
}

/// A tensor of values uniform in `range` that needs a gradient, from a fixed seed.
public func randomInput(_ shape: [Int], in range: ClosedRange<Float> = -1...1, seed: UInt64, requiresGrad: Bool = true) -> Tensor {
    var g = SeededGenerator(seed: seed)
    return Tensor.randomUniform(shape, in: range, requiresGrad: requiresGrad, using: &g)
}

/// Values uniform in ±range whose magnitudes stay at least `gap` away from each of `kinks`,
/// so a finite difference never straddles a kink.
public func randomInputAvoiding(_ shape: [Int], kinks: [Float], gap: Float = 0.05, in range: ClosedRange<Float>, seed: UInt64) -> Tensor {
    var g = SeededGenerator(seed: seed)
    let values = (0..<shape.reduce(1, *)).map { _ -> Float in
        while true {
            let v = Float.random(in: range, using: &g)
            if kinks.allSatisfy({ abs(v - $0) > gap }) { return v }
        }
    }
    return Tensor(shape: shape, values: values, requiresGrad: true)
}

/// Asserts two float arrays agree elementwise within `tolerance`.
public func assertClose(
    _ a: [Float], _ b: [Float], tolerance: Float = 1e-5, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(a.count, b.count, "length differs \(message)", file: file, line: line)
    for i in 0..<min(a.count, b.count) where !(abs(a[i] - b[i]) <= tolerance * max(1, abs(b[i]))) {
        XCTFail("element \(i): \(a[i]) vs \(b[i]) \(message)", file: file, line: line)
        return
    }
}

/// Naive NHWC/HWIO convolution in double precision: the reference the engine is checked against.
public func referenceConv2D(
    x: [Float], xShape: [Int], w: [Float], wShape: [Int], bias: [Float]?, stride: Int, padding: Int, groups: Int
) -> [Float] {
    let (n, h, wd, cin) = (xShape[0], xShape[1], xShape[2], xShape[3])
    let (kh, kw, cg, cout) = (wShape[0], wShape[1], wShape[2], wShape[3])
    let og = cout / groups
    let ho = (h + 2 * padding - kh) / stride + 1, wo = (wd + 2 * padding - kw) / stride + 1
    var out = [Float](repeating: 0, count: n * ho * wo * cout)
    for b in 0..<n { for oy in 0..<ho { for ox in 0..<wo { for co in 0..<cout {
        let g = co / og
        var s = Double(bias?[co] ?? 0)
        for ky in 0..<kh { for kx in 0..<kw {
            let iy = oy * stride - padding + ky, ix = ox * stride - padding + kx
            guard iy >= 0, iy < h, ix >= 0, ix < wd else { continue }
            for ci in 0..<cg {
                let xv = x[((b * h + iy) * wd + ix) * cin + g * cg + ci]
                let wv = w[((ky * kw + kx) * cg + ci) * cout + co]
                s += Double(xv) * Double(wv)
            }
        } }
        out[((b * ho + oy) * wo + ox) * cout + co] = Float(s)
    } } } }
    return out
}
