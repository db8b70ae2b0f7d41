import Detection

/// One convolution of a network, as the benchmark times it.
public struct ConvShape: Codable, Equatable, Sendable {
    public var name: String
    public var batch, height, width, inChannels, outChannels: Int
    public var kernel, stride, groups: Int
    public var bias: Bool
    /// False for the stem: the image needs no gradient, so backward skips dX.
    public var inputNeedsGradient: Bool

    public var kind: String {
        if groups > 1 { return "depthwise" }
        return kernel == 1 ? "1x1" : "\(kernel)x\(kernel)"
    }
    var padding: Int { kernel / 2 }
    var outHeight: Int { (height + 2 * padding - kernel) / stride + 1 }
    var outWidth: Int { (width + 2 * padding - kernel) / stride + 1 }
    /// Multiply-accumulates of the forward pass.
    public var macs: Int { batch * outHeight * outWidth * outChannels * kernel * kernel * (inChannels / groups) }
    /// Forward FLOPs; backward costs one such pass for dW and one for dX when the input needs it.
    public var forwardFLOPs: Double { 2 * Double(macs) }
    public var forwardBackwardFLOPs: Double { forwardFLOPs * (inputNeedsGradient ? 3 : 2) }
}

/// A detector config and a batch size: what fixes the shapes of every conv the benchmarks time.
public struct NetworkSize: Sendable {
    public var config: SSDConfig
    public var batch: Int

    public init(config: SSDConfig = .bench, batch: Int = 8) {
        self.config = config
        self.batch = batch
    }

    /// The spec's `bench` network (ssd-model.md, "Named sizes") at batch 8.
    public static let bench = NetworkSize()

    public var width: Int { config.inputWidth }
    public var height: Int { config.inputHeight }

    /// Every convolution of the network in forward order, with duplicates.
    public func convolutions() -> [ConvShape] {
        let c = config
        var out: [ConvShape] = []
        var (h, w) = (height / 2, width / 2)
        func add(_ name: String, _ hh: Int, _ ww: Int, _ cin: Int, _ cout: Int, k: Int, s: Int = 1, groups: Int = 1, bias: Bool, grad: Bool = true) {
            out.append(ConvShape(name: name, batch: batch, height: hh, width: ww, inChannels: cin, outChannels: cout,
                                 kernel: k, stride: s, groups: groups, bias: bias, inputNeedsGradient: grad))
        }
        add("stem", height, width, 3, c.channels(32), k: 3, s: 2, bias: false, grad: false)
        var channels = c.channels(32)
        var levelShapes: [Int: (h: Int, w: Int, c: Int)] = [:]
        for (i, (out, s)) in MobileNetV1.plan.enumerated() {
            add("b\(i + 1).depthwise", h, w, channels, channels, k: 3, s: s, groups: channels, bias: false)
            if s == 2 { h = (h + 1) / 2; w = (w + 1) / 2 }
            add("b\(i + 1).pointwise", h, w, channels, c.channels(out), k: 1, bias: false)
            channels = c.channels(out)
            if i == 4 { levelShapes[3] = (h, w, channels) }
            if i == 10 { levelShapes[4] = (h, w, channels) }
            if i == 12 { levelShapes[5] = (h, w, channels) }
        }
        let d = c.fpnDepth
        for l in 3...5 { let s = levelShapes[l]!; add("fpn.lateral\(l)", s.h, s.w, s.c, d, k: 1, bias: true) }
        for l in 3...5 { let s = levelShapes[l]!; add("fpn.output\(l)", s.h, s.w, d, d, k: 3, bias: true) }
        var (eh, ew) = (levelShapes[5]!.h, levelShapes[5]!.w)
        var levels = (c.minLevel...min(c.maxLevel, 5)).map { (levelShapes[$0]!.h, levelShapes[$0]!.w) }
        if c.maxLevel >= 6 {
            for l in 6...c.maxLevel {
                add("fpn.extra\(l)", eh, ew, d, d, k: 3, s: 2, bias: true)
                eh = (eh + 1) / 2; ew = (ew + 1) / 2
                levels.append((eh, ew))
            }
        }
        for (level, (lh, lw)) in zip(c.minLevel...c.maxLevel, levels) {
            for tower in ["class", "box"] {
                for i in 0..<c.headLayers { add("head.\(tower).\(i).P\(level)", lh, lw, d, d, k: 3, bias: true) }
                let outC = c.anchorsPerLocation * (tower == "class" ? c.numClasses : 4)
                add("head.\(tower).out.P\(level)", lh, lw, d, outC, k: 3, bias: true)
            }
        }
        return out
    }

    /// One representative per distinct geometry, named after its first use.
    public func distinctConvolutions() -> [ConvShape] {
        var seen: [String] = []
        var out: [ConvShape] = []
        for c in convolutions() {
            let key = "\(c.height)x\(c.width) \(c.inChannels)->\(c.outChannels) k\(c.kernel) s\(c.stride) g\(c.groups) \(c.inputNeedsGradient)"
            if !seen.contains(key) { seen.append(key); out.append(c) }
        }
        return out
    }
}
