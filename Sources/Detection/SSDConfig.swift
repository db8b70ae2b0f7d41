import Boxes

/// The detector's knobs (ssd-model.md); every default is the spec's.
public struct SSDConfig: Codable, Equatable, Sendable {
    /// Input width and height; both must be multiples of 2^maxLevel.
    public var inputWidth = 256
    public var inputHeight = 512
    /// MobileNetV1 width multiplier: ch(c) = max(8, floor(c * alpha)).
    public var alpha = 0.5
    public var fpnDepth = 64
    public var headLayers = 2
    public var minLevel = 3
    public var maxLevel = 6
    public var numClasses = 13
    public var anchorScale = 2.0
    public var scalesPerOctave = 2
    public var aspectRatios: [Double] = [0.5, 1, 2, 4]
    public var bnMomentum: Float = 0.1
    public var bnEpsilon: Float = 1e-3

    public init() {}

    /// The spec's `bench` size (speed comparisons).
    public static let bench = SSDConfig()

    /// The spec's `paper-size`: 384 x 768, alpha 1, FPN 128, 4 head layers, levels 3-7.
    public static let paperSize: SSDConfig = {
        var c = SSDConfig()
        c.inputWidth = 384; c.inputHeight = 768; c.alpha = 1; c.fpnDepth = 128; c.headLayers = 4; c.maxLevel = 7
        return c
    }()

    public var inputSize: Size { Size(width: inputWidth, height: inputHeight) }
    public var anchorsPerLocation: Int { scalesPerOctave * aspectRatios.count }

    /// ch(c) = max(8, floor(c * alpha)).
    public func channels(_ c: Int) -> Int { max(8, Int((Double(c) * alpha).rounded(.down))) }

    /// Problems that make the config impossible, each naming its key.
    public func problems() -> [(key: String, problem: String)] {
        var out: [(String, String)] = []
        let multiple = 1 << maxLevel
        if inputWidth <= 0 || inputWidth % multiple != 0 { out.append(("input_width", "\(inputWidth) is not a positive multiple of 2^max_level = \(multiple)")) }
        if inputHeight <= 0 || inputHeight % multiple != 0 { out.append(("input_height", "\(inputHeight) is not a positive multiple of 2^max_level = \(multiple)")) }
        if !(alpha > 0) { out.append(("alpha", "must be positive")) }
        if fpnDepth < 1 { out.append(("fpn_depth", "must be at least 1")) }
        if headLayers < 0 { out.append(("head_layers", "must be 0 or more")) }
        if minLevel != 3 { out.append(("min_level", "must be 3 (the FPN starts at C3)")) }
        if maxLevel < 5 { out.append(("max_level", "must be 5 or more (P3-P5 come from the backbone)")) }
        if numClasses < 1 { out.append(("num_classes", "must be at least 1")) }
        if scalesPerOctave < 1 { out.append(("scales_per_octave", "must be at least 1")) }
        if aspectRatios.isEmpty || aspectRatios.contains(where: { !($0 > 0) }) { out.append(("aspect_ratios", "must be positive numbers")) }
        return out
    }

    enum CodingKeys: String, CodingKey {
        case alpha
        case inputWidth = "input_width", inputHeight = "input_height", fpnDepth = "fpn_depth", headLayers = "head_layers"
        case minLevel = "min_level", maxLevel = "max_level", numClasses = "num_classes", anchorScale = "anchor_scale"
        case scalesPerOctave = "scales_per_octave", aspectRatios = "aspect_ratios", bnMomentum = "bn_momentum", bnEpsilon = "bn_epsilon"
    }
}
