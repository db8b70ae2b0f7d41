import Engine
import Foundation
import Layers

/// The backbone features the FPN reads (ssd-model.md, "Backbone"): C3, C4, C5 at strides 8, 16, 32.
public enum FeatureTap: Int, Sendable, CaseIterable {
    case c3 = 3, c4, c5
}

/// MobileNetV1 with width multiplier (ssd-model.md, "Backbone"): returns C3, C4, C5
/// at strides 8, 16, 32.
public final class MobileNetV1: Module {
    public let stem: ConvBNActivation
    public let blocks: [DepthwiseSeparable]

    /// Blocks b1...b13: output channels before alpha, stride, and the feature a block's output is.
    public static let plan: [(channels: Int, stride: Int, tap: FeatureTap?)] = [
        (64, 1, nil), (128, 2, nil), (128, 1, nil), (256, 2, nil), (256, 1, .c3), (512, 2, nil),
        (512, 1, nil), (512, 1, nil), (512, 1, nil), (512, 1, nil), (512, 1, .c4), (1024, 2, nil), (1024, 1, .c5),
    ]

    public init<G: RandomNumberGenerator>(config c: SSDConfig, generator g: inout G) {
        stem = ConvBNActivation(inputChannels: 3, outputChannels: c.channels(32), kernelSize: 3, stride: 2,
                                bnEpsilon: c.bnEpsilon, bnMomentum: c.bnMomentum, generator: &g)
        var channels = c.channels(32)
        var blocks: [DepthwiseSeparable] = []
        for b in Self.plan {
            blocks.append(DepthwiseSeparable(inputChannels: channels, outputChannels: c.channels(b.channels), stride: b.stride,
                                             bnEpsilon: c.bnEpsilon, bnMomentum: c.bnMomentum, generator: &g))
            channels = c.channels(b.channels)
        }
        self.blocks = blocks
    }

    public var children: [(String, any Module)] { [("stem", stem)] + blocks.enumerated().map { ("b\($0.offset + 1)", $0.element) } }

    /// Channels of C3, C4, C5.
    static func featureChannels(_ c: SSDConfig) -> [Int] {
        FeatureTap.allCases.map { tap in c.channels(plan.first { $0.tap == tap }!.channels) }
    }

    /// C3, C4, C5 of `x`.
    public func run<I: NetworkInterpreter>(_ i: inout I, _ x: I.Value, name: String) -> [I.Value] {
        var h = i.convBNActivation(stem, x, name: name + ".stem")
        var features: [I.Value] = []
        for (k, block) in blocks.enumerated() {
            h = block.run(&i, h, name: name + ".b\(k + 1)")
            if Self.plan[k].tap != nil { features.append(h) }
        }
        return features
    }
}

/// Feature Pyramid Network (ssd-model.md): laterals, top-down sums, 3x3 outputs, extra levels.
public final class FeaturePyramid: Module {
    public let laterals: [Conv2D]
    public let outputs: [Conv2D]
    public let extras: [Conv2D]

    public init<G: RandomNumberGenerator>(config c: SSDConfig, generator g: inout G) {
        let d = c.fpnDepth
        laterals = MobileNetV1.featureChannels(c).map { Conv2D(inputChannels: $0, outputChannels: d, kernelSize: 1, generator: &g) }
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

    /// P3 ... P(maxLevel) from C3, C4, C5.
    public func run<I: NetworkInterpreter>(_ i: inout I, _ c: [I.Value], name: String) -> [I.Value] {
        let t5 = i.conv(laterals[2], c[2], name: name + ".lateral5")
        let t4 = i.add(i.conv(laterals[1], c[1], name: name + ".lateral4"), i.upsampleNearest2x(t5, name: name + ".up5"), name: name + ".sum4")
        let t3 = i.add(i.conv(laterals[0], c[0], name: name + ".lateral3"), i.upsampleNearest2x(t4, name: name + ".up4"), name: name + ".sum3")
        var levels = [i.conv(outputs[0], t3, name: name + ".output3"), i.conv(outputs[1], t4, name: name + ".output4"),
                      i.conv(outputs[2], t5, name: name + ".output5")]
        for (k, conv) in extras.enumerated() {
            // P6 from P5; P7 from ReLU(P6).
            let input = k == 0 ? levels[2] : i.relu(levels[levels.count - 1], name: name + ".relu\(k + 6)")
            levels.append(i.conv(conv, input, name: name + ".extra\(k + 6)"))
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

    /// The tower on one level's features; `level` names the level in layer names (`name.0.P3`).
    public func run<I: NetworkInterpreter>(_ i: inout I, _ x: I.Value, name: String, level: Int) -> I.Value {
        var h = x
        for (k, conv) in hidden.enumerated() {
            h = i.relu(i.conv(conv, h, name: "\(name).\(k).P\(level)"), name: "\(name).\(k).relu.P\(level)")
        }
        return i.conv(final, h, name: "\(name).out.P\(level)")
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

    /// The whole network, once, for any interpreter: class logits (N, anchors, K) and box
    /// deltas (N, anchors, 4), anchors ordered level, then row, then column, then anchor index
    /// (the order of `AnchorGenerator`).
    public func run<I: NetworkInterpreter>(_ i: inout I, images: I.Value) -> (classLogits: I.Value, boxDeltas: I.Value) {
        let features = i.part("backbone") { backbone.run(&$0, images, name: "backbone") }
        let levels = i.part("fpn") { fpn.run(&$0, features, name: "fpn") }
        let k = config.numClasses
        return i.part("heads") { i in
            // A head's (N, H, W, A*K) output, channels last, already lies as (N, H*W*A, K): the anchor index is innermost.
            var logits: [I.Value] = [], deltas: [I.Value] = []
            for (l, level) in levels.enumerated() {
                logits.append(i.rows(classHead.run(&i, level, name: "class_head", level: l + config.minLevel), width: k, name: "class_logits.P\(l + config.minLevel)"))
                deltas.append(i.rows(boxHead.run(&i, level, name: "box_head", level: l + config.minLevel), width: 4, name: "box_deltas.P\(l + config.minLevel)"))
            }
            return (i.concatenateRows(logits, name: "class_logits"), i.concatenateRows(deltas, name: "box_deltas"))
        }
    }

    /// Raw outputs for NHWC images (N, H, W, 3), as `run` computes them on tensors; batch norm
    /// inside the `frozen` module paths runs on its running statistics.
    public func outputs(images: Tensor, mode: Mode, frozen: [String] = []) -> (classLogits: Tensor, boxDeltas: Tensor) {
        var interpreter = TensorInterpreter(mode: mode, frozen: frozen)
        return run(&interpreter, images: images)
    }

    /// The module paths of the parts a config may freeze: the four parts, and every module below them.
    public var partNames: [String] {
        func walk(_ prefix: String, _ m: any Module) -> [String] {
            [prefix] + m.children.flatMap { walk(prefix + "." + $0.0, $0.1) }
        }
        return children.flatMap { walk($0.0, $0.1) }
    }

    /// Every convolution the network runs on a batch of `batch` images, in forward order.
    public func convolutions(batch: Int) -> [ConvShape] {
        var census = ConvolutionCensus()
        _ = run(&census, images: ConvolutionCensus.input(batch: batch, height: config.inputHeight, width: config.inputWidth))
        return census.convolutions
    }
}
