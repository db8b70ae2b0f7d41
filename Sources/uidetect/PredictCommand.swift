import ArgumentParser
import Detection
import Evaluation
import Foundation
import Images
import Interchange
import Outputs
import Reports
import Training

struct Predict: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Detect UI elements on PNG and JPEG screenshots of any size; write detections JSON and overlay PNGs.",
        discussion: """
        Each screenshot is letterboxed into the model's input, detected, filtered for deployment (per-class NMS, a threshold per
        class from --thresholds and --score-threshold for the rest, then suppression across visually similar classes at IoU > 0.8)
        and mapped back to its own pixels. Writes OUT/detections.json (evaluation.md's format, image_id = the file name
        without extension; a name already taken gets -2, -3, ...), OUT/images.json (each image_id's path, width, height and
        COCO id), OUT/detections.coco.json (COCO results; ids from --coco-ids, or else images 1, 2, ... in input order and
        categories 1, 2, ... in the detector's class order) OUT/<image_id>.png with the boxes drawn and OUT/index.html to browse them. Folders are searched
        (not recursively) for .png, .jpg and .jpeg files; a file that cannot be read as an image is reported and skipped.
        """)

    @Option(help: "Weights file, checkpoint folder, or run folder (its best).") var checkpoint: String
    @Option(help: "A thresholds.json (from uidetect evaluate or thresholds): one threshold per class.") var thresholds: String?
    @Option(help: "Threshold for classes without one in --thresholds.") var scoreThreshold: Float = 0.25
    @Option(help: "Output folder.") var out: String
    @Flag(help: "Skip the overlay PNGs.") var noOverlays = false
    @Option(help: "A COCO instances JSON whose image ids (matched by image_id) and categories (by name) detections.coco.json uses.") var cocoIds: String?
    @Argument(help: "Screenshots (PNG or JPEG) and folders of them.") var inputs: [String]
    @OptionGroup var threads: ThreadOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one image or folder") }
        guard scoreThreshold >= 0 && scoreThreshold <= 1 else { throw ValidationError("--score-threshold must lie in [0, 1]") }
    }

    func run() throws { try threads.scope(body) }

    private func body() throws {
        try reportingErrors {
            let perClass = try thresholds.map { try ThresholdsFile(contentsOf: URL(fileURLWithPath: $0)).thresholdsByClass } ?? [:]
            let (model, classNames, _) = try DetectorWeights.read(try DetectorWeights.resolve(checkpoint))
            if let unknown = perClass.keys.sorted().first(where: { !classNames.contains($0) }) {
                throw ValidationError("\(thresholds!): names class '\(unknown)', which the detector does not have (\(classNames.joined(separator: ", ")))")
            }
            var byClass = perClass
            for n in classNames where byClass[n] == nil { byClass[n] = scoreThreshold }
            let filter = DeploymentFilter(thresholds: byClass)
            let detector = SSDDetector(model: model)
            let files = try Self.imageFiles(inputs)
            // Staged like evaluate's: an interrupted run leaves the earlier output whole, never a mix of the two.
            let folder = try OutputFolder(out, command: "predict", inputs: inputs + [checkpoint, thresholds, cocoIds].compactMap { $0 })
            defer { folder.discard() }
            let outURL = folder.staging
            let overlay = DetectionOverlay(classNames: classNames, font: try Font())
            let progress = ProgressLine()
            var all: [ScoredDetection] = []
            var skipped: [String] = []
            let stems = files.map { $0.deletingPathExtension().lastPathComponent }
            var ids = UniqueNames(reserving: stems)
            var entries: [ImagesFile.Entry] = []
            var pages: [PredictionIndex.Entry] = []
            let start = Date()
            for (k, file) in files.enumerated() {
                progress.update("\(k)/\(files.count) screenshots", fractionDone: Double(k) / Double(files.count))
                let image: RGBImage
                do { image = try ImageCodec.read(file, strict: true) } catch {
                    skipped.append("\(file.path): \(error)")
                    continue
                }
                let id = ids.claim(stems[k])
                entries.append(ImagesFile.Entry(imageID: id, path: file.path, width: image.width, height: image.height))
                let found = detector.detect(screens: [image]) { filter.apply($0, classNames: classNames) }[0]
                all += found.map { ScoredDetection(imageID: id, label: $0.label, score: Double($0.score), box: $0.box) }
                if !noOverlays {
                    try ImageCodec.writePNG(overlay.draw(found, on: image), to: outURL.appendingPathComponent("\(id).png"))
                    pages.append(PredictionIndex.Entry(imageID: id, overlay: "\(id).png", source: file.path, width: image.width, height: image.height,
                                                       labels: found.map(\.label)))
                }
            }
            progress.finish()
            let json = outURL.appendingPathComponent(DetectionsFile.fileName)
            try DetectionsFile.write(all, classNames: classNames, to: json)
            let cocoIDs = try cocoIds.map { try COCOIDMap(contentsOf: URL(fileURLWithPath: $0)) }
                ?? COCOIDMap(numbering: entries.map(\.imageID), classNames: classNames)
            for k in entries.indices { entries[k].cocoID = cocoIDs.cocoImageIDs[entries[k].imageID] }
            try ImagesFile(entries: entries).write(to: outURL.appendingPathComponent(ImagesFile.fileName))
            let left = try COCOResultsFile.write(all, classNames: classNames, ids: cocoIDs, to: outURL.appendingPathComponent(COCOResultsFile.fileName))
            if left.unknownClass + left.unknownImage > 0 {
                print("\(COCOResultsFile.fileName) leaves out \(left.unknownClass) detections of classes without a category and \(left.unknownImage) on images without an id in \(cocoIds ?? "")")
            }
            if !noOverlays {
                var notes = ["checkpoint: \(checkpoint)", "thresholds: " + (thresholds.map { "\($0), \(scoreThreshold) for classes it leaves out" } ?? "\(scoreThreshold) for every class")]
                if !skipped.isEmpty { notes.append("\(skipped.count) files could not be read as images and are not shown") }
                try PredictionIndex(title: "Detections on \(pages.count) screenshots", notes: notes, classNames: classNames, entries: pages)
                    .write(to: outURL.appendingPathComponent(PredictionIndex.fileName))
            }
            try folder.commit()
            let done = files.count - skipped.count
            print(String(format: "%d screenshots, %d detections, %.2f s per screenshot", done, all.count, Date().timeIntervalSince(start) / Double(max(1, done))))
            for s in skipped { print("skipped \(s)") }
            print("wrote \(DetectionsFile.fileName), \(ImagesFile.fileName), \(COCOResultsFile.fileName)" + (noOverlays ? "" : ", an overlay PNG per screenshot and \(PredictionIndex.fileName) to browse them") + " in \(folder.final.path)")
            if done == 0 { throw ExitCode(1) }
        }
    }

    /// The files of `inputs`: files as given, folders' PNG and JPEG files in name order.
    static func imageFiles(_ inputs: [String]) throws -> [URL] {
        var out: [URL] = []
        for path in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("\(path): no such file or folder")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                out += names.filter { ["png", "jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
                    .map { URL(fileURLWithPath: path).appendingPathComponent($0) }
            } else {
                out.append(URL(fileURLWithPath: path))
            }
        }
        return out
    }
}
