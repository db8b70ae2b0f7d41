import Boxes
import Detection
import Engine
import Foundation
import Layers
import Optimizers
import Shards
import Synthesis
import Training

/// What `uidetect bench train` measures: training steps of a network on synthetic screens, alone
/// (comparable to PyTorch's bench.py) and as the whole loop with the input pipeline, with the time of each part.
public struct TrainingBenchmarkReport: Codable {
    /// What it was measured on (CPU model and family, vector registers, OpenBLAS kernels, threads).
    public var machine = Machine.current()
    public var config: String
    public var batchSize: Int
    public var threads: Int
    public var parameters: Int
    /// The step alone, as PyTorch's bench.py times it: forward, loss, backward and SGD on one batch
    /// whose targets were matched once before the timed steps.
    public var imagesPerSecond: Double
    /// Median seconds per step alone.
    public var stepSeconds: Double
    /// The whole loop as `uidetect train` runs it: waiting for the input pipeline (which matches the
    /// targets on its worker, as in training), then the step.
    public var loopImagesPerSecond: Double
    /// Median seconds per step of the whole loop.
    public var loopStepSeconds: Double
    /// The whole loop's rate over the step alone's, in each run: the run alternates the two step by
    /// step, so that both see the same load of a shared machine.
    public var loopToStepRuns: [Double]
    /// Median of `loopToStepRuns`.
    public var loopToStep: Double
    /// Median seconds per step of the whole loop of each part (forward and backward together): backbone,
    /// fpn, heads, loss_and_matching (the loss; the matching runs on the pipeline's worker and shows in
    /// data_wait when the worker falls behind), optimizer, data_wait.
    public var partSeconds: [String: Double]
    /// Forward FLOPs of one image (2 x MACs of every conv).
    public var forwardGFLOPPerImage: Double
    /// Trained FLOPs per second: 3 x forward FLOPs x images/s.
    public var trainedGFLOPPerSecond: Double
    /// Peak resident memory of the process, GiB.
    public var peakResidentGiB: Double
    public var runs: Int
    /// OpenBLAS's kernel set during the run (`BLASKernels.current`).
    public var blasKernels: String
    /// PyTorch's bench.py with channels-last tensors, median images/s of runs alternated with ours (with `--torch-anchor`).
    public var torchChannelsLastImagesPerSecond: Double?
    /// The same in PyTorch's default NCHW layout.
    public var torchImagesPerSecond: Double?
    /// Median over runs of our step alone's images/s over PyTorch channels-last's in the same run: above 1, we are faster.
    public var ratioToTorchChannelsLast: Double?
    /// With `timesLayers`: each layer's forward and backward time in the step alone, medians of runs
    /// (with `torch`, each run also times the reference's step under PyTorch's profiler, channels-last).
    public var layers: [LayerTime]?
    /// `layers` summed by kind (`LayerTime.kind(of:)`).
    public var layerKinds: [LayerTime]?
    /// The same steps by part: backbone, fpn, heads, loss, and optimizer (zeroing the gradients and
    /// the update, counted as forward).
    public var layerParts: [LayerTime]?
    /// Median milliseconds of those steps, ours and PyTorch's (under its profiler, which costs it tens of
    /// microseconds an op: compare layers, not these two).
    public var layerStepMilliseconds: Double?
    public var torchLayerStepMilliseconds: Double?
    /// PyTorch's backward time a step that its profile tied to no part (the parameters' gradient sums).
    public var torchUnattributedBackwardMilliseconds: Double?
    /// The PyTorch that was profiled.
    public var torchVersion: String?

    enum CodingKeys: String, CodingKey {
        case machine
        case config, threads, parameters, runs
        case blasKernels = "blas_kernels", torchChannelsLastImagesPerSecond = "torch_channels_last_images_per_second"
        case torchImagesPerSecond = "torch_images_per_second", ratioToTorchChannelsLast = "ratio_to_torch_channels_last"
        case batchSize = "batch_size", imagesPerSecond = "images_per_second", stepSeconds = "step_seconds", partSeconds = "part_seconds"
        case loopImagesPerSecond = "loop_images_per_second", loopStepSeconds = "loop_step_seconds"
        case loopToStepRuns = "loop_to_step_runs", loopToStep = "loop_to_step"
        case layers, layerKinds = "layer_kinds", layerParts = "layer_parts"
        case layerStepMilliseconds = "layer_step_ms", torchLayerStepMilliseconds = "torch_layer_step_ms"
        case torchUnattributedBackwardMilliseconds = "torch_unattributed_backward_ms", torchVersion = "torch_version"
        case forwardGFLOPPerImage = "forward_gflop_per_image", trainedGFLOPPerSecond = "trained_gflop_per_second", peakResidentGiB = "peak_resident_gib"
    }

