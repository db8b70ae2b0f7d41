import ArgumentParser
import Training
import Detection
import Engine
import Diagnostics
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure speed on this machine.",
        subcommands: [BenchEngine.self, BenchData.self, BenchEvaluate.self, BenchTrain.self, BenchPredict.self, BenchONNX.self, BenchIcons.self])
}

struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Time every conv shape, depthwise conv and batch norm of a network against raw sgemm and memcpy.")

    @OptionGroup var threads: ThreadOptions

    @Option(help: "A run config (YAML) whose network's shapes are timed, e.g. Configs/quickstart.yaml; default: the spec's bench network.")
    var config: String?

    @Option(help: "Time only the convs whose name contains this text (e.g. depthwise, b7., P3); batch norm is timed for the dense convs among them.")
    var only: String?

    @Option(help: "Timed runs per measurement; the median is reported.")
    var repeats: Int = 5

    @Option(help: "Batch size of the network's shapes (the spec's bench network uses 8).")
    var batch: Int = 8

    @Option(help: "Side of the square sgemm that serves as the reference.")
    var sgemmSize: Int = 2048

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1, got \(repeats)") }
        guard batch >= 1 else { throw ValidationError("--batch must be at least 1, got \(batch)") }
        guard sgemmSize >= 16 else { throw ValidationError("--sgemm-size must be at least 16, got \(sgemmSize)") }
    }

    func run() throws { try threads.scope(body) }

    private func body() throws {
        var g = SeededGenerator(seed: 0)
        let (name, run) = try benchConfig(config)
        var convolutions = SSDModel(config: run.model, generator: &g).convolutions(batch: batch)
        if let only {
            convolutions = convolutions.filter { $0.name.contains(only) }
            guard !convolutions.isEmpty else { throw ValidationError("--only \(only): no conv of network \(name) has that in its name") }
        }
        let progress = ProgressLine(enabled: !json)
        let report = EngineBenchmark(convolutions: convolutions, network: name, repeats: repeats, sgemmSize: sgemmSize)
            .run { progress.update("measuring \($0)", fractionDone: $1) }
        progress.finish()
        if json {
            try printJSON(report)
            return
        }
        print(BenchTables.render(report))
    }
}

