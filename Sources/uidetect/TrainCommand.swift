import ArgumentParser
import Detection
import Diagnostics
import Distributed
import Engine
import Foundation
import Logging
import Training

struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Train the detector from a run config into a run folder.",
        discussion: """
        The config (YAML) is laid over the defaults; unknown keys, wrong types and impossible values are errors naming the key.
        --set key=value (dotted keys, YAML values) overrides it, e.g. --set optimizer.learning_rate=0.01 --set steps=2000.
        The run folder (Experiments/NAME by default) gets config.yaml (the resolved config; rewritten only when a resume
        extends the run), train.log, metrics.csv, report.html (training curves above the latest validation),
        checkpoints/last and checkpoints/best (by validation mAP50), validation/ (the latest evaluation, and each one in
        validation/step-N/) and tensorboard/ (event files: tensorboard --logdir Experiments).
        Ctrl-C finishes the current step, writes checkpoints/last and exits; --resume goes on from there and ends with
        the same weights as an uninterrupted run (on the same machine). A finished or early-stopped run is extended
        with --resume --set steps=N (N larger).

        Config keys (defaults), as a config file or --set names them (section.key):
        """ + "\n" + ConfigLoader.keyListing())

    @Option(help: "The run config (YAML). Optional with --resume (the run keeps its own).") var config: String?
    @Option(help: "Run name: the folder under --runs (default: the config's name).") var name: String?
    @Option(help: "Folder holding run folders.") var runs = "Experiments"
    @Option(name: .customLong("set"), help: "Override a config key: key=value (repeatable).") var overrides: [String] = []
    @Flag(help: "Continue the run from its checkpoints/last.") var resume = false

    func validate() throws {
        if let name, let problem = RunConfig.nameProblem(name) { throw ValidationError("--name: \(problem)") }
        if config == nil && !resume { throw ValidationError("--config is needed (or --resume with --name)") }
        if config == nil && name == nil { throw ValidationError("--resume without --config needs --name") }
    }

    func run() throws {
        try reportingErrors {
            // The config is read once: the file's (with --set), or with --resume the run's own.
            let launch = try RunLaunch(configFile: config.map { URL(fileURLWithPath: $0) }, overrides: overrides, name: name,
                                       runs: URL(fileURLWithPath: runs), resume: resume)
            // Under mpirun this process is one rank of a data-parallel run; otherwise there is no MPI at all.
            let group = try ProcessGroup.join(timeout: launch.config.distributed.timeoutSeconds)
            defer { group?.finish() }
            let primary = (group?.rank ?? 0) == 0
            let progress = ProgressLine(enabled: primary)
            let logger = primary ? Logger.run(RunFolder(launch.folder), echo: { line in
                progress.finish()
                print(line)
                fflush(nil)  // all output streams: the log line must show before a long step
            }) : Logger.rank(group!.rank)
            let trainer = try Trainer(launch, logger: logger, group: group)
            // mpirun hands Ctrl-C to the ranks as SIGTERM: both finish the step and write checkpoints/last.
            let stop = InterruptFlag(signals: group == nil ? [SIGINT] : [SIGINT, SIGTERM])
            let outcome = try trainer.run(shouldStop: { stop.isSet }) { r in
                progress.update(String(format: "step %d/%d  loss %.4f (class %.4f, box %.4f)  lr %.5f  %.1f images/s", r.step, r.steps,
                                       r.loss, r.classificationLoss, r.boxLoss, r.learningRate, r.imagesPerSecond),
                                secondsLeft: r.secondsLeft)
            }
            progress.finish()
            if primary { print("run folder: \(outcome.folder.path)") }
            if outcome.interrupted {
                if primary { print("continue with: uidetect train --name \(launch.folder.lastPathComponent) --runs \(runs) --resume") }
                throw ExitCode(130)
            }
        }
    }
}

/// Ctrl-C asks the training loop to stop after its current step; a second Ctrl-C quits at once.
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    private var sources: [DispatchSourceSignal] = []

    init(signals: [Int32] = [SIGINT]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [unowned self] in
                lock.lock()
                let second = set
                set = true
                lock.unlock()
                if second { _exit(130) }
                FileHandle.standardError.write(Data("\ninterrupt: finishing the current step and writing checkpoints/last (Ctrl-C again quits at once)\n".utf8))
            }
            source.resume()
            sources.append(source)
        }
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return set
    }
}

struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Parameter count, anchors per image and a per-module breakdown of a config's detector.")

    @Option(help: "A run config (YAML); default: the built-in defaults (the spec's bench size).") var config: String?
    @Option(name: .customLong("set"), help: "Override a config key: key=value (repeatable).") var overrides: [String] = []
    @Flag(help: "Print one JSON object.") var json = false

    func run() throws {
        try reportingErrors {
            let c = try ConfigLoader.load(config.map { URL(fileURLWithPath: $0) }, overrides: overrides).model
            var g = SeededGenerator(seed: 0)
            let model = SSDModel(config: c, generator: &g)
            let anchors = AnchorGenerator(config: c).anchors().count
            let modules = model.children.map { (name: $0.0, parameters: $0.1.parameterCount) }
            let blocks = model.backbone.children.map { (name: $0.0, parameters: $0.1.parameterCount) }
            let macs = model.convolutions(batch: 1).reduce(0) { $0 + $1.macs }
            if json {
                var modulesObject: [String: Int] = [:]
                for m in modules { modulesObject[m.name] = m.parameters }
                var blocksObject: [String: Int] = [:]
                for b in blocks { blocksObject[b.name] = b.parameters }
                try printJSON(ModelSummary(parameters: model.parameterCount, anchorsPerImage: anchors, modules: modulesObject, backboneBlocks: blocksObject,
                                           runningStatistics: model.namedBuffers().reduce(0) { $0 + $1.tensor.count },
                                           forwardGMACPerImage: Double(macs) / 1e9, inputWidth: c.inputWidth, inputHeight: c.inputHeight,
                                           numClasses: c.numClasses))
                return
            }
            print("SSD MobileNetV1 + FPN: \(c.inputWidth)x\(c.inputHeight), alpha \(c.alpha), FPN \(c.fpnDepth), \(c.headLayers) head layers, "
                  + "levels \(c.minLevel)-\(c.maxLevel), \(c.numClasses) classes")
            func row(_ name: String, _ n: Int) -> String { name.padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "%12d", n) }
            for m in modules {
                print(row(m.name, m.parameters))
                if m.name == "backbone" { for b in blocks { print(row("  " + b.name, b.parameters)) } }
            }
            print(row("trainable parameters", model.parameterCount))
            print(row("running statistics", model.namedBuffers().reduce(0) { $0 + $1.tensor.count }))
            print(row("anchors per image", anchors))
            print(String(format: "forward cost: %.3f GMAC per image", Double(macs) / 1e9))
        }
    }
}

/// What `uidetect model --json` prints.
struct ModelSummary: Encodable {
    var parameters: Int
    var anchorsPerImage: Int
    var modules: [String: Int]
    var backboneBlocks: [String: Int]
    var runningStatistics: Int
    var forwardGMACPerImage: Double
    var inputWidth: Int
    var inputHeight: Int
    var numClasses: Int

    enum CodingKeys: String, CodingKey {
        case parameters, modules
        case anchorsPerImage = "anchors_per_image", backboneBlocks = "backbone_blocks", runningStatistics = "running_statistics"
        case forwardGMACPerImage = "forward_gmac_per_image", inputWidth = "input_width", inputHeight = "input_height", numClasses = "num_classes"
    }
}
