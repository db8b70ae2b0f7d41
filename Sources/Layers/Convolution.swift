import Engine

/// How a layer's weights are drawn at construction.
public enum WeightInit: Sendable, Equatable {
    /// Kaiming (He) normal with fan-out: std = sqrt(2 / (Cout * kh * kw / groups)), as PyTorch's `mode="fan_out"`.
    case kaimingNormalFanOut
    /// Normal with the given standard deviation.
    case normal(std: Float)
}

/// A 2-D convolution on NHWC input with HWIO weight (kh, kw, Cin / groups, Cout).
public final class Conv2D: Layer {
    public let weight: Tensor
    public let bias: Tensor?
    public let stride: Int
    public let padding: Int
    public let groups: Int

    /// A convolution with zero padding `padding` on every side.
    public init<G: RandomNumberGenerator>(
        inputChannels: Int, outputChannels: Int, kernelSize: Int, stride: Int = 1, padding: Int = 0,
        groups: Int = 1, bias: Bool = true, weightInit: WeightInit = .kaimingNormalFanOut, biasInit: Float = 0,
        generator: inout G
    ) {
        precondition(inputChannels % groups == 0 && outputChannels % groups == 0,
                     "Conv2D: channels \(inputChannels) -> \(outputChannels) not divisible by groups \(groups)")
        let shape = [kernelSize, kernelSize, inputChannels / groups, outputChannels]
        let std: Float
        switch weightInit {
        case .kaimingNormalFanOut:
            let fanOut = Float(outputChannels * kernelSize * kernelSize / groups)
            std = (2 / fanOut).squareRoot()
        case .normal(let s):
            std = s
        }
        weight = Tensor.randomNormal(shape, std: std, requiresGrad: true, using: &generator)
        self.bias = bias ? Tensor(shape: [outputChannels], repeating: biasInit, requiresGrad: true) : nil
        self.stride = stride
        self.padding = padding
        self.groups = groups
    }

    public var localParameters: [(String, Tensor)] {
        [("weight", weight)] + (bias.map { [("bias", $0)] } ?? [])
    }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor {
        x.conv2d(weight: weight, bias: bias, stride: stride, padding: padding, groups: groups)
    }

    /// The convolution with its output's per-channel moments, gathered as it is written.
    public func gatheringMoments(_ x: Tensor) -> (output: Tensor, moments: ChannelMoments) {
        x.conv2dGatheringMoments(weight: weight, bias: bias, stride: stride, padding: padding, groups: groups)
    }
}

/// Batch normalisation over the channel (last) axis with learned scale and shift.
public final class BatchNorm: Layer {
    public let scale: Tensor
    public let shift: Tensor
    public let runningMean: Tensor
    public let runningVariance: Tensor
    public let epsilon: Float
    public let momentum: Float

    /// Scale 1, shift 0, running mean 0 and variance 1, as PyTorch initialises them.
    public init(channels: Int, epsilon: Float = 1e-3, momentum: Float = 0.1) {
        scale = Tensor(shape: [channels], repeating: 1, requiresGrad: true)
        shift = Tensor(shape: [channels], repeating: 0, requiresGrad: true)
        runningMean = Tensor(shape: [channels], repeating: 0)
        runningVariance = Tensor(shape: [channels], repeating: 1)
        self.epsilon = epsilon
        self.momentum = momentum
    }

    public var localParameters: [(String, Tensor)] { [("weight", scale), ("bias", shift)] }
    public var localBuffers: [(String, Tensor)] { [("running_mean", runningMean), ("running_var", runningVariance)] }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor { callAsFunction(x, mode: mode, clampedTo: nil) }

    /// Batch norm with its output clamped in the same pass (a fused activation); `moments`: those
    /// of `x`, gathered by the conv that wrote it (used in training mode only).
    public func callAsFunction(_ x: Tensor, mode: Mode, clampedTo range: ClosedRange<Float>?, moments: ChannelMoments? = nil) -> Tensor {
        x.batchNorm(scale: scale, shift: shift, runningMean: runningMean, runningVariance: runningVariance,
                    epsilon: epsilon, mode: mode == .training ? .training(momentum: momentum) : .inference, clampedTo: range,
                    moments: moments)
    }
}

