import ArgumentParser
import DetectorRuns
import Foundation
import IconRecognition
import Interchange
import Outputs
import Reports
import ScreenDescription
import ScreenRecognition
import Shards
import Training
import VocabularyMaps

struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe screens for a screen reader: elements, labels, state, groups and navigation order (screen-description.md).",
        discussion: """
        Screenshots (PNG or JPEG, any size, files or folders) or screen shards (--data), a detector checkpoint and optional
        per-class thresholds go through the deployment filter, OCR (Tesseract; without it labels stay empty) and the
        description heuristics. Writes OUT/description.json (one JSON array of screen objects), OUT/<image_id>.html per
        screen (the screenshot with each top-level element outlined and numbered in navigation order, and the list a screen
        reader would speak) and OUT/index.html. --config is a YAML file (run configs' conventions) switching each step on or
        off and setting its numbers; the defaults are the paper's, with our additions on (`uidetect describe --print-config`
        shows every key). A file that cannot be read is reported and skipped. The folder is written whole or not at all.
        """)

    @Option(help: "Weights file, checkpoint folder, or run folder (its best).") var checkpoint: String?
    @Option(help: "A thresholds.json (from uidetect evaluate or thresholds): one threshold per class.") var thresholds: String?
    @Option(help: "Threshold for classes without one in --thresholds.") var scoreThreshold: Float = 0.25
    @Option(help: "A description config (YAML); default: the paper's steps with our additions.") var config: String?
    @Option(name: .customLong("set"), help: "Override a description config key: key=value (repeatable).") var overrides: [String] = []
    @Option(help: "A vocabulary map (YAML, see Configs/vocabularies/): what each of the detector's classes becomes; default: the built-in map that names them all.")
    var vocabularyMap: String?
    @Option(help: "An icon-interactivity model (uidetect train-icons); default: icon-interactivity.json beside the checkpoint, if any.") var iconModel: String?
    @Option(help: "An icon classifier (uidetect train-icon-classifier); default: icon-classifier.safetensors beside the checkpoint, if any.") var iconClassifier: String?
    @Flag(help: "Leave icons unnamed, also with a classifier beside the checkpoint (to measure what naming them changes).") var noIconClassifier = false
    @Flag(help: "Describe without OCR.") var noOCR = false
    @Option(help: "OCR reads screenshots at about this width: narrow ones enlarged by a whole factor, wide ones reduced; 0: at their own size.")
    var ocrWidth = 780
    @Flag(help: "With --data: the shards' true boxes stand in for the detector's (the heuristics measured on their own; no --checkpoint).")
    var boxesFromTruth = false
    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Screen shards, folders or globs (instead of screenshots).") var data: [String] = []
    @Option(help: "Output folder.") var out: String?
    @Flag(help: "Write only description.json and index.html, no page per screen (quicker, for measuring).") var noPages = false
    @Flag(help: "Start from the paper's steps alone, every rule and cue of our own off (--config and --set still apply on top).") var paper = false
    @Flag(help: "Print the description config with every key, and exit.") var printConfig = false
    @Argument(help: "Screenshots (PNG or JPEG) and folders of them.") var inputs: [String] = []
    @OptionGroup var threads: ThreadOptions

    func validate() throws {
        if printConfig { return }
        if boxesFromTruth {
            guard !data.isEmpty else { throw ValidationError("--boxes-from-truth needs --data shards (their boxes are the truth)") }
            guard checkpoint == nil, thresholds == nil else { throw ValidationError("--boxes-from-truth uses no detector: drop --checkpoint and --thresholds") }
        } else {
            guard checkpoint != nil else { throw ValidationError("--checkpoint is needed (or --boxes-from-truth with --data)") }
        }
        guard out != nil else { throw ValidationError("--out is needed") }
        guard !(noIconClassifier && iconClassifier != nil) else { throw ValidationError("--no-icon-classifier and --icon-classifier: give one of the two") }
        guard ocrWidth >= 0 else { throw ValidationError("--ocr-width must be 0 or more, got \(ocrWidth)") }
        guard inputs.isEmpty != data.isEmpty else { throw ValidationError("give screenshots or --data shards (one of the two)") }
        guard scoreThreshold >= 0 && scoreThreshold <= 1 else { throw ValidationError("--score-threshold must lie in [0, 1]") }
    }

    func run() throws { try threads.scope(body) }

    private func body() throws {
        try reportingErrors {
            let describerConfig = try DescriptionConfigLoader.load(config.map { URL(fileURLWithPath: $0) }, overrides: overrides, paper: paper)
            if printConfig { return print(try DescriptionConfigLoader.yaml(describerConfig), terminator: "") }
            let shards = try data.isEmpty ? nil : ShardSet(data)
            let screens = try shards.map { DescriptionInput.shards($0, truthBoxes: boxesFromTruth) } ?? DescriptionInput.screenshots(ScreenshotFiles(inputs))
            let trained = try checkpoint.map { try TrainedDetector($0) }
            let classNames = trained?.classNames ?? shards!.classNames
            // Before anything is written: a class without a mapping stops the run.
            let vocabulary = try VocabularyMap.resolve(file: vocabularyMap, classNames: classNames,
                                                       of: trained.map { "the detector \($0.files.detector.path)" } ?? "the shards (\(data.joined(separator: " ")))")
            let folder = try OutputFolder(out!, command: "describe", inputs: inputs + (shards?.readers.map(\.url.path) ?? [])
                                          + [checkpoint, thresholds, config, iconModel, iconClassifier, vocabularyMap].compactMap { $0 })
            defer { folder.discard() }
            let picked = try DeploymentThresholds(file: thresholds, classNames: classNames)
            let iconURL = iconModel.map { URL(fileURLWithPath: $0) } ?? trained?.files.iconInteractivity
            let icons = try iconURL.map { try IconInteractivityModel(contentsOf: $0) }
            let classifierURL = noIconClassifier ? nil : try iconClassifier.map { try ModelFiles.iconClassifier($0) } ?? trained?.files.iconClassifier
            let classifier = try classifierURL.map { try IconClassifier(contentsOf: $0) }
            if classifier == nil && !noIconClassifier { print("note: no icon classifier (train one with uidetect train-icon-classifier, or give --icon-classifier): icons are not named, icon_type stays null") }
            let ocr = DescriptionRun.textRecognizer(enabled: !noOCR, width: ocrWidth)
            if !noOCR, let note = ocr.note { print("warning: \(note) describing without OCR (labels stay empty)") }
            let notes = [trained.map { "Detector \($0.files.detector.path) with \(picked.describe(fallback: scoreThreshold))." }
                            ?? "The shards' true boxes in place of detections (--boxes-from-truth).",
                         icons.map { _ in "Icon interactivity: \(iconURL!.path)." } ?? "No icon-interactivity model: icons are neither buttons nor images (interactivity unknown).",
                         "Classes described through the vocabulary map \(vocabulary.name).",
                         classifier.map { "Icon types: \(classifierURL!.path) (threshold \(String(format: "%.3f", $0.threshold)))." } ?? "No icon classifier: icons are not named.",
                         ocr.note].compactMap { $0 }
            let recognizer = ScreenRecognizer(detector: trained?.detector, classNames: classNames, filter: picked.filter(classNames: classNames, fallback: scoreThreshold),
                                              textRecognizer: ocr.recognizer, iconClassifier: classifier, describer: ScreenDescriber(config: describerConfig, iconModel: icons, vocabulary: vocabulary))
            let progress = ProgressLine()
            let outcome = try DescriptionRun(recognizer: recognizer, pages: !noPages, notes: notes).run(screens, into: folder.staging) { k, n in
                progress.update("\(k)/\(n) screens", fractionDone: Double(k) / Double(max(1, n)))
            }
            progress.finish()
            try folder.commit()
            let t = outcome.medianTiming
            print(String(format: "%d screens described; per screen (median): detector %.1f ms, icons %.1f ms, OCR %.1f ms, heuristics %.2f ms, all %.1f ms",
                         outcome.described, 1000 * t.detector, 1000 * t.icons, 1000 * t.ocr, 1000 * t.heuristics, 1000 * outcome.medianTotal))
            for s in outcome.skipped { print("skipped \(s)") }
            print("wrote \(folder.final.appendingPathComponent(DescriptionFile.fileName).path) and a page per screen (\(folder.final.appendingPathComponent(DescriptionIndexPage.fileName).path))")
            if outcome.described == 0 { throw ExitCode(1) }
        }
    }
}
