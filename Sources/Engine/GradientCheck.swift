/// Compares an op's analytic gradients with central finite differences.
///
/// The probe loss is sum(f(inputs) * r) for a fixed random r, evaluated in
/// double from the float outputs, so the check covers every output element.
/// Backward runs twice, and the second pass must exactly double the leaf
/// gradients: that covers each rule's path for a gradient that already exists.
public struct GradientCheck {
    /// The worst disagreement found for one input.
    public struct Result: CustomStringConvertible {
        public let input: Int
        public let maxAbsoluteError: Double
        public let maxRelativeError: Double
        public let worstIndex: Int
        /// Largest |second - 2 * first| when backward runs twice: rules must add into existing gradients.
        public let accumulationError: Double
        /// Elements left out because a finite difference straddled a kink (see `skipKinks`).
        public var skipped: Int = 0
        /// Elements of the input.
        public var count: Int = 0
        public var description: String {
            "input \(input): max abs error \(maxAbsoluteError), max rel error \(maxRelativeError) at \(worstIndex), "
                + "accumulation error \(accumulationError), \(skipped) of \(count) skipped at kinks"
        }
    }

    public var step: Float = 1e-2
    public var absoluteTolerance: Double = 5e-4
    public var relativeTolerance: Double = 2e-3
    public var seed: UInt64 = 7
    /// Leave out elements whose one-sided differences disagree by more than this
    /// (a ReLU kink between x - step and x + step); nil checks every element.
    /// A whole network has too many kinks to place inputs away from all of them.
    public var skipKinks: Double? = nil

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
        let firstGradients = inputs.map { $0.grad }
        // A second pass lands on existing leaf gradients and must add to them.
        loss.backward()
        var results: [Result] = []
        for (index, t) in inputs.enumerated() where t.requiresGrad {
            let analytic = firstGradients[index] ?? [Float](repeating: 0, count: t.count)
            let twice = t.grad ?? [Float](repeating: 0, count: t.count)
            let accumulationError = zip(twice, analytic).map { Double(abs($0 - 2 * $1)) / max(1, Double(abs($1))) }.max() ?? 0
            var worstAbs = 0.0, worstRel = 0.0, worstIndex = 0, skipped = 0
            for i in 0..<t.count {
                let original = t.mutablePointer[i]
                t.mutablePointer[i] = original + step
                let plus = probe(f, inputs, r)
                t.mutablePointer[i] = original - step
                let minus = probe(f, inputs, r)
                t.mutablePointer[i] = original
                if let kink = skipKinks {
                    let center = probe(f, inputs, r)
                    let forward = (plus - center) / Double(step), backward = (center - minus) / Double(step)
                    if abs(forward - backward) > kink * max(1, abs(forward) + abs(backward)) { skipped += 1; continue }
                }
                let numeric = (plus - minus) / (2 * Double(step))
                let err = abs(numeric - Double(analytic[i]))
                let rel = err / max(1e-3, abs(numeric) + abs(Double(analytic[i])))
                if err > absoluteTolerance && rel > worstRel { worstRel = rel; worstIndex = i }
                worstAbs = max(worstAbs, err)
            }
            results.append(Result(input: index, maxAbsoluteError: worstAbs, maxRelativeError: worstRel, worstIndex: worstIndex,
                                  accumulationError: accumulationError, skipped: skipped, count: t.count))
        }
        return results
    }

    /// True when every result is within tolerance (an element passes if either error is small).
    public func passes(_ results: [Result]) -> Bool {
        results.allSatisfy {
            ($0.maxAbsoluteError <= absoluteTolerance || $0.maxRelativeError <= relativeTolerance) && $0.accumulationError <= 1e-5
                && $0.skipped * 20 <= $0.count  // more than 5% at kinks means the check saw too little
        }
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