/// Plain-text tables for a person.
enum BenchTables {
    static func render(_ r: EngineBenchmarkReport) -> String {
        var lines: [String] = []
        lines.append("machine: \(r.machine.description)")
        lines.append("\(r.network) network (batch \(r.batch), \(r.width)x\(r.height)), \(r.threads) thread\(r.threads == 1 ? "" : "s"), median of \(r.repeats) runs")
        lines.append(String(format: "reference: cblas_sgemm %@, median %.1f GFLOP/s over row blocks on the engine's workers, one timed beside each conv (ratios use that one)", r.sgemmShape, r.sgemmGFLOPS))
        lines.append(String(format: "           the same on OpenBLAS's own threads: %.1f GFLOP/s", r.openBLASThreadedGFLOPS))
        lines.append("")
        lines.append(row(["conv", "shape (NHWC -> Cout)", "fwd ms", "fwd GF/s", "f+b ms", "f+b GF/s", "f+b/sgemm"], [20, 38, 8, 9, 8, 9, 9]))
        for c in r.convolutions {
            lines.append(row([c.name, c.shape, f(c.forwardMilliseconds), f(c.forwardGFLOPS), f(c.forwardBackwardMilliseconds),
                              f(c.forwardBackwardGFLOPS), String(format: "%.0f%%", 100 * c.ratioToSGEMM)], [20, 38, 8, 9, 8, 9, 9]))
        }
        lines.append(String(format: "smallest forward+backward ratio over 3x3 and 1x1 convs: %.0f%%", 100 * r.convMinRatio))
        lines.append("")
        lines.append("Winograd F(2x2, 3x3) and F(4x4, 3x3) against im2col + GEMM, alternated in each run: im2col ms / Winograd ms per pass")
        lines.append(row(["", "", "F(2x2)", "", "", "F(4x4)", "", "", ""], [20, 38, 6, 6, 6, 6, 6, 6, 30]))
        lines.append(row(["conv", "shape (NHWC -> Cout)", "fwd", "dX", "dW", "fwd", "dX", "dW", "automatic"], [20, 38, 6, 6, 6, 6, 6, 6, 30]))
        for w in r.winograd {
            let picked = w.automatic.isEmpty ? "im2col" : "\(w.automaticTile ?? ""): " + w.automatic.joined(separator: ", ")
            lines.append(row([w.name, w.shape, f(w.speedup.forward), f(w.speedup.backwardData), f(w.speedup.backwardWeight),
                              f(w.speedup4x4.forward), f(w.speedup4x4.backwardData), f(w.speedup4x4.backwardWeight),
                              picked], [20, 38, 6, 6, 6, 6, 6, 6, 30]))
        }
        for (title, rows) in [("depthwise conv", r.depthwise), ("batch norm (training)", r.batchNorm)] {
            lines.append("")
            let norms = rows.first?.gatherMilliseconds != nil
            let widths = [22, 38, 9, 9, 12, 11, 11] + (norms ? [10, 10, 10] : [])
            lines.append(row([title, "shape", "fwd GB/s", "bwd GB/s", "memcpy GB/s", "fwd/memcpy", "bwd/memcpy"]
                             + (norms ? ["gather ms", "own fwd", "own bwd"] : []), widths))
            for b in rows {
                let extra = norms ? [f(b.gatherMilliseconds ?? 0), String(format: "%.0f%%", 100 * (b.ownPassForwardRatio ?? 0)),
                                     String(format: "%.0f%%", 100 * (b.ownPassBackwardRatio ?? 0))] : []
                lines.append(row([b.name, b.shape, f(b.forwardGBps), f(b.backwardGBps), f(b.memcpyGBps),
                                  String(format: "%.0f%%", 100 * b.forwardRatio), String(format: "%.0f%%", 100 * b.backwardRatio)] + extra,
                                 widths))
            }
            if norms {
                lines.append("batch norm fused with its neighbours, as training runs it: forward, its pass on the statistics the conv before")
                lines.append("it gathered plus what gathering added to that conv (gather ms); backward, its pass on the sums the conv after")
                lines.append("it gathered plus what gathering added to that one; \"own\": against memcpy with its sums found in its own passes")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Milliseconds or rates with two decimals below 10, one above.
    static func f(_ v: Double) -> String { String(format: v < 10 ? "%.2f" : "%.1f", v) }

    /// One table row: the first `textColumns` cells left-aligned, the rest (numbers) right-aligned.
    static func row(_ cells: [String], _ widths: [Int], textColumns: Int = 2) -> String {
        zip(cells, widths).enumerated().map { i, cw in
            i < textColumns ? cw.0.padding(toLength: cw.1, withPad: " ", startingAt: 0)
                  : String(repeating: " ", count: max(0, cw.1 - cw.0.count)) + cw.0
        }.joined(separator: " ")
    }
}

struct BenchData: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Screens per second the input pipeline delivers with all augmentations on, against reading alone.",
        discussion: "Without --data, synthesizes 400 default screens into a temporary folder first.")

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Shards, folders or globs to read (default: fresh synthetic screens).")
    var data: [String] = []
    @Option(help: "Worker threads preparing screens (1 = one core).") var workers: Int = 1
    @Option(help: "Screens per batch.") var batchSize: Int = 8
    @Option(help: "Batches timed per run.") var batches: Int = 30
    @Option(help: "Runs; the median is reported.") var runs: Int = 3
    @Flag(help: "Print one JSON object.") var json = false

    func validate() throws {
        for (name, v) in [("--workers", workers), ("--batch-size", batchSize), ("--batches", batches), ("--runs", runs)] where v < 1 {
            throw ValidationError("\(name) must be at least 1, got \(v)")
        }
    }

    func run() throws {
        try reportingErrors {
            let progress = ProgressLine(enabled: !json)
            let report = try DataBenchmark(shards: data.isEmpty ? nil : data, workers: workers, batchSize: batchSize, batches: batches, runs: runs)
                .run { progress.update($0) }
            progress.finish()
            if json {
                try printJSON(report)
            } else {
                print("machine: \(report.machine.description)")
                print(String(format: "input pipeline, %d worker(s), batches of %d, %d screens of %@, median of %d runs",
                             report.workers, report.batchSize, report.screens, report.size, report.runs))
                print(String(format: "  all augmentations:  %.0f screens/s", report.augmentedScreensPerSecond))
                print(String(format: "  reading only:       %.0f screens/s (reference, same run)", report.readOnlyScreensPerSecond))
                print(String(format: "  all augmentations, screens kept in memory (data.cache_mb, later epochs): %.0f screens/s",
                             report.fromMemoryScreensPerSecond))
            }
        }
    }
}

struct BenchEvaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "The evaluator on a test set the size of the paper's, against pycocotools' evaluate + accumulate on the same data.",
        discussion: "pycocotools runs if python3 can import it (pip install numpy pycocotools).")

    @Option(help: "Screens in the generated test set.") var images: Int = 5002
    @Option(help: "Runs; the median is reported.") var runs: Int = 3
    @Flag(inversion: .prefixedNo, help: "Also time the whole `uidetect evaluate` command against a whole pycocotools script.") var wholeCommand = true
    @Flag(help: "Print one JSON object.") var json = false

    func run() throws {
        try reportingErrors {
            let progress = ProgressLine(enabled: !json)
            let r = try EvaluationBenchmark(images: images, runs: runs, executable: wholeCommand ? Bundle.main.executableURL : nil).run { progress.update($0) }
            progress.finish()
            if json {
                try printJSON(r)
                return
            }
            print("machine: \(r.machine.description)")
            print("\(r.images) screens, \(r.groundTruthBoxes) boxes, \(r.detections) detections; median of \(r.runs) runs")
            print("core (read the detections file, evaluate):")
            print(String(format: "  ours (parse + AP50, AP-center, AP50-95, AP by size; 13 classes): %.3f s (parse %.3f s)", r.oursSeconds, r.parseSeconds))
            if let py = r.pycocotoolsSeconds, let speedup = r.speedup {
                print(String(format: "  pycocotools loadRes + evaluate + accumulate (IoU 0.5): %.3f s (evaluate + accumulate %.3f s)", py, r.pycocotoolsEvaluateSeconds ?? .nan))
                print(String(format: "  ours is %.1fx faster; largest AP difference (coco101) %.1e", speedup, r.maxAPDifference ?? .nan))
            } else {
                print("  pycocotools: not available (python3 -m pip install numpy pycocotools)")
            }
            if let command = r.commandSeconds {
                print("whole command (process start to exit):")
                print(String(format: "  uidetect evaluate (every file and the report):   %.3f s", command))
                if let script = r.pycocotoolsScriptSeconds, let speedup = r.commandSpeedup {
                    print(String(format: "  pycocotools script (COCO(), loadRes, evaluate, accumulate, summarize): %.3f s; ours is %.1fx faster", script, speedup))
                }
            }
        }
    }
}

