import Engine
import IconRecognition
import IconVocabulary
import Boxes
import Images

/// A dark plus on a light ground, `side` pixels square: an icon crop with a shape to see.
public func plusIcon(side: Int) -> RGBImage {
    var image = RGBImage(size: Size(width: side, height: side), fill: RGB(245, 245, 245))
    for i in side / 5..<side - side / 5 {
        for t in side / 2 - 1...side / 2 {
            for offset in [3 * (t * side + i), 3 * (i * side + t)] {
                for c in 0..<3 { image.pixels[offset + c] = 20 }
            }
        }
    }
    return image
}

/// A tiny random icon classifier (16 x 16 input, width 4). `favouring` a type zeroes the last layer's
/// weights and raises that type's bias, so that every crop is named it with probability near 1.
public func plantedIconClassifier(favouring name: String? = nil, threshold: Float = 0.5, otherWeight: Float = 1,
                                  step: Int? = nil, seed: UInt64 = 1) -> IconClassifier {
    var g = SeededGenerator(seed: seed)
    let network = IconNet(config: .init(inputSide: 16, width: 4, classes: IconVocabulary.types.count), generator: &g)
    if let name {
        guard let type = IconVocabulary.type(named: name) else { preconditionFailure("'\(name)' is no icon type") }
        for (key, t) in network.namedParameters() where key.hasPrefix("classifier.") {
            t.assign(key.hasSuffix("bias") ? (0..<t.count).map { $0 == type.index ? 30 : 0 } : [Float](repeating: 0, count: t.count))
        }
    }
    return IconClassifier(network: network, threshold: threshold, otherWeight: otherWeight, step: step)
}
