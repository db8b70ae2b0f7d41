import ArgumentParser
import Foundation
import IconRecognition
import IconVocabulary
import Images
import Logging
import Training

struct TrainIconClassifier: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-icon-classifier",
        abstract: "Train the icon classifier (icon-recognition.md) on crops rendered from the glyphs of Debian's icon packages.",
        discussion: """
        The config (YAML) is laid over the defaults, as train's are; --set key=value overrides a key. The run folder
        (Experiments/NAME by default) gets config.yaml, train.log, metrics.csv, checkpoints/last and checkpoints/best (by
        validation top-1 accuracy) and, at the end, icon-classifier.safetensors (its threshold picked on the validation
        crops to keep the target label precision) and report.html (curves, figures, accuracy per type, the confusion matrix
        and the crops most often confused). Ctrl-C writes checkpoints/last; --resume goes on from there.
        """)

    @Option(help: "The icon-classifier config (YAML). Optional with --resume.") var config: String?
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
            // --resume --set without --config lays the overrides over the run's own config.yaml.
            let source = config.map { URL(fileURLWithPath: $0) }
                ?? (overrides.isEmpty ? nil : RunFolder(URL(fileURLWithPath: runs).appendingPathComponent(name ?? "")).configFile)
            let given = try source.map { try IconConfigLoader.load($0, overrides: overrides) }
            let folder = URL(fileURLWithPath: runs).appendingPathComponent(name ?? given?.name ?? "icon-classifier")
            let progress = ProgressLine()
            let logger = Logger.run(RunFolder(folder), echo: { line in
                progress.finish()
                print(line)
                fflush(nil)
            })
            let trainer = try IconClassifierTrainer(config: given, folder: folder, resume: resume, logger: logger)
            let stop = InterruptFlag()
            let outcome = try trainer.run(shouldStop: { stop.isSet }) { r in
                progress.update(String(format: "step %d/%d  loss %.4f  lr %.5f  %.0f icons/s", r.step, r.steps, r.loss, r.learningRate, r.imagesPerSecond),
                                secondsLeft: r.secondsLeft)
            }
            progress.finish()
            print("run folder: \(folder.path)")
            if outcome.interrupted {
                print("continue with: uidetect train-icon-classifier --name \(folder.lastPathComponent) --runs \(runs) --resume")
                throw ExitCode(130)
            }
            if let url = outcome.classifier { print("classifier: \(url.path); report: \(RunFolder(folder).reportFile.path)") }
        }
    }
}

struct ClassifyIcons: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify-icons",
        abstract: "Name the icons of PNG or JPEG crops with a trained icon classifier (icon-recognition.md).",
        discussion: """
        MODEL is an icon-classifier.safetensors, its run folder, or a detector's run folder with one beside it. Each IMAGE
        is one icon cut from a screenshot with its box and a margin of up to half the box's longer side, any size and
        colours. --json prints one JSON array, an object per image in the order given: path, icon_type and label (null below
        the threshold or when `other` wins), score (the top probability) and top (the five most probable types). A file
        that cannot be read is an object with path and error, and the command exits 1 after the others.
        """)

    @Option(help: "The classifier: its file, its run folder, or a detector run folder with one beside it.") var model: String
    @Flag(help: "Print one JSON array (the spec's format).") var json = false
    @Argument(help: "Icon crops (PNG or JPEG).") var images: [String]
    @OptionGroup var threads: ThreadOptions

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("give at least one icon image") }
    }

    func run() throws {
        try reportingErrors {
            let classifier = try IconClassifier(contentsOf: try ModelFiles.iconClassifier(model))
            let results = threads.scope { IconCrops.classify(images, with: classifier) }
            if json {
                print(IconCrops.json(results))
            } else {
                for r in results {
                    switch r.outcome {
                    case .failure(let error): print("\(r.path): error: \(error)")
                    case .success(let p):
                        let said = p.type.map { "\($0.name) (\"\($0.label ?? "")\")" } ?? "no label"
                        let top = p.top.prefix(3).map { "\($0.type.name) \(String(format: "%.2f", $0.probability))" }.joined(separator: ", ")
                        print("\(r.path): \(said), score \(String(format: "%.3f", p.score)); top: \(top)")
                    }
                }
            }
            if results.contains(where: { if case .failure = $0.outcome { return true } else { return false } }) { throw ExitCode(1) }
        }
    }
}

struct EvaluateIcons: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-icons",
        abstract: "Score an icon classifier on labelled crops: top-1 accuracy, label precision and coverage (icon-recognition.md).",
        discussion: """
        Each crop's true type is the last '-' part of its file name (0042-back.png is a back icon; 'other' for an icon none
        of the types names). Folders are read for their PNG and JPEG files. Prints the figures, the accuracy per type and
        the most frequent confusions; --json prints them as one object.
        """)

    @Option(help: "The classifier: its file, its run folder, or a detector run folder with one beside it.") var model: String
    @Flag(help: "Print one JSON object.") var json = false
    @Argument(help: "Labelled crops, or folders of them.") var inputs: [String]
    @OptionGroup var threads: ThreadOptions

    func run() throws {
        try reportingErrors {
            let classifier = try IconClassifier(contentsOf: try ModelFiles.iconClassifier(model))
            let scored = try threads.scope { try IconCrops.evaluate(inputs, with: classifier) }
            if json { return print(IconCrops.json(scored.evaluation, skipped: scored.skipped)) }
            let e = scored.evaluation
            func pct(_ v: Double?) -> String { v.map { String(format: "%.1f%%", 100 * $0) } ?? "-" }
            print("\(e.crops) crops (\(e.vocabularyCrops) of the 52 types, \(e.crops - e.vocabularyCrops) other); threshold \(String(format: "%.3f", e.threshold))")
            print("top-1 accuracy \(pct(e.top1Accuracy)); label precision \(pct(e.labelPrecision)) (\(e.labelsRight) of \(e.labelsGiven) labels); coverage \(pct(e.coverage))")
            for row in e.perType where row.crops > 0 {
                print(row.type.name.padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: "%5d crops  %6.1f%%", row.crops, 100 * Double(row.correct) / Double(row.crops)))
            }
            let worst = e.worstConfusions(10).map { "\($0.truth.name) as \($0.named.name) \($0.times)x" }
            if !worst.isEmpty { print("most confused: " + worst.joined(separator: ", ")) }
            for s in scored.skipped { print("skipped \(s)") }
        }
    }
}
