/// Compares an op's analytic gradients with central finite differences.
///
/// The probe loss is sum(f(inputs) * r) for a fixed random r, evaluated in
/// double from the float outputs, so the check covers every output element.
public struct GradientCheck {
    /// The worst disagreement found for one input.
    public struct Result: CustomStringConvertible {
        public let input: Int
        public let maxAbsoluteError: Double
        public let maxRelativeError: Double
        public let worstIndex: Int
        public var description: String {
            "input \(input): max abs error \(maxAbsoluteError), max rel error \(maxRelativeError) at \(worstIndex)"
        }
    }

    public var step: Float = 1e-2
    public var absoluteTolerance: Double = 5e-4
    public var relativeTolerance: Double = 2e-3
    public var seed: UInt64 = 7

    public init(step: Float = 1e-2, absoluteTolerance: Double = 5e-4, relativeTolerance: Double = 2e-3) {
        self.step = step
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
    }

    /// Checks the gradient of every input that requires one; returns per-input results.
    public func run(_ inputs: [Tensor], _ f: ([Tensor]) -> Tensor) -> [Result] {
        let probeShape = Autodiff.withoutTape { f(inputs).shape }
        var g = SeededGenerator(seed: seed)
        let r = Tensor.randomUniform(probeShape, in: -1...1, using: &g)
        for t in inputs { t.zeroGrad() }
        let loss = (f(inputs) * r).sum()
        loss.backward()
        var results: [Result] = []
        for (index, t) in inputs.enumerated() where t.requiresGrad {
            let analytic = t.grad ?? [Float](repeating: 0, count: t.count)
            var worstAbs = 0.0, worstRel = 0.0, worstIndex = 0
            for i in 0..<t.count {
                let original = t.mutablePointer[i]
                t.mutablePointer[i] = original + step
                let plus = probe(f, inputs, r)
                t.mutablePointer[i] = original - step
                let minus = probe(f, inputs, r)
                t.mutablePointer[i] = original
                let numeric = (plus - minus) / (2 * Double(step))
                let err = abs(numeric - Double(analytic[i]))
                let rel = err / max(1e-3, abs(numeric) + abs(Double(analytic[i])))
                if err > absoluteTolerance && rel > worstRel { worstRel = rel; worstIndex = i }
                worstAbs = max(worstAbs, err)
            }
            results.append(Result(input: index, maxAbsoluteError: worstAbs, maxRelativeError: worstRel, worstIndex: worstIndex))
        }
        return results
    }

    /// True when every result is within tolerance (an element passes if either error is small).
    public func passes(_ results: [Result]) -> Bool {
        results.allSatisfy { $0.maxAbsoluteError <= absoluteTolerance || $0.maxRelativeError <= relativeTolerance }
    }

    private func probe(_ f: ([Tensor]) -> Tensor, _ inputs: [Tensor], _ r: Tensor) -> Double {
        Autodiff.withoutTape {
            let y = f(inputs)
            var s = 0.0
            for i in 0..<y.count { s += Double(y.pointer[i]) * Double(r.pointer[i]) }
            return s
        }
    }
}
