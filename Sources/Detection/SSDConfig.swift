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
        // Levels first: the input-size rule below shifts by max_level.
        if minLevel != 3 { out.append(("min_level", "must be 3 (the FPN starts at C3)")) }
        let levelsValid = (5...Self.largestLevel).contains(maxLevel)
        if !levelsValid { out.append(("max_level", "must lie in 5...\(Self.largestLevel) (P3-P5 come from the backbone), got \(maxLevel)")) }
        if levelsValid {
            let multiple = 1 << maxLevel
            for (key, value) in [("input_width", inputWidth), ("input_height", inputHeight)] {
                if value <= 0 || value % multiple != 0 || value > Self.largestInput {
                    out.append((key, "\(value) is not a positive multiple of 2^max_level = \(multiple) up to \(Self.largestInput)"))
                }
            }
        }
        if !(alpha > 0 && alpha <= 4) { out.append(("alpha", "must lie in (0, 4], got \(alpha)")) }
        if !(1...1024).contains(fpnDepth) { out.append(("fpn_depth", "must lie in 1...1024, got \(fpnDepth)")) }
        if !(0...16).contains(headLayers) { out.append(("head_layers", "must lie in 0...16, got \(headLayers)")) }
        if !(1...1000).contains(numClasses) { out.append(("num_classes", "must lie in 1...1000, got \(numClasses)")) }
        if !(anchorScale > 0 && anchorScale <= 64) { out.append(("anchor_scale", "must lie in (0, 64], got \(anchorScale)")) }
        if !(1...8).contains(scalesPerOctave) { out.append(("scales_per_octave", "must lie in 1...8, got \(scalesPerOctave)")) }
        if aspectRatios.isEmpty || aspectRatios.count > 16 || aspectRatios.contains(where: { !($0 > 0 && $0 <= 100) }) {
            out.append(("aspect_ratios", "must be 1 to 16 numbers in (0, 100]"))
        }
        if !(bnMomentum >= 0 && bnMomentum <= 1) { out.append(("bn_momentum", "must lie in [0, 1], got \(bnMomentum)")) }
        if !(bnEpsilon > 0 && bnEpsilon <= 1) { out.append(("bn_epsilon", "must lie in (0, 1], got \(bnEpsilon)")) }
        return out
    }

    /// The largest max_level and input side accepted (a 2^9 stride and 4096 pixels already leave screens far behind).
    static let largestLevel = 9
    static let largestInput = 4096

    enum CodingKeys: String, CodingKey {
        case alpha
        case inputWidth = "input_width", inputHeight = "input_height", fpnDepth = "fpn_depth", headLayers = "head_layers"
        case minLevel = "min_level", maxLevel = "max_level", numClasses = "num_classes", anchorScale = "anchor_scale"
        case scalesPerOctave = "scales_per_octave", aspectRatios = "aspect_ratios", bnMomentum = "bn_momentum", bnEpsilon = "bn_epsilon"
    }
}