struct BenchTrain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Training images/s of the detector on synthetic screens: the step alone (forward, loss, backward, SGD on a batch matched once) and the whole loop (pipeline, matching, step), with the time of each part.")

    @Option(help: "A run config (YAML) whose model is measured, e.g. Configs/bench.yaml; default: the spec's bench size.") var config: String?
    @Option(help: "Screens per batch (default: the config's batch_size; the spec's bench uses 8).") var batchSize: Int?
    @Option(help: "Timed steps per run.") var steps: Int = 5
    @Option(help: "Runs; the median is reported.") var runs: Int = 3
    @Option(help: "The PyTorch reference's folder (../shared/anchors/torch_ssd): its bench.py runs after each of our runs, channels-last and NCHW.")
    var torchAnchor: String?
    @Flag(help: "Also time each layer's forward and backward in the step alone, in runs of their own; with --torch-anchor, against PyTorch's profiler on the same network.")
    var layers = false
    @OptionGroup var threads: ThreadOptions
    @Flag(help: "Print one JSON object.") var json = false

    func run() throws { try threads.scope(body) }

    private func body() throws {
        try reportingErrors {
            let (name, run) = try benchConfig(config)
            // The reference builds our network whatever its name: bench.py's named sizes are only the base.
            let base = TorchAnchor.configs.contains(name) ? name : "bench"
            let torch = try torchAnchor.map { try TorchAnchor(folder: URL(fileURLWithPath: $0), config: base).matching(run.model) }
            let progress = ProgressLine(enabled: !json)
            let batch = batchSize ?? run.batchSize
            let r = try TrainingBenchmark(config: run.model, name: name, batchSize: batch, steps: steps, runs: runs, torch: torch, timesLayers: layers)
                .run { progress.update($0) }
            progress.finish()
            if json {
                try printJSON(r)
                return
            }
            print("machine: \(r.machine.description)")
            print("\(r.config) network, \(r.parameters) parameters, batch \(r.batchSize), \(r.threads) thread\(r.threads == 1 ? "" : "s"), median of \(r.runs) runs of \(steps) steps")
            if let advice = BLASKernels.advice() { print("  note: \(advice)") }
            print(String(format: "  step alone (as bench.py times it):  %.1f images/s (%.0f ms a step)", r.imagesPerSecond, 1000 * r.stepSeconds))
            if let cl = r.torchChannelsLastImagesPerSecond, let nchw = r.torchImagesPerSecond, let ratio = r.ratioToTorchChannelsLast {
                print(String(format: "  PyTorch bench.py, same runs:        %.1f images/s channels-last, %.1f NCHW; ours / channels-last = %.2f", cl, nchw, ratio))
            }
            print(String(format: "  whole loop (as train runs it):      %.1f images/s (%.0f ms a step; %.0f%% of the step alone's rate, median of runs that alternate the two step by step: %@); its parts:",
                         r.loopImagesPerSecond, 1000 * r.loopStepSeconds, 100 * r.loopToStep,
                         r.loopToStepRuns.map { String(format: "%.0f%%", 100 * $0) }.joined(separator: ", ")))
            var shown = 0.0
            for part in TrainingBenchmarkReport.parts {
                let v = r.partSeconds[part] ?? 0
                shown += v
                print("    " + part.padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: " %6.0f ms  %4.1f%%", 1000 * v, 100 * v / r.loopStepSeconds))
            }
            let other = r.loopStepSeconds - shown
            print("    " + "other".padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: " %6.0f ms  %4.1f%%", 1000 * other, 100 * other / r.loopStepSeconds))
            print(String(format: "  %.2f GFLOP forward per image; %.0f GFLOP/s trained (3x forward); peak memory %.2f GiB",
                         r.forwardGFLOPPerImage, r.trainedGFLOPPerSecond, r.peakResidentGiB))
            if let layers = r.layers, let kinds = r.layerKinds, let parts = r.layerParts, let step = r.layerStepMilliseconds {
                print(LayerTable.render(layers: layers, kinds: kinds, parts: parts, step: step, torchStep: r.torchLayerStepMilliseconds, runs: r.runs))
                if let version = r.torchVersion, let lost = r.torchUnattributedBackwardMilliseconds {
                    print(String(format: "PyTorch %@; its backward ops tied to no part (the parameters' gradient sums): %.1f ms a step", version, lost))
                }
            }
        }
    }
}