    /// The parts in the order a step runs them.
    public static let parts = ["data_wait", "loss_and_matching", "backbone", "fpn", "heads", "optimizer"]
}

public struct TrainingBenchmark {
    public var config: SSDConfig
    public var name: String
    public var batchSize: Int
    public var steps: Int
    public var runs: Int
    /// PyTorch's reference, run after each of our runs (each alternating loop steps and steps alone) in both layouts; nil: ours only.
    public var torch: TorchAnchor?
    /// Also time each layer of the step alone (and, with `torch`, of PyTorch's under its profiler), in runs of their own.
    public var timesLayers: Bool

    public init(config: SSDConfig = .bench, name: String = "bench", batchSize: Int = 8, steps: Int = 5, runs: Int = 3, torch: TorchAnchor? = nil,
                timesLayers: Bool = false) {
        self.config = config
        self.name = name
        self.batchSize = batchSize
        self.steps = steps
        self.runs = runs
        self.torch = torch
        self.timesLayers = timesLayers
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> TrainingBenchmarkReport {
        var g = SeededGenerator(seed: 7)
        let model = SSDModel(config: config, generator: &g)
        let loss = SSDLoss(model: model, config: LossConfig(), classWeights: [Float](repeating: 1, count: config.numClasses))
        progress("synthesizing screens")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-bench-train-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shard = folder.appendingPathComponent("screens.h5")
        let synth = try ScreenSynthesizer(size: config.inputSize, seed: 7, appCount: 4)
        let names = (0..<config.numClasses).map { $0 < defaultClassNames.count ? defaultClassNames[$0] : "class\($0)" }
        let writer = try ShardWriter(url: shard, classNames: names, imageSize: config.inputSize)
        for i in 0..<(4 * batchSize) {
            var s = synth.screen(index: i)
            s.labels = s.labels.map { $0 % Int32(config.numClasses) }
            try writer.append(s)
        }
        try writer.finish()
        // The training run's pipeline: default augmentations and matching on one worker beside the training
        // threads, and the default screen cache (past the first epoch, as most of a run's epochs are).
        let assigner = loss.assigner
        let pipeline = InputPipeline(set: try ShardSet([shard.path]), batchSize: batchSize, seed: 7, options: AugmentationOptions(),
                                     inputSize: config.inputSize, cacheBytes: TrainingSetup.screenCacheBytes(
                                        requested: DataConfig().cacheMB, activationBytes: TrainingSetup.activationBytes(model: model, batch: batchSize))) {
            assigner.trainingBatch($0)
        }
        defer { pipeline.stop() }
        let optimizer = SGD(parameters: model.parameters, momentum: 0.9, weightDecay: 4e-5)
        let profiler = Profiler()
        // The step alone: one batch, matched once, stepped again and again (the images stay the same,
        // which costs the engine nothing: no step depends on the values for its speed).
        let (images, assigned) = try pipeline.next()
        var stepTimes: [Double] = [], partTimes: [[String: Double]] = []
        var aloneTimes: [Double] = [], torchChannelsLast: [Double] = [], torchNCHW: [Double] = []
        // Each run alternates a whole-loop step and a step alone, step by step: on a shared machine the
        // load moves within seconds, and the two sides of each pair see the same. (Timing all loop runs
        // before all alone runs put the loop at 81-105% of the step in one evening; blocks of 20 steps
        // each, at 74-122% in a busy hour.) Between the two, the pipeline finishes the batch it started
        // when the loop step took one, so that its work falls in the loop's time and not in the step's;
        // that wait counts as the loop's data wait (nothing, while the pipeline keeps up: it had the
        // whole loop step to run beside).
        for r in 0..<runs {
            progress("run \(r + 1)/\(runs): whole loop and step alone, alternated")
            var (loopTotal, aloneTotal) = (0.0, 0.0)
            var parts: [String: Double] = [:]
            for k in 0...steps {
                profiler.reset()
                let t0 = monotonicSeconds()
                let batch = try pipeline.next()
                let t1 = monotonicSeconds()
                optimizer.zeroGrad()
                let t2 = monotonicSeconds()
                Autodiff.profiling(with: profiler) {
                    loss(images: batch.images, assigned: batch.assigned).total.backward()
                }
                let t3 = monotonicSeconds()
                optimizer.step(learningRate: 0.001)
                let t4 = monotonicSeconds()
                pipeline.waitUntilPrefetched()
                let t5 = monotonicSeconds()
                optimizer.zeroGrad()
                loss(images: images, assigned: assigned).total.backward()
                optimizer.step(learningRate: 0.001)
                let t6 = monotonicSeconds()
                guard k > 0 else { continue }  // the first pair warms the buffer pool up
                loopTotal += t5 - t0
                aloneTotal += t6 - t5
                parts["data_wait", default: 0] += (t1 - t0) + (t5 - t4)
                parts["optimizer", default: 0] += (t2 - t1) + (t4 - t3)
                for (section, seconds) in profiler.secondsBySection {
                    parts[section == "loss" ? "loss_and_matching" : section, default: 0] += seconds
                }
            }
            stepTimes.append(loopTotal / Double(steps))
            aloneTimes.append(aloneTotal / Double(steps))
            partTimes.append(parts.mapValues { $0 / Double(steps) })
            if let torch {
                progress("PyTorch channels-last, run \(r + 1)/\(runs)")
                torchChannelsLast.append(try torch.trainImagesPerSecond(threads: Parallel.threadCount, batch: batchSize, steps: steps, channelsLast: true))
                progress("PyTorch NCHW, run \(r + 1)/\(runs)")
                torchNCHW.append(try torch.trainImagesPerSecond(threads: Parallel.threadCount, batch: batchSize, steps: steps, channelsLast: false))
            }
        }
        let layerTimes = timesLayers ? try layerRuns(model: model, loss: loss, optimizer: optimizer, images: images, assigned: assigned, progress: progress) : nil
        let ratios = zip(aloneTimes, torchChannelsLast).map { Double(batchSize) / $0 / $1 }
        let loopToStep = zip(aloneTimes, stepTimes).map { $0 / $1 }
        var partSeconds: [String: Double] = [:]
        for key in Set(partTimes.flatMap(\.keys)) { partSeconds[key] = median(partTimes.map { $0[key] ?? 0 }) }
        let macs = model.convolutions(batch: 1).reduce(0) { $0 + $1.macs }
        let peak = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 / 1_048_576 } ?? 0
        let imagesPerSecond = Double(batchSize) / median(aloneTimes)
        let gflop = 2 * Double(macs) / 1e9
        return TrainingBenchmarkReport(config: name, batchSize: batchSize, threads: Parallel.threadCount, parameters: model.parameterCount,
                                       imagesPerSecond: imagesPerSecond, stepSeconds: median(aloneTimes),
                                       loopImagesPerSecond: Double(batchSize) / median(stepTimes), loopStepSeconds: median(stepTimes),
                                       loopToStepRuns: loopToStep, loopToStep: median(loopToStep), partSeconds: partSeconds,
                                       forwardGFLOPPerImage: gflop, trainedGFLOPPerSecond: 3 * gflop * imagesPerSecond, peakResidentGiB: peak, runs: runs,
                                       blasKernels: BLASKernels.current, torchChannelsLastImagesPerSecond: medianOrNil(torchChannelsLast),
                                       torchImagesPerSecond: medianOrNil(torchNCHW), ratioToTorchChannelsLast: medianOrNil(ratios),
                                       layers: layerTimes?.layers, layerKinds: layerTimes.map { LayerTime.groups($0.layers) }, layerParts: layerTimes?.parts,
                                       layerStepMilliseconds: layerTimes?.step, torchLayerStepMilliseconds: layerTimes?.torchStep,
                                       torchUnattributedBackwardMilliseconds: layerTimes?.torchUnattributed, torchVersion: layerTimes?.torchVersion)
    }

