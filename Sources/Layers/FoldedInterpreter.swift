import Engine

/// Runs a network for inference with batch norm folded into the convolutions before it:
/// w' = w * gamma / sqrt(var + eps) per output channel, b' = beta - mean * gamma / sqrt(var + eps),
/// and the activation applied as the convolution writes its output. One pass per layer instead
/// of three (conv, batch norm, activation); nothing is recorded. Folding (and Winograd's weight
/// transform) is done once, when the interpreter is made: make a new one when the weights change.
public struct FoldedInterpreter: NetworkInterpreter {
    /// Every convolution under the module, prepared once (`InferenceConvolution`), by layer.
    private let prepared: [ObjectIdentifier: InferenceConvolution]

    /// Folds every `ConvBNActivation` under `module` and prepares every convolution.
    public init(_ module: any Module) {
        var prepared: [ObjectIdentifier: InferenceConvolution] = [:]
        func visit(_ m: any Module) {
            if let unit = m as? ConvBNActivation {
                prepared[ObjectIdentifier(unit)] = Self.fold(unit)
            } else if let conv = m as? Conv2D {
                prepared[ObjectIdentifier(conv)] = Self.prepare(conv)
            }
            for (_, child) in m.children { visit(child) }
        }
        visit(module)
        self.prepared = prepared
    }

    static func prepare(_ conv: Conv2D) -> InferenceConvolution {
        InferenceConvolution(weight: conv.weight, bias: conv.bias, stride: conv.stride, padding: conv.padding, groups: conv.groups)
    }

    static func fold(_ unit: ConvBNActivation) -> InferenceConvolution {
        let conv = unit.conv, bn = unit.norm
        let cout = conv.weight.shape[3]
        let gamma = bn.scale.scalars, beta = bn.shift.scalars, mean = bn.runningMean.scalars, variance = bn.runningVariance.scalars
        let scale = (0..<cout).map { gamma[$0] / (variance[$0] + bn.epsilon).squareRoot() }
        var w = conv.weight.scalars
        for i in w.indices { w[i] *= scale[i % cout] }  // HWIO: the output channel is innermost
        let convBias = conv.bias?.scalars ?? [Float](repeating: 0, count: cout)
        var b = [Float](repeating: 0, count: cout)
        for o in 0..<cout { b[o] = beta[o] + (convBias[o] - mean[o]) * scale[o] }
        let clamp: ClosedRange<Float>? = switch unit.activation {
        case .relu6: 0...6
        case .relu: 0...Float.greatestFiniteMagnitude
        case .identity: nil
        }
        return InferenceConvolution(weight: Tensor(shape: conv.weight.shape, values: w), bias: Tensor(shape: [cout], values: b),
                                    stride: conv.stride, padding: conv.padding, groups: conv.groups, clampedTo: clamp)
    }

    public func conv(_ layer: Conv2D, _ x: Tensor, name: String) -> Tensor {
        (prepared[ObjectIdentifier(layer)] ?? Self.prepare(layer))(x)
    }

    public func convBNActivation(_ layer: ConvBNActivation, _ x: Tensor, name: String) -> Tensor {
        (prepared[ObjectIdentifier(layer)] ?? Self.fold(layer))(x)
    }

    public func relu(_ x: Tensor, name: String) -> Tensor { Autodiff.withoutTape { x.relu() } }
    public func add(_ a: Tensor, _ b: Tensor, name: String) -> Tensor { Autodiff.withoutTape { a + b } }
    public func upsampleNearest2x(_ x: Tensor, name: String) -> Tensor { Autodiff.withoutTape { x.upsampledNearest2x() } }
    public func rows(_ x: Tensor, width: Int, name: String) -> Tensor { Autodiff.withoutTape { x.reshaped([x.shape[0], -1, width]) } }
    public func concatenateRows(_ parts: [Tensor], name: String) -> Tensor { Autodiff.withoutTape { Tensor.concatenate(parts, axis: 1) } }
}