/// `bench train --layers` as a person reads it: kinds, parts, then every layer.
enum LayerTable {
    static func render(layers: [LayerTime], kinds: [LayerTime], parts: [LayerTime], step: Double, torchStep: Double?, runs: Int) -> String {
        let torch = torchStep != nil
        var lines = [""]
        lines.append("Each layer's time in the step alone, ms per step, medians of \(runs) runs of their own (a layer: its conv with its batch norm and")
        lines.append("activation; batch norm's sums may be gathered by a neighbouring layer's pass on our side)"
                     + (torch ? "; PyTorch channels-last under torch.profiler, its backward ops attributed to layers by autograd sequence number:" : ":"))
        let header = ["", "ours fwd", "bwd", "total"] + (torch ? ["PyTorch fwd", "bwd", "total", "PyTorch / ours"] : [])
        let widths = [34, 9, 8, 8] + (torch ? [12, 8, 8, 15] : [])
        func cells(_ l: LayerTime) -> [String] {
            var c = [l.name, f(l.oursForwardMilliseconds), f(l.oursBackwardMilliseconds), f(l.oursForwardMilliseconds + l.oursBackwardMilliseconds)]
            if torch {
                if let tf = l.torchForwardMilliseconds, let tb = l.torchBackwardMilliseconds, let s = l.speedup {
                    c += [f(tf), f(tb), f(tf + tb), String(format: "%.2f", s)]
                } else {
                    c += ["-", "-", "-", "-"]
                }
            }
            return c
        }
        for (title, rows) in [("by kind", kinds), ("by part", parts), ("by layer", layers)] {
            lines.append(row([title] + header.dropFirst(), widths))
            for l in rows { lines.append(row(cells(l), widths)) }
            if title == "by part" {
                let whole = ["whole step", "", "", f(step)] + (torch ? ["", "", torchStep.map(f) ?? "-", torchStep.map { String(format: "%.2f", $0 / step) } ?? "-"] : [])
                lines.append(row(whole, widths))
            }
            lines.append("")
        }
        return lines.dropLast().joined(separator: "\n")
    }

