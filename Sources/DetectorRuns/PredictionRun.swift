import Detection
import Evaluation
import Foundation
import Images
import Interchange
import Reports

/// A detector run over screenshots of any size, written as `uidetect predict` writes it:
/// detections.json, images.json, detections.coco.json, and with `overlays` a PNG per screenshot
/// with its boxes drawn and index.html to browse them. A file that cannot be read as an image is
/// reported and skipped.
public struct PredictionRun {
    public var detector: SSDDetector
    public var classNames: [String]
    public var filter: DeploymentFilter
    public var overlays: Bool
    /// What the run used, one line each, for index.html.
    public var notes: [String]

    public init(detector: SSDDetector, classNames: [String], filter: DeploymentFilter, overlays: Bool, notes: [String]) {
        self.detector = detector
        self.classNames = classNames
        self.filter = filter
        self.overlays = overlays
        self.notes = notes
    }

    /// What a run did.
    public struct Outcome {
        public var screenshots = 0
        public var detections = 0
        /// "path: why" of each file skipped.
        public var skipped: [String] = []
        public var seconds = 0.0
        /// Detections the COCO results left out (classes or images without a COCO id).
        public var cocoLeftOut = COCOResultsFile.LeftOut()
    }

    /// Detects on `screenshots` and writes the files into `folder` (a staging folder); `cocoIDs`
    /// numbers the COCO results (default: images in input order, categories in the detector's order).
    public func run(_ screenshots: ScreenshotFiles, cocoIDs given: COCOIDMap?, into folder: URL, progress: (Int, Int) -> Void = { _, _ in }) throws -> Outcome {
        let start = Date()
        let overlay = overlays ? DetectionOverlay(classNames: classNames, font: try Font()) : nil
        var outcome = Outcome()
        var all: [ScoredDetection] = [], entries: [ImagesFile.Entry] = [], pages: [PredictionIndex.Entry] = []
        var ids = screenshots.ids()
        let stems = screenshots.stems
        for (k, file) in screenshots.files.enumerated() {
            progress(k, screenshots.files.count)
            let image: RGBImage
            do { image = try ImageCodec.read(file, strict: true) } catch {
                outcome.skipped.append("\(file.path): \(error)")
                continue
            }
            let id = ids.claim(stems[k])
            entries.append(ImagesFile.Entry(imageID: id, path: file.path, width: image.width, height: image.height))
            let found = detector.detect(screens: [image]) { filter.apply($0, classNames: classNames) }[0]
            all += found.map { ScoredDetection(imageID: id, label: $0.label, score: Double($0.score), box: $0.box) }
            if let overlay {
                try ImageCodec.writePNG(overlay.draw(found, on: image), to: folder.appendingPathComponent("\(id).png"))
                pages.append(PredictionIndex.Entry(imageID: id, overlay: "\(id).png", source: file.path, width: image.width, height: image.height,
                                                   labels: found.map(\.label)))
            }
        }
        try DetectionsFile.write(all, classNames: classNames, to: folder.appendingPathComponent(DetectionsFile.fileName))
        let cocoIDs = given ?? COCOIDMap(numbering: entries.map(\.imageID), classNames: classNames)
        for k in entries.indices { entries[k].cocoID = cocoIDs.cocoImageIDs[entries[k].imageID] }
        try ImagesFile(entries: entries).write(to: folder.appendingPathComponent(ImagesFile.fileName))
        outcome.cocoLeftOut = try COCOResultsFile.write(all, classNames: classNames, ids: cocoIDs, to: folder.appendingPathComponent(COCOResultsFile.fileName))
        if overlays {
            var notes = notes
            if !outcome.skipped.isEmpty { notes.append("\(outcome.skipped.count) files could not be read as images and are not shown") }
            try PredictionIndex(title: "Detections on \(pages.count) screenshots", notes: notes, classNames: classNames, entries: pages)
                .write(to: folder.appendingPathComponent(PredictionIndex.fileName))
        }
        outcome.screenshots = entries.count
        outcome.detections = all.count
        outcome.seconds = Date().timeIntervalSince(start)
        return outcome
    }
}
