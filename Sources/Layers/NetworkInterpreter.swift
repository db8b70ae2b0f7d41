import Engine

/// What a network's one description runs on: tensors for training and inference
/// (`TensorInterpreter`), an exported graph, or a count of its convolutions
/// (`ConvolutionCensus`). A model describes its forward pass once, generically over the
/// interpreter, so that every reader of the network sees the same layers in the same order.
///
/// Values are NHWC (N, H, W, C); `name` is the layer's dotted module path (its weights are
/// `name + ".weight"`), with a level suffix where one layer runs on several inputs.
public protocol NetworkInterpreter {
    associatedtype Value
    mutating func conv(_ layer: Conv2D, _ x: Value, name: String) -> Value
    mutating func convBNActivation(_ layer: ConvBNActivation, _ x: Value, name: String) -> Value
    mutating func relu(_ x: Value, name: String) -> Value
    mutating func add(_ a: Value, _ b: Value, name: String) -> Value
    mutating func upsampleNearest2x(_ x: Value, name: String) -> Value
    /// (N, H, W, C) as rows of `width` values: (N, H * W * C / width, width), channels innermost.
    mutating func rows(_ x: Value, width: Int, name: String) -> Value
    /// Row tensors (N, R_i, width) joined along the rows: (N, sum R_i, width).
    mutating func concatenateRows(_ parts: [Value], name: String) -> Value
    /// Runs `body` as a named part of the network (profiles label the ops it records).
    mutating func part<T>(_ name: String, _ body: (inout Self) -> T) -> T
}

extension NetworkInterpreter {
    public mutating func part<T>(_ name: String, _ body: (inout Self) -> T) -> T { body(&self) }
}

extension DepthwiseSeparable {
    /// The depthwise then the pointwise unit.
    public func run<I: NetworkInterpreter>(_ i: inout I, _ x: I.Value, name: String) -> I.Value {
        let y = i.convBNActivation(depthwise, x, name: name + ".depthwise")
        return i.convBNActivation(pointwise, y, name: name + ".pointwise")
    }
}

/// Runs a network on tensors with the engine's differentiable ops.
public struct TensorInterpreter: NetworkInterpreter {
    public let mode: Mode
    /// Module paths whose batch norm runs on its running statistics even in training (frozen parts).
    public let frozen: [String]

    public init(mode: Mode, frozen: [String] = []) {
        self.mode = mode
        self.frozen = frozen
    }

    /// The mode of the layer at `name`: inference inside a frozen part.
    func mode(of name: String) -> Mode {
        mode == .training && frozen.contains(where: { name == $0 || name.hasPrefix($0 + ".") }) ? .inference : mode
    }

    // Each layer is labelled for profiles that time layers (`Autodiff.layer`; free otherwise).
    public func conv(_ layer: Conv2D, _ x: Tensor, name: String) -> Tensor { Autodiff.layer(name) { layer(x, mode: mode) } }
    public func convBNActivation(_ layer: ConvBNActivation, _ x: Tensor, name: String) -> Tensor {
        Autodiff.layer(name) { layer(x, mode: mode(of: name)) }
    }
    public func relu(_ x: Tensor, name: String) -> Tensor { x.relu() }
    public func add(_ a: Tensor, _ b: Tensor, name: String) -> Tensor { a + b }
    public func upsampleNearest2x(_ x: Tensor, name: String) -> Tensor { x.upsampledNearest2x() }
    public func rows(_ x: Tensor, width: Int, name: String) -> Tensor { x.reshaped([x.shape[0], -1, width]) }
    public func concatenateRows(_ parts: [Tensor], name: String) -> Tensor { Tensor.concatenate(parts, axis: 1) }
    public mutating func part<T>(_ name: String, _ body: (inout TensorInterpreter) -> T) -> T {
        var copy = self
        return Autodiff.section(name) { body(&copy) }
    }
}

/// One convolution of a network with the shapes it runs at.
public struct ConvShape: Codable, Equatable, Sendable {
    public var name: String
    public var batch, height, width, inChannels, outChannels: Int
    public var kernel, stride, groups: Int
    public var bias: Bool
    /// False where the input needs no gradient (the image): backward then skips dX.
    public var inputNeedsGradient: Bool