    private static func f(_ v: Double) -> String { BenchTables.f(v) }
    private static func row(_ cells: [String], _ widths: [Int]) -> String { BenchTables.row(cells, widths, textColumns: 1) }
}

struct BenchPredict: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Single-screen latency (load excluded) of the bench and paper-size networks with 1 and 2 threads.")

    @Option(help: "Timed predictions per case; the median is reported.") var repeats: Int = 7
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try reportingErrors {
            let progress = ProgressLine(enabled: !json)
            let results = try PredictionBenchmark(repeats: repeats).run { progress.update("measuring \($0)") }
            progress.finish()
            if json {
                try printJSON(results)
                return
            }
            print("machine: \((results.first?.machine ?? .current()).description)")
            print("single-screen latency, median of \(repeats) (a 390x844 screenshot: letterbox, forward, post-processing, deployment filter)")
            print("network      threads   total ms   forward ms   candidates")
            for r in results {
                print(r.network.padding(toLength: 12, withPad: " ", startingAt: 0)
                      + String(format: " %7d %10.1f %12.1f %12d", r.threads, r.totalMilliseconds, r.forwardMilliseconds, r.candidates))
            }
        }
    }
}

struct BenchIcons: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "icons",
        abstract: "Time to name one screen's icons: crops of synthetic icon boxes classified in one batch, with 1 and 2 threads.",
        discussion: "The network has the default training config's shape and random weights (the time does not depend on them).")

    @Option(help: "Icons per screen.") var icons: Int = 40
    @Option(help: "Timed batches per case; the median is reported.") var repeats: Int = 11
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard icons >= 1 else { throw ValidationError("--icons must be at least 1, got \(icons)") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1, got \(repeats)") }
    }

    func run() throws {
        try reportingErrors {
            let progress = ProgressLine(enabled: !json)
            let r = try IconBenchmark(network: IconModelConfig().network, icons: icons, repeats: repeats).run { progress.update("measuring \($0)") }
            progress.finish()
            if json { return try printJSON(r) }
            print("\(r.machine.description); icon classifier \(r.network.inputSide)x\(r.network.inputSide), width \(r.network.width); median of \(r.repeats)")
            print("threads   icons   batch ms   per icon ms")
            for r in r.results {
                print(String(format: "%7d %7d %10.2f %13.3f", r.threads, r.icons, r.batchMilliseconds, r.perIconMilliseconds))
            }
        }
    }
}

