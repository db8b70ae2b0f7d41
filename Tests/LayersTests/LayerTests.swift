import Engine
import Layers
import Optimizers
import TestSupport
import XCTest

final class LayerTests: XCTestCase {
    /// stem conv -> depthwise-separable (stride 2) -> 1x1 head with bias.
    func makeTinyNetwork(seed: UInt64) -> Sequential {
        var g = SeededGenerator(seed: seed)
        return Sequential(named: [
            ("stem", ConvBNActivation(inputChannels: 3, outputChannels: 8, kernelSize: 3, stride: 2, generator: &g)),
            ("block", DepthwiseSeparable(inputChannels: 8, outputChannels: 16, stride: 2, generator: &g)),
            ("head", Conv2D(inputChannels: 16, outputChannels: 2, kernelSize: 1, generator: &g)),
        ])
    }

    func testNamedParametersAndCounts() {
        let net = makeTinyNetwork(seed: 1)
        let names = net.namedParameters().map(\.name)
        XCTAssertEqual(names, [
            "stem.conv.weight", "stem.bn.weight", "stem.bn.bias",
            "block.depthwise.conv.weight", "block.depthwise.bn.weight", "block.depthwise.bn.bias",
            "block.pointwise.conv.weight", "block.pointwise.bn.weight", "block.pointwise.bn.bias",
            "head.weight", "head.bias",
        ])
        XCTAssertEqual(net.namedBuffers().map(\.name).filter { $0.hasPrefix("stem") }, ["stem.bn.running_mean", "stem.bn.running_var"])
        // 3*3*3*8 + 16 | 3*3*1*8 + 16 + 8*16 + 32 | 16*2 + 2
        XCTAssertEqual(net.parameterCount, 216 + 16 + 72 + 16 + 128 + 32 + 32 + 2)
        XCTAssertEqual(net.namedParameters().first { $0.name == "block.depthwise.conv.weight" }!.tensor.shape, [3, 3, 1, 8])
    }

    func testStateLoadsIntoAFreshModel() throws {
        let trained = makeTinyNetwork(seed: 1)
        let x = randomInput([2, 16, 8, 3], seed: 2, requiresGrad: false)
        _ = trained(x, mode: .training)  // moves the running statistics
        let state = Dictionary(uniqueKeysWithValues: trained.namedState().map { ($0.name, ($0.tensor.shape, $0.tensor.scalars)) })
        let fresh = makeTinyNetwork(seed: 99)
        XCTAssertNotEqual(fresh(x, mode: .inference).scalars, trained(x, mode: .inference).scalars)
        try fresh.load(state)
        XCTAssertEqual(fresh(x, mode: .inference).scalars, trained(x, mode: .inference).scalars)
    }

    func testLoadRejectsMissingUnexpectedAndMisshapenTensors() {
        let net = makeTinyNetwork(seed: 1)
        var state = Dictionary(uniqueKeysWithValues: net.namedState().map { ($0.name, ($0.tensor.shape, $0.tensor.scalars)) })
        var missing = state
        missing["head.bias"] = nil
        XCTAssertThrowsError(try net.load(missing)) { XCTAssertEqual($0 as? StateError, .missingTensor(name: "head.bias")) }
        var extra = state
        extra["head.extra"] = ([1], [0])
        XCTAssertThrowsError(try net.load(extra)) { XCTAssertEqual($0 as? StateError, .unexpectedTensor(name: "head.extra")) }
        state["head.bias"] = ([3], [0, 0, 0])
        XCTAssertThrowsError(try net.load(state)) {
            XCTAssertEqual($0 as? StateError, .shapeMismatch(name: "head.bias", expected: [2], found: [3]))
        }
    }

    func testWholeNetworkGradientIncludingBatchNorm() {
        let net = makeTinyNetwork(seed: 3)
        let x = randomInput([2, 8, 12, 3], seed: 4)
        // A training-mode network through batch statistics and three ReLU6 layers: elements whose
        // finite difference straddles a kink are left out (at most 5% may be). Each op is checked
        // tightly on its own; this checks the wiring, where a mistake is an O(1) error, so the
        // tolerance allows for float32 noise through the whole network.
        assertGradientsMatch([x] + net.parameters.filter { $0.count <= 72 }, step: 1e-3, absoluteTolerance: 3e-3,
                             relativeTolerance: 5e-2, skipKinks: 0.02) { t in
            net(t[0], mode: .training).relu6()
        }
    }

    func trainTinyNetwork(seed: UInt64, steps: Int) -> (net: Sequential, losses: [Float]) {
        let net = makeTinyNetwork(seed: seed)
        let x = randomInput([4, 16, 8, 3], seed: 10, requiresGrad: false)
        let target = randomInput([4, 4, 2, 2], in: -1...1, seed: 11, requiresGrad: false)
        let optimizer = SGD(parameters: net.parameters, momentum: 0.9, weightDecay: 1e-4)
        var losses: [Float] = []
        for _ in 0..<steps {
            optimizer.zeroGrad()
            let diff = net(x, mode: .training) - target
            let loss = (diff * diff).mean()
            loss.backward()
            optimizer.step(learningRate: 0.05)
            losses.append(loss.item)
        }
        return (net, losses)
    }

    func testTinyNetworkFitsAFixedTargetWithSGD() {
        let (_, losses) = trainTinyNetwork(seed: 5, steps: 150)
        XCTAssertLessThan(losses.last!, 0.05 * losses.first!, "loss went \(losses.first!) -> \(losses.last!)")
    }

    func testSameSeedGivesBitIdenticalWeightsOnThisMachine() {
        let a = trainTinyNetwork(seed: 6, steps: 5).net.namedState().map(\.tensor.scalars)
        let b = trainTinyNetwork(seed: 6, steps: 5).net.namedState().map(\.tensor.scalars)
        let c = trainTinyNetwork(seed: 7, steps: 5).net.namedState().map(\.tensor.scalars)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
    }

    func testKaimingFanOutStandardDeviation() {
        var g = SeededGenerator(seed: 8)
        let conv = Conv2D(inputChannels: 64, outputChannels: 128, kernelSize: 3, generator: &g)
        let w = conv.weight.scalars
        let std = (w.map { $0 * $0 }.reduce(0, +) / Float(w.count)).squareRoot()
        XCTAssertEqual(std, (2.0 / Float(128 * 9)).squareRoot(), accuracy: 2e-3)
        let head = Conv2D(inputChannels: 8, outputChannels: 8, kernelSize: 3, weightInit: .normal(std: 0.01), biasInit: -4.595, generator: &g)
        XCTAssertEqual(head.bias!.scalars, [Float](repeating: -4.595, count: 8))
    }
}