    /// The step alone under a profiler that times layers, then PyTorch's under its own, `runs` times:
    /// medians per layer and per part. Runs of their own, so that labelling layers costs the figures above nothing.
    private func layerRuns(model: SSDModel, loss: SSDLoss, optimizer: SGD, images: Tensor, assigned: AssignedTargets,
                           progress: (String) -> Void) throws -> LayerRuns {
        typealias Times = [String: (forward: Double, backward: Double)]
        var ours: [Times] = [], oursParts: [Times] = [], theirs: [Times] = [], theirParts: [Times] = []
        var stepMilliseconds: [Double] = [], torchStepMilliseconds: [Double] = [], torchUnattributed: [Double] = []
        var torchVersion: String?
        let profiler = Profiler(timesLayers: true)
        let order = model.convolutions(batch: 1).map(\.name)
        for r in 0..<runs {
            progress("layers, run \(r + 1)/\(runs): ours")
            var (stepTotal, optimizerTotal) = (0.0, 0.0)
            for k in 0...steps {
                if k == 1 { profiler.reset() }  // the first step warms the buffer pool up
                let t0 = monotonicSeconds()
                optimizer.zeroGrad()
                let t1 = monotonicSeconds()
                Autodiff.profiling(with: profiler) { loss(images: images, assigned: assigned).total.backward() }
                let t2 = monotonicSeconds()
                optimizer.step(learningRate: 0.001)
                let t3 = monotonicSeconds()
                guard k > 0 else { continue }
                stepTotal += t3 - t0
                optimizerTotal += (t1 - t0) + (t3 - t2)
            }
            let perStep = 1000 / Double(steps)
            ours.append(profiler.secondsByLayer.mapValues { (forward: $0.forward * perStep, backward: $0.backward * perStep) })
            var parts = profiler.secondsByPart.mapValues { (forward: $0.forward * perStep, backward: $0.backward * perStep) }
            parts["optimizer"] = (forward: optimizerTotal * perStep, backward: 0)
            oursParts.append(parts)
            stepMilliseconds.append(stepTotal * perStep)
            if let torch {
                progress("layers, run \(r + 1)/\(runs): PyTorch channels-last under its profiler")
                let t = try torch.layerTimes(threads: Parallel.threadCount, batch: batchSize, steps: steps)
                try Self.check(t, layers: Set(order))
                theirs.append(t.layers)
                torchVersion = t.torchVersion
                torchUnattributed.append(t.unattributedBackwardMilliseconds)
                theirParts.append(t.parts)
                torchStepMilliseconds.append(t.stepMilliseconds)
            }
        }
        let partOrder = ["backbone", "fpn", "heads", "loss", "optimizer"]
        return LayerRuns(layers: LayerTime.medians(ours: ours, torch: theirs, order: order),
                         parts: LayerTime.medians(ours: oursParts, torch: theirParts, order: partOrder),
                         step: median(stepMilliseconds), torchStep: medianOrNil(torchStepMilliseconds),
                         torchUnattributed: medianOrNil(torchUnattributed), torchVersion: torchVersion)
    }

    /// What `layerRuns` measured, medians over its runs.
    struct LayerRuns {
        var layers, parts: [LayerTime]
        var step: Double
        var torchStep, torchUnattributed: Double?
        var torchVersion: String?
    }

    /// Refuses a PyTorch profile whose layers are not ours, or that could not tie its backward ops to layers.
    static func check(_ t: TorchLayerTimes, layers ours: Set<String>) throws {
        let theirs = Set(t.layers.keys)
        guard theirs == ours else {
            throw BenchmarkError("the PyTorch reference's layers are not ours: only ours \(ours.subtracting(theirs).sorted()), "
                                 + "only PyTorch's \(theirs.subtracting(ours).sorted())")
        }
        let backward = t.parts.values.reduce(0) { $0 + $1.backward }
        guard t.unattributedBackwardMilliseconds <= 0.1 * (backward + t.unattributedBackwardMilliseconds) else {
            throw BenchmarkError(String(format: "PyTorch's profile tied only %.0f%% of its backward time to a layer or part "
                                        + "(torch %@ may not record autograd sequence numbers)",
                                        100 * backward / (backward + t.unattributedBackwardMilliseconds), t.torchVersion))
        }
    }
}