struct BenchONNX: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onnx",
        abstract: "Our forward pass against onnxruntime on our ONNX export of the same network (one image, same threads, interleaved pairs of runs).",
        discussion: "Needs python3 with numpy and onnxruntime (pip install numpy onnxruntime); without them only our time is printed.")

    @Option(help: "A run config (YAML) whose model is measured; default: the spec's bench size.") var config: String?
    @Option(help: "Timed forward passes on each side; the median is reported.") var runs: Int = 11
    @Option(help: "Times ours and onnxruntime are timed one after the other; the median of the pairs' ratios is reported.") var pairs: Int = 5

    func validate() throws {
        guard pairs >= 1 else { throw ValidationError("--pairs must be at least 1, got \(pairs)") }
    }
    @Flag(help: "Also time each of our layers, and profile onnxruntime per node (its enable_profiling): where each side's time goes.") var profile = false
    @OptionGroup var threads: ThreadOptions
    @Flag(help: "Print one JSON object.") var json = false

    func run() throws { try threads.scope(body) }

    private func body() throws {
        try reportingErrors {
            let (name, run) = try benchConfig(config)
            var bench = ONNXBenchmark(name: name, config: run.model, runs: runs, pairs: pairs)
            bench.profile = profile
            let r = try bench.run()
            if json { return try printJSON(r) }
            print("machine: \(r.machine.description)")
            print("\(r.network) network, one image, \(r.threads) thread\(r.threads == 1 ? "" : "s"), \(r.pairs) pair\(r.pairs == 1 ? "" : "s") of medians of \(r.runs) passes")
            if let advice = BLASKernels.advice() { print("  note: \(advice)") }
            print(String(format: "  ours          %8.1f ms", r.oursMilliseconds))
            if let t = r.onnxruntimeMilliseconds, let ratio = r.ratio, let ours = r.oursOverONNXRuntime {
                print(String(format: "  onnxruntime   %8.1f ms   (outputs agree to %.1e)", t, r.maxOutputDifference ?? .nan))
                let each = (r.pairRatios ?? []).map { String(format: "%.2f", 1 / $0) }.joined(separator: ", ")
                print(String(format: "  ours / onnxruntime = %.2fx (onnxruntime / ours = %.2f), median of the pairs: %@", ours, ratio, each))
            } else {
                print("  onnxruntime: not measured (python3 with numpy and onnxruntime not found)")
            }
            if let layers = r.oursByLayer {
                print("our layers, median ms per run, in the order they run (sum \(String(format: "%.2f", layers.reduce(0) { $0 + $1.milliseconds })) ms):")
                for n in layers {
                    print("  " + n.name.padding(toLength: 30, withPad: " ", startingAt: 0) + n.opType.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: " %7.3f", n.milliseconds))
                }
            }
            if let ops = r.onnxruntimeByOpType {
                print("onnxruntime's profile, ms per run by op type (its kernels only):")
                for (op, ms) in ops.sorted(by: { $0.value > $1.value }) { print("  " + op.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: " %7.2f", ms)) }
                print("its slowest nodes:")
                for n in r.onnxruntimeSlowestNodes ?? [] {
                    print("  " + n.name.padding(toLength: 44, withPad: " ", startingAt: 0) + n.opType.padding(toLength: 10, withPad: " ", startingAt: 0) + String(format: " %7.2f", n.milliseconds))
                }
            }
        }
    }
}

/// A benchmark's `--config`: its file name (without extension) and contents; the defaults (the spec's bench size) without one.
func benchConfig(_ path: String?) throws -> (name: String, config: RunConfig) {
    let config = try ConfigLoader.load(path.map { URL(fileURLWithPath: $0) })
    return (path.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } ?? "bench", config)
}
