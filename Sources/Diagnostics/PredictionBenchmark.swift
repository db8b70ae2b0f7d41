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

    enum CodingKeys: String, CodingKey {
        case machine
        case network, threads
        case totalMilliseconds = "total_ms", forwardMilliseconds = "forward_ms"
    }
}

public struct PredictionBenchmark {
    public var networks: [(name: String, config: SSDConfig)]
    public var threadCounts: [Int]
    public var repeats: Int

    public init(networks: [(name: String, config: SSDConfig)] = [("bench", .bench), ("paper-size", .paperSize)], threadCounts: [Int] = [1, 2], repeats: Int = 7) {
        self.networks = networks
        self.threadCounts = threadCounts
        self.repeats = repeats
    }

    /// Each network with each thread count. Weights are random, with the class bias raised so
    /// that post-processing has a realistic number of candidates (a few hundred per screen).
    public func run(progress: (String) -> Void = { _ in }) throws -> [LatencyMeasurement] {
        let screen = try ScreenSynthesizer(size: Size(width: 390, height: 844), seed: 5, appCount: 1).screen(index: 0).image!
        var out: [LatencyMeasurement] = []
        for (name, config) in networks {
            var g = SeededGenerator(seed: 5)
            let model = SSDModel(config: config, generator: &g)
            let bias = model.classHead.final.bias!
            bias.assign([Float](repeating: -2.9, count: bias.count))
            let detector = SSDDetector(model: model)
            let names = Array(defaultClassNames.prefix(config.numClasses))
            let filter = DeploymentFilter()
            let input = Tensor(shape: [1, config.inputHeight, config.inputWidth, 3], values: [Float](repeating: 0, count: config.inputWidth * config.inputHeight * 3))
            for t in threadCounts {
                progress("\(name), \(t) thread\(t == 1 ? "" : "s")")
                let (total, forward) = Parallel.withThreads(t) {
                    (medianSeconds(repeats: repeats) { _ = detector.detect(screens: [screen]) { filter.apply($0, classNames: names) } },
                     medianSeconds(repeats: repeats) { _ = detector.outputs(images: input) })
                }
                out.append(LatencyMeasurement(machine: .current(threads: t), network: name, threads: t, totalMilliseconds: 1000 * total, forwardMilliseconds: 1000 * forward))
            }
        }
        return out
    }
}
