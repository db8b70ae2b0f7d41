import Detection
import Engine
import Foundation
import Shards
import XCTest

/// The tiny network of the planted detector (64 x 128 input, the 13 default classes).
public func plantedConfig() throws -> SSDConfig {
    var c = SSDConfig()
    c.inputWidth = 64; c.inputHeight = 128; c.alpha = 0.25; c.fpnDepth = 8; c.headLayers = 1
    return c
}

/// A detector whose output does not depend on learning: class and box head outputs have zero
/// weights, so every location scores sigmoid(6) for `text` on its first anchor (and sigmoid(-12)
/// for everything else) and every box is its anchor. What predict and evaluate make of it is
/// known exactly on any machine.
public func plantedModel() throws -> SSDModel {
    var g = SeededGenerator(seed: 5)
    let c = try plantedConfig()
    let model = SSDModel(config: c, generator: &g)
    let text = try XCTUnwrap(defaultClassNames.firstIndex(of: "text"))
    model.classHead.final.weight.assign([Float](repeating: 0, count: model.classHead.final.weight.count))
    model.classHead.final.bias!.assign((0..<(c.anchorsPerLocation * c.numClasses)).map { $0 == text ? 6 : -12 })
    model.boxHead.final.weight.assign([Float](repeating: 0, count: model.boxHead.final.weight.count))
    model.boxHead.final.bias!.assign([Float](repeating: 0, count: c.anchorsPerLocation * 4))
    return model
}

/// The planted detector (`plantedModel`) as a weights file `dir/planted.safetensors`.
public func plantedCheckpoint(in dir: URL) throws -> URL {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent("planted.safetensors")
    try DetectorWeights.write(try plantedModel(), classNames: defaultClassNames, step: 0, to: url)
    return url
}

/// A model of `config` drawn from `g`, its batch-norm statistics and one-dimensional parameters
/// then moved away from their initial values (as a trained model's are), so that folding batch
/// norm or exporting it is tested on more than identity statistics.
public func modelAwayFromItsInitialValues(_ config: SSDConfig, generator g: inout SeededGenerator) -> SSDModel {
    let model = SSDModel(config: config, generator: &g)
    for (name, t) in model.namedBuffers() {
        let values = (0..<t.count).map { _ in Float(g.uniform(0.2...1.5)) }
        t.assign(name.hasSuffix("running_mean") ? values.map { $0 - 0.8 } : values)
    }
    for p in model.parameters where p.shape.count == 1 { p.assign((0..<p.count).map { _ in Float(g.uniform(-0.3...0.3)) }) }
    return model
}
