import Diagnostics
import XCTest

final class BenchNetworkTests: XCTestCase {
    func testBenchNetworkConvShapesFollowTheSpec() {
        let convs = NetworkSize.bench.convolutions()
        let stem = convs[0]
        XCTAssertEqual([stem.height, stem.width, stem.inChannels, stem.outChannels, stem.stride], [512, 256, 3, 16, 2])
        // C3, C4, C5 at strides 8, 16, 32 of a 512 x 256 (H x W) input.
        let b5 = convs.first { $0.name == "b5.pointwise" }!, b11 = convs.first { $0.name == "b11.pointwise" }!
        let b13 = convs.first { $0.name == "b13.pointwise" }!
        XCTAssertEqual([b5.height, b5.width, b5.outChannels], [64, 32, 128])
        XCTAssertEqual([b11.height, b11.width, b11.outChannels], [32, 16, 256])
        XCTAssertEqual([b13.height, b13.width, b13.outChannels], [16, 8, 512])
        // Anchors: 8 per location on P3..P6 = (64*32 + 32*16 + 16*8 + 8*4) * 8.
        let classOuts = convs.filter { $0.name.hasPrefix("head.class.out") }
        XCTAssertEqual(classOuts.map { $0.height * $0.width * 8 }.reduce(0, +), 21_760)
        XCTAssertEqual(classOuts.first!.outChannels, 104)
        // Backbone + FPN + heads conv weights and biases (batch norm and running stats excluded).
        let convParameters = convs.reduce(0) { total, c in
            total + c.kernel * c.kernel * (c.inChannels / c.groups) * c.outChannels
        }
        XCTAssertGreaterThan(convParameters, 1_000_000)
        let headOnce = convs.filter { $0.name.hasPrefix("head") && $0.name.hasSuffix("P3") }
        let fpn = convs.filter { $0.name.hasPrefix("fpn") }
        let backbone = convs.filter { $0.name.hasPrefix("b") || $0.name == "stem" }
        let weights = { (cs: [ConvShape]) in cs.reduce(0) { $0 + $1.kernel * $1.kernel * ($1.inChannels / $1.groups) * $1.outChannels } }
        let biases = { (cs: [ConvShape]) in cs.filter(\.bias).reduce(0) { $0 + $1.outChannels } }
        let bnParameters = 2 * backbone.reduce(0) { $0 + $1.outChannels }
        // The spec's parameter count for `bench`: heads are shared across levels, so count them once.
        XCTAssertEqual(weights(backbone) + bnParameters + weights(fpn) + biases(fpn) + weights(headOnce) + biases(headOnce), 1_250_024)
    }
}
