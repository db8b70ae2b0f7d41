import Boxes
import Detection
import Engine
import Foundation
import Images
import Shards
import Synthesis
import Training

/// Single-screen latency of a network (load excluded): one screenshot letterboxed,
/// detected and filtered, as `uidetect predict` does for each file.
public struct LatencyMeasurement: Codable {
    /// What it was measured on (CPU model and family, vector registers, OpenBLAS kernels, threads).
    public var machine = Machine.current()
    public var network: String
    public var threads: Int
    /// Median milliseconds of the whole prediction, and of the forward pass alone.
    public var totalMilliseconds: Double
    public var forwardMilliseconds: Double
    /// The screen's (anchor, class) scores above the score floor: what post-processing ranks and suppresses.
    public var candidates: Int

    enum CodingKeys: String, CodingKey {
        case machine
        case network, threads
        case totalMilliseconds = "total_ms", forwardMilliseconds = "forward_ms"
        case candidates
    }
}

public struct PredictionBenchmark {
    public var networks: [(name: String, config: SSDConfig)]
    public var threadCounts: [Int]
    public var repeats: Int
    /// Scores above the floor to leave on the screen. Trained detectors leave about as many on these
    /// synthetic screens: the real-screen recipe's model (seed 5, step 8,400) left 981-3,459 on five of them.
    public var candidates: Int

    public init(networks: [(name: String, config: SSDConfig)] = [("bench", .bench), ("paper-size", .paperSize)], threadCounts: [Int] = [1, 2],
                repeats: Int = 7, candidates: Int = 2_000) {
        self.networks = networks
        self.threadCounts = threadCounts
        self.repeats = repeats
        self.candidates = candidates
    }

    /// Each network with each thread count. Weights are random, with the class bias set so that
    /// post-processing ranks as many candidates as a trained detector's (`candidates`).
    public func run(progress: (String) -> Void = { _ in }) throws -> [LatencyMeasurement] {
        let screen = try ScreenSynthesizer(size: Size(width: 390, height: 844), seed: 5, appCount: 1).screen(index: 0).image!
        var out: [LatencyMeasurement] = []
        for (name, config) in networks {
            var g = SeededGenerator(seed: 5)
            let model = SSDModel(config: config, generator: &g)
            let screenInput = ModelInput.batch([screen], size: config.inputSize).images
            let detector = Self.detector(model, candidates: candidates, on: screenInput)
            let floor = detector.postProcessing.floorLogit
            let passing = detector.outputs(images: screenInput).classLogits.scalars.count { $0 > floor }
            let names = Array(defaultClassNames.prefix(config.numClasses))
            let filter = DeploymentFilter()
            let input = Tensor(shape: [1, config.inputHeight, config.inputWidth, 3], values: [Float](repeating: 0, count: config.inputWidth * config.inputHeight * 3))
            for t in threadCounts {
                progress("\(name), \(t) thread\(t == 1 ? "" : "s")")
                let (total, forward) = Parallel.withThreads(t) {
                    (medianSeconds(repeats: repeats) { _ = detector.detect(screens: [screen]) { filter.apply($0, classNames: names) } },
                     medianSeconds(repeats: repeats) { _ = detector.outputs(images: input) })
                }
                out.append(LatencyMeasurement(machine: .current(threads: t), network: name, threads: t, totalMilliseconds: 1000 * total,
                                              forwardMilliseconds: 1000 * forward, candidates: passing))
            }
        }
        return out
    }

    /// A detector of `model` whose class bias (one value for every class) puts about `target` of the
    /// logits on `input` above the score floor. A fixed bias does not: the class head's initial weights
    /// are small, and with -2.9 (score 0.052) all 282,880 of the bench network's logits passed.
    private static func detector(_ model: SSDModel, candidates target: Int, on input: Tensor) -> SSDDetector {
        let bias = model.classHead.final.bias!
        bias.assign([Float](repeating: 0, count: bias.count))
        let logits = SSDDetector(model: model).outputs(images: input).classLogits.scalars.sorted()
        // Logits above the (count - target)-th one pass once the bias moves it onto the floor.
        let threshold = logits[max(0, logits.count - target - 1)]
        bias.assign([Float](repeating: PostProcessing().floorLogit - threshold, count: bias.count))
        return SSDDetector(model: model)
    }
}
