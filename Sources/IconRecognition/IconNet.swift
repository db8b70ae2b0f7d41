import Engine
import Foundation
import Layers

/// The icon classifier's network: MobileNetV1's depthwise-separable blocks at a small scale. A
/// 3x3 stem on the one-channel ink map, three stages that halve the resolution and double the
/// width (each a strided block and a plain one), global average pooling, and a 1x1 convolution to
/// one logit per type (`classes`, `other` included). At the default 32 x 32 input and width 32,
/// about 5.4 million multiply-adds per icon.
public final class IconNet: Module {
    /// The network's shape, as a classifier file records it.
    public struct Config: Codable, Equatable, Sendable {
        /// The defaults of a new network and of the training config's `model` section.
        public static let defaultInputSide = 32, defaultWidth = 32
        /// The ink map's side in pixels (a multiple of 8: three stages halve it).
        public var inputSide: Int
        /// Channels of the stem; each stage doubles them.
        public var width: Int
        public var classes: Int
        public init(inputSide: Int = defaultInputSide, width: Int = defaultWidth, classes: Int) {
            (self.inputSide, self.width, self.classes) = (inputSide, width, classes)
        }

        enum CodingKeys: String, CodingKey { case inputSide = "input_side", width, classes }
    }

    public let config: Config
    let stem: ConvBNActivation
    let blocks: [DepthwiseSeparable]
    let classifier: Conv2D

    public init<G: RandomNumberGenerator>(config: Config, generator: inout G) {
        self.config = config
        let w = config.width
        stem = ConvBNActivation(inputChannels: 1, outputChannels: w, kernelSize: 3, generator: &generator)
        var blocks: [DepthwiseSeparable] = []
        var channels = w
        for _ in 0..<3 {
            blocks.append(DepthwiseSeparable(inputChannels: channels, outputChannels: 2 * channels, stride: 2, generator: &generator))
            blocks.append(DepthwiseSeparable(inputChannels: 2 * channels, outputChannels: 2 * channels, stride: 1, generator: &generator))
            channels *= 2
        }
        self.blocks = blocks
        classifier = Conv2D(inputChannels: channels, outputChannels: config.classes, kernelSize: 1, weightInit: .normal(std: 0.01), generator: &generator)
    }

    public var children: [(String, any Module)] {
        [("stem", stem)] + blocks.enumerated().map { ("b\($0.offset + 1)", $0.element) } + [("classifier", classifier)]
    }

    /// Logits (N, classes) of ink maps (N, side, side, 1).
    public func logits(_ x: Tensor, mode: Mode) -> Tensor {
        var h = stem(x, mode: mode)
        for b in blocks { h = b(h, mode: mode) }
        let pooled = h.globalAveragePooled()
        return classifier(pooled.reshaped([pooled.shape[0], 1, 1, pooled.shape[1]]), mode: mode).reshaped([x.shape[0], config.classes])
    }
}
