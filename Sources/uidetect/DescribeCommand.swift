import ArgumentParser
import Detection
import Engine
import Evaluation
import Foundation
import Images
import OCR
import Outputs
import Reports
import ScreenDescription
import ScreenRecognition
import Shards

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
    @Option(help: "An icon-interactivity model (uidetect train-icons); default: icon-interactivity.json beside the checkpoint, if any.") var iconModel: String?
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
            let folder = try OutputFolder(out!, command: "describe", inputs: inputs + (shards?.readers.map(\.url.path) ?? [])
                                          + [checkpoint, thresholds, config, iconModel].compactMap { $0 })
            defer { folder.discard() }
            let screens = try shards.map { Self.shardScreens($0, truthBoxes: boxesFromTruth) } ?? Self.screenshots(inputs)
            let detector: SSDDetector?, classNames: [String], weights: URL?
            if boxesFromTruth {
                (detector, classNames, weights) = (nil, shards!.classNames, nil)
            } else {
                let resolved = try DetectorWeights.resolve(checkpoint!)
                let (model, names, _) = try DetectorWeights.read(resolved)
                (detector, classNames, weights) = (SSDDetector(model: model), names, resolved)
            }
            let perClass = try thresholds.map { try ThresholdsFile(contentsOf: URL(fileURLWithPath: $0)).thresholdsByClass } ?? [:]
            if let unknown = perClass.keys.sorted().first(where: { !classNames.contains($0) }) {
                throw ValidationError("\(thresholds!): names class '\(unknown)', which the detector does not have (\(classNames.joined(separator: ", ")))")
            }
            var byClass = perClass
            for n in classNames where byClass[n] == nil { byClass[n] = scoreThreshold }
            let iconURL = iconModel.map { URL(fileURLWithPath: $0) } ?? weights.flatMap { IconModelLocation.find(beside: $0) }
            let icons = try iconURL.map { try IconInteractivityModel(contentsOf: $0) }
            var notes = [weights.map { "Detector \($0.path) with \(thresholds.map { "thresholds of \($0)" } ?? "threshold \(scoreThreshold) for every class")." }
                         ?? "The shards' true boxes in place of detections (--boxes-from-truth)."]
            notes.append(icons.map { _ in "Icon interactivity: \(iconURL!.path)." } ?? "No icon-interactivity model: icons are neither buttons nor images (interactivity unknown).")
            var recognizer: (any TextRecognizer)? = nil
            if !noOCR {
                do { recognizer = try TesseractRecognizer(targetWidth: ocrWidth) } catch {
                    print("warning: \(error); describing without OCR (labels stay empty)")
                    notes.append("Without OCR: \(error).")
                }
            } else {
                notes.append("Without OCR (--no-ocr): labels stay empty.")
            }
            let pipeline = ScreenRecognizer(detector: detector, classNames: classNames, filter: DeploymentFilter(thresholds: byClass),
                                            textRecognizer: recognizer, describer: ScreenDescriber(config: describerConfig, iconModel: icons))
            let progress = ProgressLine()
            var described: [DescribedScreen] = [], entries: [DescriptionIndexPage.Entry] = [], skipped: [String] = []
            var timings: [ScreenRecognizer.Timing] = []
            var usedIDs = Set<String>()
            for (k, screen) in screens.enumerated() {
                progress.update("\(k)/\(screens.count) screens", fractionDone: Double(k) / Double(max(1, screens.count)))
                let image: RGBImage, given: [ElementDetection]?
                do { (image, given) = try screen.load() } catch {
                    skipped.append("\(screen.source): \(error)")
                    continue
                }
                var id = screen.imageID
                if usedIDs.contains(id) { id += "-\(k)" }
                usedIDs.insert(id)
                // One screen that cannot be described (OCR failing on it, say) is reported and skipped, as an unreadable file is.
                let description: DescribedScreen, timing: ScreenRecognizer.Timing
                do { (description, _, timing) = try pipeline.describe(imageID: id, image: image, given: given) } catch {
                    skipped.append("\(screen.source): \(error)")
                    continue
                }
                described.append(description)
                timings.append(timing)
                let page = "\(Self.fileSafe(id)).html"
                guard !noPages else { continue }
                try DescriptionPage(screen: description, image: image, title: "Description of \(id)").write(to: folder.file(page))
                entries.append(.init(imageID: id, page: page, elements: description.elements.count, firstUtterance: SpokenText.utterances(for: description).first ?? ""))
            }
            progress.finish()
            try DescriptionFile.write(described, to: folder.file("description.json"))
            try DescriptionIndexPage(title: "Screen descriptions", notes: notes, entries: entries).write(to: folder.file("index.html"))
            try folder.commit()
            func median(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.sorted()[v.count / 2] }
            print(String(format: "%d screens described; per screen (median): detector %.1f ms, OCR %.1f ms, heuristics %.2f ms, all %.1f ms",
                         described.count, 1000 * median(timings.map(\.detector)), 1000 * median(timings.map(\.ocr)),
                         1000 * median(timings.map(\.heuristics)), 1000 * median(timings.map(\.total))))
            for s in skipped { print("skipped \(s)") }
            print("wrote \(folder.final.appendingPathComponent("description.json").path) and a page per screen (\(folder.final.appendingPathComponent("index.html").path))")
            if described.isEmpty { throw ExitCode(1) }
        }
    }

    /// A screen to describe: where it comes from and how to read it (with its true boxes, when they stand in for detections).
    struct Screen {
        var imageID: String
        var source: String
        var load: () throws -> (image: RGBImage, given: [ElementDetection]?)
    }

    static func screenshots(_ inputs: [String]) throws -> [Screen] {
        try Predict.imageFiles(inputs).map { file in
            Screen(imageID: file.deletingPathExtension().lastPathComponent, source: file.path) { (try ImageCodec.read(file, strict: true), nil) }
        }
    }

    /// Screens of shards at their original size (the stored letterbox undone): the colour checks want the screenshot's own pixels.
    static func shardScreens(_ set: ShardSet, truthBoxes: Bool) -> [Screen] {
        return (0..<set.count).map { i in
            let (k, local) = set.locate(i)
            let reader = set.readers[k]
            return Screen(imageID: reader.imageIDs[local], source: "\(reader.url.path) screen \(local)") {
                let record = try set.record(at: i)
                guard let image = record.originalImage(), let stored = record.image?.size else { throw ShardError.missing(path: reader.url.path, name: "dataset images") }
                guard truthBoxes else { return (image, nil) }
                return (image, TruthScreens.elements(of: try TruthScreens.truth(record, storedSize: stored, classNames: set.classNames)))
            }
        }
    }

    /// An image id as a file name: path separators and control characters replaced.
    static func fileSafe(_ id: String) -> String {
        String(id.map { $0 == "/" || $0 == "\\" || $0.isNewline || $0.asciiValue.map { $0 < 32 } == true ? "_" : $0 })
    }
}