/// An elementwise activation as a layer, for use in sequences.
public final class Activation: Layer {
    public enum Kind: String, Sendable, Codable { case relu, relu6, identity }
    public let kind: Kind
    public init(_ kind: Kind) { self.kind = kind }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor {
        switch kind {
        case .relu: return x.relu()
        case .relu6: return x.relu6()
        case .identity: return x
        }
    }
}

/// Layers applied in order; children are named "0", "1", ... unless named explicitly.
public final class Sequential: Layer {
    public let layers: [(String, any Layer)]

    public init(_ layers: [any Layer]) {
        self.layers = layers.enumerated().map { (String($0.offset), $0.element) }
    }

    public init(named layers: [(String, any Layer)]) {
        self.layers = layers
    }

    public var children: [(String, any Module)] { layers.map { ($0.0, $0.1 as any Module) } }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor {
        layers.reduce(x) { $1.1($0, mode: mode) }
    }
}

/// conv (no bias) -> batch norm -> activation: MobileNet's unit.
public final class ConvBNActivation: Layer {
    public let conv: Conv2D
    public let norm: BatchNorm
    public let activation: Activation.Kind

    public init<G: RandomNumberGenerator>(
        inputChannels: Int, outputChannels: Int, kernelSize: Int, stride: Int = 1, groups: Int = 1,
        activation: Activation.Kind = .relu6, bnEpsilon: Float = 1e-3, bnMomentum: Float = 0.1, generator: inout G
    ) {
        conv = Conv2D(inputChannels: inputChannels, outputChannels: outputChannels, kernelSize: kernelSize,
                      stride: stride, padding: kernelSize / 2, groups: groups, bias: false, generator: &generator)
        norm = BatchNorm(channels: outputChannels, epsilon: bnEpsilon, momentum: bnMomentum)
        self.activation = activation
    }

    public var children: [(String, any Module)] { [("conv", conv), ("bn", norm)] }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor {
        let clamp: ClosedRange<Float>? = switch activation {
        case .relu6: 0...6
        case .relu: 0...Float.infinity
        case .identity: nil
        }
        // Batch norm and the activation as one op: one pass over the activations instead of two.
        // In training the conv gathers batch norm's statistics as it writes: another pass saved.
        guard mode == .training, BatchNormFusion.isEnabled else { return norm(conv(x, mode: mode), mode: mode, clampedTo: clamp) }
        let (y, moments) = conv.gatheringMoments(x)
        return norm(y, mode: mode, clampedTo: clamp, moments: moments)
    }
}

/// MobileNetV1's depthwise-separable block: depthwise 3x3 (stride s) then pointwise 1x1,
/// each followed by batch norm and ReLU6.
public final class DepthwiseSeparable: Layer {
    public let depthwise: ConvBNActivation
    public let pointwise: ConvBNActivation

    public init<G: RandomNumberGenerator>(
        inputChannels: Int, outputChannels: Int, stride: Int, bnEpsilon: Float = 1e-3, bnMomentum: Float = 0.1,
        generator: inout G
    ) {
        depthwise = ConvBNActivation(inputChannels: inputChannels, outputChannels: inputChannels, kernelSize: 3,
                                     stride: stride, groups: inputChannels, bnEpsilon: bnEpsilon, bnMomentum: bnMomentum,
                                     generator: &generator)
        pointwise = ConvBNActivation(inputChannels: inputChannels, outputChannels: outputChannels, kernelSize: 1,
                                     bnEpsilon: bnEpsilon, bnMomentum: bnMomentum, generator: &generator)
    }

    public var children: [(String, any Module)] { [("depthwise", depthwise), ("pointwise", pointwise)] }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor {
        pointwise(depthwise(x, mode: mode), mode: mode)
    }
}