    public var kind: String {
        if groups > 1 { return "depthwise" }
        return kernel == 1 ? "1x1" : "\(kernel)x\(kernel)"
    }
    public var padding: Int { kernel / 2 }
    public var outHeight: Int { (height + 2 * padding - kernel) / stride + 1 }
    public var outWidth: Int { (width + 2 * padding - kernel) / stride + 1 }
    /// Multiply-accumulates of the forward pass.
    public var macs: Int { batch * outHeight * outWidth * outChannels * kernel * kernel * (inChannels / groups) }
    /// Forward FLOPs; backward costs one such pass for dW and one for dX when the input needs it.
    public var forwardFLOPs: Double { 2 * Double(macs) }
    public var forwardBackwardFLOPs: Double { forwardFLOPs * (inputNeedsGradient ? 3 : 2) }
    /// Weights and bias of the layer.
    public var parameters: Int { kernel * kernel * (inChannels / groups) * outChannels + (bias ? outChannels : 0) }
}

/// Walks a network on shapes alone and lists every convolution it runs, in forward order.
public struct ConvolutionCensus: NetworkInterpreter {
    /// An activation's shape, and whether anything before it has weights (then it needs a gradient).
    public struct Value {
        public var shape: [Int]
        public var needsGradient: Bool
        public init(shape: [Int], needsGradient: Bool) {
            self.shape = shape
            self.needsGradient = needsGradient
        }
    }

    public private(set) var convolutions: [ConvShape] = []
    public init() {}

    /// An NHWC input of this size that needs no gradient (an image batch).
    public static func input(batch: Int, height: Int, width: Int, channels: Int = 3) -> Value {
        Value(shape: [batch, height, width, channels], needsGradient: false)
    }

    public mutating func conv(_ layer: Conv2D, _ x: Value, name: String) -> Value {
        let w = layer.weight.shape
        let s = ConvShape(name: name, batch: x.shape[0], height: x.shape[1], width: x.shape[2], inChannels: x.shape[3], outChannels: w[3],
                          kernel: w[0], stride: layer.stride, groups: layer.groups, bias: layer.bias != nil, inputNeedsGradient: x.needsGradient)
        convolutions.append(s)
        return Value(shape: [s.batch, s.outHeight, s.outWidth, s.outChannels], needsGradient: true)
    }

    public mutating func convBNActivation(_ layer: ConvBNActivation, _ x: Value, name: String) -> Value { conv(layer.conv, x, name: name) }
    public func relu(_ x: Value, name: String) -> Value { x }
    public func add(_ a: Value, _ b: Value, name: String) -> Value { a }
    public func upsampleNearest2x(_ x: Value, name: String) -> Value {
        Value(shape: [x.shape[0], 2 * x.shape[1], 2 * x.shape[2], x.shape[3]], needsGradient: x.needsGradient)
    }
    public func rows(_ x: Value, width: Int, name: String) -> Value {
        Value(shape: [x.shape[0], x.shape[1] * x.shape[2] * x.shape[3] / width, width], needsGradient: x.needsGradient)
    }
    public func concatenateRows(_ parts: [Value], name: String) -> Value {
        Value(shape: [parts[0].shape[0], parts.reduce(0) { $0 + $1.shape[1] }, parts[0].shape[2]], needsGradient: parts.contains { $0.needsGradient })
    }
}

/// Runs another tensor interpreter and records the wall time of each layer it runs, in order:
/// where a forward pass spends its time (`uidetect bench onnx --layers`).
public struct TimingInterpreter<Inner: NetworkInterpreter>: NetworkInterpreter where Inner.Value == Tensor {
    public var inner: Inner
    /// (layer name, seconds) in the order the layers ran.
    public private(set) var times: [(name: String, seconds: Double)] = []

    public init(_ inner: Inner) { self.inner = inner }

    private mutating func timed(_ name: String, _ body: (inout Inner) -> Tensor) -> Tensor {
        let start = monotonicSeconds()
        let y = body(&inner)
        times.append((name, monotonicSeconds() - start))
        return y
    }

    public mutating func conv(_ layer: Conv2D, _ x: Tensor, name: String) -> Tensor { timed(name) { $0.conv(layer, x, name: name) } }
    public mutating func convBNActivation(_ layer: ConvBNActivation, _ x: Tensor, name: String) -> Tensor {
        timed(name) { $0.convBNActivation(layer, x, name: name) }
    }
    public mutating func relu(_ x: Tensor, name: String) -> Tensor { timed(name) { $0.relu(x, name: name) } }
    public mutating func add(_ a: Tensor, _ b: Tensor, name: String) -> Tensor { timed(name) { $0.add(a, b, name: name) } }
    public mutating func upsampleNearest2x(_ x: Tensor, name: String) -> Tensor { timed(name) { $0.upsampleNearest2x(x, name: name) } }
    public mutating func rows(_ x: Tensor, width: Int, name: String) -> Tensor { timed(name) { $0.rows(x, width: width, name: name) } }
    public mutating func concatenateRows(_ parts: [Tensor], name: String) -> Tensor { timed(name) { $0.concatenateRows(parts, name: name) } }
}
