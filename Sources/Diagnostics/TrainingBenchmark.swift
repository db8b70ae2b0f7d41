import Boxes
import Detection
import Engine
import Foundation
import Layers
import Optimizers
import Shards
import Synthesis

/// What `uidetect bench train` measures: training steps of a network on synthetic screens.
public struct TrainingBenchmarkReport: Codable {
    public var config: String
    public var batchSize: Int
    public var threads: Int
    public var parameters: Int
    public var imagesPerSecond: Double
    /// Median seconds per step, and its parts.
    public var stepSeconds: Double
    public var targetSeconds: Double
    public var forwardLossSeconds: Double
    public var backwardSeconds: Double
    public var optimizerSeconds: Double
    /// Forward FLOPs of one image (2 x MACs of every conv).
    public var forwardGFLOPPerImage: Double
    /// Peak resident memory of the process, GiB.
    public var peakResidentGiB: Double
    public var runs: Int

    enum CodingKeys: String, CodingKey {
        case config, threads, parameters, runs
        case batchSize = "batch_size", imagesPerSecond = "images_per_second", stepSeconds = "step_seconds"
        case targetSeconds = "target_assignment_seconds", forwardLossSeconds = "forward_loss_seconds", backwardSeconds = "backward_seconds"
        case optimizerSeconds = "optimizer_seconds", forwardGFLOPPerImage = "forward_gflop_per_image", peakResidentGiB = "peak_resident_gib"
    }
}

public struct TrainingBenchmark {
    public var config: SSDConfig
    public var name: String
    public var batchSize: Int
    public var steps: Int
    public var runs: Int

    public init(config: SSDConfig = .bench, name: String = "bench", batchSize: Int = 8, steps: Int = 5, runs: Int = 3) {
        self.config = config
        self.name = name
        self.batchSize = batchSize
        self.steps = steps
        self.runs = runs
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> TrainingBenchmarkReport {
        var g = SeededGenerator(seed: 7)
        let detector = SSDDetector(model: SSDModel(config: config, generator: &g), classWeights: [Float](repeating: 1, count: config.numClasses))
        progress("synthesizing \(batchSize) screens")
        let synth = try ScreenSynthesizer(size: config.inputSize, seed: 7, appCount: 4)
        let screens = (0..<batchSize).map { synth.screen(index: $0) }
        var pixels = [Float](repeating: 0, count: batchSize * config.inputWidth * config.inputHeight * 3)
        for (k, s) in screens.enumerated() {
            for (i, p) in s.image!.pixels.enumerated() { pixels[k * s.image!.pixels.count + i] = Float(p) / 127.5 - 1 }
        }
        let images = Tensor(shape: [batchSize, config.inputHeight, config.inputWidth, 3], values: pixels)
        let targets = screens.map { (boxes: $0.boxes, labels: $0.labels.map { $0 % Int32(config.numClasses) }) }
        let optimizer = SGD(parameters: detector.model.parameters, momentum: 0.9, weightDecay: 4e-5)
        var step: [Double] = [], assign: [Double] = [], forward: [Double] = [], backward: [Double] = [], update: [Double] = []
        for r in 0..<runs {
            progress("run \(r + 1)/\(runs)")
            var (s, a, f, b, u) = (0.0, 0.0, 0.0, 0.0, 0.0)
            for k in 0...steps {
                let t0 = monotonicSeconds()
                optimizer.zeroGrad()
                let assigned = detector.assignTargets(targets)
                let t1 = monotonicSeconds()
                let loss = detector.loss(images: images, assigned: assigned)
                let t2 = monotonicSeconds()
                loss.total.backward()
                let t3 = monotonicSeconds()
                optimizer.step(learningRate: 0.001)
                let t4 = monotonicSeconds()
                guard k > 0 else { continue }  // the first step warms the buffer pool up
                s += t4 - t0; a += t1 - t0; f += t2 - t1; b += t3 - t2; u += t4 - t3
            }
            let n = Double(steps)
            step.append(s / n); assign.append(a / n); forward.append(f / n); backward.append(b / n); update.append(u / n)
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let macs = NetworkSize(config: config, batch: batchSize).convolutions().reduce(0) { $0 + $1.macs } / batchSize
        let peak = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 / 1_048_576 } ?? 0
        return TrainingBenchmarkReport(config: name, batchSize: batchSize, threads: Parallel.threadCount, parameters: detector.model.parameterCount,
                                       imagesPerSecond: Double(batchSize) / median(step), stepSeconds: median(step), targetSeconds: median(assign),
                                       forwardLossSeconds: median(forward), backwardSeconds: median(backward), optimizerSeconds: median(update),
                                       forwardGFLOPPerImage: 2 * Double(macs) / 1e9, peakResidentGiB: peak, runs: runs)
    }
}
