import Engine
import Foundation
import Layers

/// MobileNetV1 with width multiplier (ssd-model.md, "Backbone"): returns C3, C4, C5
/// at strides 8, 16, 32.
public final class MobileNetV1: Module {
    public let stem: ConvBNActivation
    public let blocks: [DepthwiseSeparable]

    /// (output channels before alpha, stride) of blocks b1...b13.
    public static let plan: [(Int, Int)] = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2),
                                     (512, 1), (512, 1), (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]

    public init<G: RandomNumberGenerator>(config c: SSDConfig, generator g: inout G) {
        stem = ConvBNActivation(inputChannels: 3, outputChannels: c.channels(32), kernelSize: 3, stride: 2,
                                bnEpsilon: c.bnEpsilon, bnMomentum: c.bnMomentum, generator: &g)
        var channels = c.channels(32)
        var blocks: [DepthwiseSeparable] = []
        for (out, stride) in Self.plan {
            blocks.append(DepthwiseSeparable(inputChannels: channels, outputChannels: c.channels(out), stride: stride,
                                             bnEpsilon: c.bnEpsilon, bnMomentum: c.bnMomentum, generator: &g))
            channels = c.channels(out)
        }
        self.blocks = blocks
    }

    public var children: [(String, any Module)] { [("stem", stem)] + blocks.enumerated().map { ("b\($0.offset + 1)", $0.element) } }

    /// Channels of C3, C4, C5.
    static func levelChannels(_ c: SSDConfig) -> [Int] { [c.channels(256), c.channels(512), c.channels(1024)] }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> (c3: Tensor, c4: Tensor, c5: Tensor) {
        var h = stem(x, mode: mode)
        var c3 = h, c4 = h
        for (i, b) in blocks.enumerated() {
            h = b(h, mode: mode)
            if i == 4 { c3 = h }
            if i == 10 { c4 = h }
        }
        return (c3, c4, h)
    }
}

/// Feature Pyramid Network (ssd-model.md): laterals, top-down sums, 3x3 outputs, extra levels.
public final class FeaturePyramid: Module {
    public let laterals: [Conv2D]
    public let outputs: [Conv2D]
    public let extras: [Conv2D]

    public init<G: RandomNumberGenerator>(config c: SSDConfig, generator g: inout G) {
        let d = c.fpnDepth
        laterals = MobileNetV1.levelChannels(c).map { Conv2D(inputChannels: $0, outputChannels: d, kernelSize: 1, generator: &g) }
        outputs = (0..<3).map { _ in Conv2D(inputChannels: d, outputChannels: d, kernelSize: 3, padding: 1, generator: &g) }
        extras = (6...max(6, c.maxLevel)).filter { $0 <= c.maxLevel }.map { _ in
            Conv2D(inputChannels: d, outputChannels: d, kernelSize: 3, stride: 2, padding: 1, generator: &g)
        }
    }

    public var children: [(String, any Module)] {
        laterals.enumerated().map { ("lateral\($0.offset + 3)", $0.element as any Module) }
            + outputs.enumerated().map { ("output\($0.offset + 3)", $0.element as any Module) }
            + extras.enumerated().map { ("extra\($0.offset + 6)", $0.element as any Module) }
    }

    /// P3 ... P(maxLevel).
    public func callAsFunction(_ c: (c3: Tensor, c4: Tensor, c5: Tensor), mode: Mode) -> [Tensor] {
        let t5 = laterals[2](c.c5, mode: mode)
        let t4 = laterals[1](c.c4, mode: mode) + t5.upsampledNearest2x()
        let t3 = laterals[0](c.c3, mode: mode) + t4.upsampledNearest2x()
        var levels = [outputs[0](t3, mode: mode), outputs[1](t4, mode: mode), outputs[2](t5, mode: mode)]
        for (k, conv) in extras.enumerated() {
            // P6 from P5; P7 from ReLU(P6).
            let input = k == 0 ? levels[2] : levels.last!.relu()
            levels.append(conv(input, mode: mode))
        }
        return levels
    }
}

/// A head tower shared by all levels: `layers` x (3x3 conv + ReLU), then a 3x3 conv to `outputs` channels.
public final class HeadTower: Module {
    public let hidden: [Conv2D]
    public let final: Conv2D

    public init<G: RandomNumberGenerator>(depth: Int, layers: Int, outputs: Int, biasInit: Float, generator g: inout G) {
        hidden = (0..<layers).map { _ in
            Conv2D(inputChannels: depth, outputChannels: depth, kernelSize: 3, padding: 1, weightInit: .normal(std: 0.01), generator: &g)
        }
        final = Conv2D(inputChannels: depth, outputChannels: outputs, kernelSize: 3, padding: 1, weightInit: .normal(std: 0.01),
                       biasInit: biasInit, generator: &g)
    }

    public var children: [(String, any Module)] {
        hidden.enumerated().map { ("\($0.offset)", $0.element as any Module) } + [("out", final)]
    }

    public func callAsFunction(_ x: Tensor, mode: Mode) -> Tensor {
        final(hidden.reduce(x) { $1($0, mode: mode).relu() }, mode: mode)
    }
}

/// The SSD MobileNetV1 + FPN detector of ssd-model.md, up to its raw outputs.
public final class SSDModel: Module {
    public let config: SSDConfig
    public let backbone: MobileNetV1
    public let fpn: FeaturePyramid
    public let classHead: HeadTower
    public let boxHead: HeadTower

    /// A freshly initialised model (Kaiming fan-out backbone and FPN; heads N(0, 0.01); class bias -log(99)).
    public init<G: RandomNumberGenerator>(config c: SSDConfig, generator g: inout G) {
        config = c
        backbone = MobileNetV1(config: c, generator: &g)
        fpn = FeaturePyramid(config: c, generator: &g)
        let prior: Float = 0.01
        classHead = HeadTower(depth: c.fpnDepth, layers: c.headLayers, outputs: c.anchorsPerLocation * c.numClasses,
                              biasInit: -logf((1 - prior) / prior), generator: &g)
        boxHead = HeadTower(depth: c.fpnDepth, layers: c.headLayers, outputs: c.anchorsPerLocation * 4, biasInit: 0, generator: &g)
    }

    public var children: [(String, any Module)] { [("backbone", backbone), ("fpn", fpn), ("class_head", classHead), ("box_head", boxHead)] }

    /// Raw outputs for NHWC images (N, H, W, 3): class logits (N, anchors, K) and box deltas (N, anchors, 4),
    /// anchors ordered level, then row, then column, then anchor index (the order of `AnchorGenerator`).
    public func outputs(images: Tensor, mode: Mode) -> (classLogits: Tensor, boxDeltas: Tensor) {
        let n = images.shape[0]
        let features = Autodiff.section("backbone") { backbone(images, mode: mode) }
        let levels = Autodiff.section("fpn") { fpn(features, mode: mode) }
        let k = config.numClasses
        return Autodiff.section("heads") {
            // (N, H, W, A*K) is already (N, H*W*A, K) in memory: channels last keeps the anchor index innermost.
            let logits = levels.map { classHead($0, mode: mode).reshaped([n, -1, k]) }
            let deltas = levels.map { boxHead($0, mode: mode).reshaped([n, -1, 4]) }
            return (Tensor.concatenate(logits, axis: 1), Tensor.concatenate(deltas, axis: 1))
        }
    }
}
