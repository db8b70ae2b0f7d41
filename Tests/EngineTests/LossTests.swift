import Engine
import Foundation
import TestSupport
import XCTest

final class LossTests: XCTestCase {
    /// torchvision's sigmoid_focal_loss, term by term, in double.
    func referenceFocal(_ x: [Float], labels: [Int32], weights: [Float], k: Int, alpha: Double, gamma: Double) -> Double {
        var total = 0.0
        for (r, label) in labels.enumerated() {
            for j in 0..<k {
                let v = Double(x[r * k + j]), t = j == Int(label) ? 1.0 : 0.0
                let p = 1 / (1 + exp(-v))
                let ce = max(v, 0) - v * t + log(1 + exp(-abs(v)))
                let pt = p * t + (1 - p) * (1 - t)
                let at = alpha * t + (1 - alpha) * (1 - t)
                total += Double(weights[r]) * at * pow(1 - pt, gamma) * ce
            }
        }
        return total
    }

    func testFocalLossValueMatchesTorchvisionFormula() {
        let x = randomInput([6, 4], in: -8...8, seed: 31)
        let labels: [Int32] = [0, -1, 3, 2, -1, 1]
        let weights: [Float] = [1, 1, 2.5, 0, 1, 0.3]
        for gamma in [Float(2), 0, 1.5] {
            let loss = x.sigmoidFocalLoss(labels: labels, weights: weights, alpha: 0.25, gamma: gamma).item
            let ref = referenceFocal(x.scalars, labels: labels, weights: weights, k: 4, alpha: 0.25, gamma: Double(gamma))
            XCTAssertEqual(Double(loss), ref, accuracy: 1e-5 * max(1, ref), "gamma \(gamma)")
        }
    }

    func testFocalLossGradients() {
        let x = randomInput([6, 4], in: -4...4, seed: 32)
        let labels: [Int32] = [0, -1, 3, 2, -1, 1]
        let weights: [Float] = [1, 1, 2.5, 0, 1, 0.3]
        for gamma in [Float(2), 1.5, 0] {
            assertGradientsMatch([x], step: 1e-2) { $0[0].sigmoidFocalLoss(labels: labels, weights: weights, gamma: gamma) }
        }
    }

    /// The vectorised path (gamma 2) over rows wider than one vector, logits out to the clamp and
    /// beyond, against the formula in double: the loss and each logit's gradient.
    func testFocalLossOnWideRowsMatchesTheFormula() {
        let (rows, k) = (40, 19)
        var values = randomInput([rows, k], in: -12...12, seed: 34).scalars
        values[5] = 95; values[6] = -95; values[40] = 1e-7; values[41] = -30
        let labels: [Int32] = (0..<rows).map { $0 % 3 == 0 ? -1 : Int32($0 % k) }
        let weights: [Float] = (0..<rows).map { $0 % 7 == 3 ? 0 : 0.5 + Float($0 % 4) }
        let x = Tensor(shape: [rows, k], values: values, requiresGrad: true)
        let loss = x.sigmoidFocalLoss(labels: labels, weights: weights)
        loss.backward()
        let ref = referenceFocal(values, labels: labels, weights: weights, k: k, alpha: 0.25, gamma: 2)
        XCTAssertEqual(Double(loss.item), ref, accuracy: 1e-5 * max(1, ref))
        // d/dx of the double formula by central differences, per logit.
        for i in 0..<(rows * k) {
            let h = 1e-4
            func at(_ v: Double) -> Double {
                var xs = values.map(Double.init); xs[i] = v
                let r = i / k, j = i % k, t = j == Int(labels[r]) ? 1.0 : 0.0
                let p = 1 / (1 + exp(-xs[i])), ce = max(xs[i], 0) - xs[i] * t + log1p(exp(-abs(xs[i])))
                let pt = p * t + (1 - p) * (1 - t), at = 0.25 * t + 0.75 * (1 - t)
                return Double(weights[r]) * at * pow(1 - pt, 2) * ce
            }
            let expected = (at(Double(values[i]) + h) - at(Double(values[i]) - h)) / (2 * h)
            XCTAssertEqual(Double(x.grad![i]), expected, accuracy: 1e-4 * max(1, abs(expected)), "logit \(i) = \(values[i])")
        }
    }

    /// The flat pass (gamma 2) gives every logit of a batch the gradient bits it gets in a batch of its
    /// row alone: the lanes' rows, weights and positives follow the rows wherever they fall in a vector.
    func testFocalLossGradientBitsDoNotDependOnTheRowsAround() {
        for k in [13, 1, 16, 19] {
            let rows = 37
            let values = randomInput([rows, k], in: -9...9, seed: 35).scalars
            let labels: [Int32] = (0..<rows).map { $0 % 4 == 0 ? -1 : Int32(($0 * 7) % k) }
            let weights: [Float] = (0..<rows).map { $0 % 5 == 2 ? 0 : 0.5 + Float($0 % 3) }
            let x = Tensor(shape: [rows, k], values: values, requiresGrad: true)
            let loss = x.sigmoidFocalLoss(labels: labels, weights: weights)
            loss.backward()
            var sum = 0.0
            for r in 0..<rows {
                let one = Tensor(shape: [1, k], values: Array(values[(r * k)..<((r + 1) * k)]), requiresGrad: true)
                let rowLoss = one.sigmoidFocalLoss(labels: [labels[r]], weights: [weights[r]])
                rowLoss.backward()
                sum += Double(rowLoss.item)
                XCTAssertEqual(one.grad!.map(\.bitPattern), x.grad![(r * k)..<((r + 1) * k)].map(\.bitPattern), "\(k) classes: row \(r)'s gradient")
            }
            XCTAssertEqual(Double(loss.item), sum, accuracy: 1e-6 * sum, "\(k) classes")
        }
    }

    func testFocalLossIsNaNForANaNLogit() {
        let x = Tensor(shape: [1, 19], values: [Float](repeating: 0.5, count: 18) + [.nan])
        XCTAssertTrue(x.sigmoidFocalLoss(labels: [2], weights: [1]).item.isNaN, "the training loop's non-finite check must see it")
    }

    func testFocalLossIsFiniteForExtremeLogits() {
        let x = Tensor(shape: [2, 2], values: [90, -90, -90, 90], requiresGrad: true)
        let loss = x.sigmoidFocalLoss(labels: [1, 1], weights: [1, 1])
        loss.backward()
        XCTAssertTrue(loss.item.isFinite)
        XCTAssertTrue(x.grad!.allSatisfy(\.isFinite))
    }

    func testSmoothL1ValueAndGradient() {
        let p = Tensor(shape: [1, 4], values: [0, 0.05, 1, -2])
        let t = Tensor(shape: [1, 4], values: [0, 0, 0, 0])
        let beta: Float = 1.0 / 9
        let expected = 0 + 0.5 * 0.05 * 0.05 / beta + (1 - 0.5 * beta) + (2 - 0.5 * beta)
        XCTAssertEqual(p.smoothL1Loss(target: t, beta: beta).item, expected, accuracy: 1e-6)
        let x = randomInputAvoiding([5, 4], kinks: [-beta, beta], gap: 0.03, in: -1...1, seed: 33)
        let target = Tensor.zeros([5, 4])
        assertGradientsMatch([x], step: 5e-3) { $0[0].smoothL1Loss(target: target, beta: beta) }
    }
}
