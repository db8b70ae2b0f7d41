import Boxes
import Detection
import Foundation
import Images
import Interchange
import OCR
import Reports
import ScreenDescription
import Shards

/// A screen to describe: its image id, where it comes from, and how to read it (with its true
/// boxes, when they stand in for detections).
public struct DescriptionInput {
    public var imageID: String
    /// The file, or the shard and index, for messages.
    public var source: String
    public var load: () throws -> (image: RGBImage, given: [ElementDetection]?)

    /// Screenshot files, read at their own size.
    public static func screenshots(_ files: ScreenshotFiles) -> [DescriptionInput] {
        zip(files.files, files.stems).map { file, stem in
            DescriptionInput(imageID: stem, source: file.path) { (try ImageCodec.read(file, strict: true), nil) }
        }
    }

    /// The screens of shards at their original size (the stored letterbox undone: the colour
    /// checks want the screenshot's own pixels), with their true boxes when `truthBoxes`.
    public static func shards(_ set: ShardSet, truthBoxes: Bool) -> [DescriptionInput] {
        (0..<set.count).map { i in
            let (k, local) = set.locate(i)
            let reader = set.readers[k]
            return DescriptionInput(imageID: reader.imageIDs[local], source: "\(reader.url.path) screen \(local)") {
                let record = try set.record(at: i)
                guard let image = record.originalImage(), let stored = record.image?.size else { throw ShardError.missing(path: reader.url.path, name: "dataset images") }
                guard truthBoxes else { return (image, nil) }
                return (image, TruthScreens.elements(of: try TruthScreens.truth(record, storedSize: stored, classNames: set.classNames)))
            }
        }
    }
}

/// Screens described and written as `uidetect describe` writes them: description.json, a page
/// per screen (unless `pages` is off) and index.html. The screen loop, what is skipped and the
/// timing live here; a screen that cannot be read or described is reported and skipped.
public struct DescriptionRun {
    public var recognizer: ScreenRecognizer
    public var pages: Bool
    /// What the run used, one line each, for index.html.
    public var notes: [String]

    public init(recognizer: ScreenRecognizer, pages: Bool, notes: [String]) {
        self.recognizer = recognizer
        self.pages = pages
        self.notes = notes
    }

    /// What a run did: the screens described and skipped, and the median time of each stage.
    public struct Outcome {
        public var described = 0
        /// "source: why" of each screen skipped.
        public var skipped: [String] = []
        public var medianTiming = ScreenRecognizer.Timing()
        /// The median of the whole description's time (not the sum of the stages' medians).
        public var medianTotal = 0.0
    }

    /// Describes `screens` into `folder` (a staging folder). Image ids repeated across inputs are made distinct (`x`, `x-2`).
    public func run(_ screens: [DescriptionInput], into folder: URL, progress: (Int, Int) -> Void = { _, _ in }) throws -> Outcome {
        var described: [DescribedScreen] = [], entries: [DescriptionIndexPage.Entry] = [], timings: [ScreenRecognizer.Timing] = []
        var outcome = Outcome()
        var ids = UniqueNames(reserving: screens.map(\.imageID))
        for (k, screen) in screens.enumerated() {
            progress(k, screens.count)
            let image: RGBImage, given: [ElementDetection]?
            do { (image, given) = try screen.load() } catch {
                outcome.skipped.append("\(screen.source): \(error)")
                continue
            }
            let id = ids.claim(screen.imageID)
            // One screen that cannot be described (OCR failing on it, say) is reported and skipped, as an unreadable file is.
            let description: DescribedScreen, timing: ScreenRecognizer.Timing
            do { (description, _, timing) = try recognizer.describe(imageID: id, image: image, given: given) } catch {
                outcome.skipped.append("\(screen.source): \(error)")
                continue
            }
            described.append(description)
            timings.append(timing)
            guard pages else { continue }
            let page = "\(UniqueNames.fileName(for: id)).html"
            try DescriptionPage(screen: description, image: image, title: "Description of \(id)").write(to: folder.appendingPathComponent(page))
            entries.append(.init(imageID: id, page: page, elements: description.elements.count, firstUtterance: SpokenText.utterances(for: description).first ?? ""))
        }
        try DescriptionFile.write(described, to: folder.appendingPathComponent(DescriptionFile.fileName))
        try DescriptionIndexPage(title: "Screen descriptions", notes: notes, entries: entries).write(to: folder.appendingPathComponent(DescriptionIndexPage.fileName))
        func median(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.sorted()[v.count / 2] }
        outcome.described = described.count
        outcome.medianTiming = .init(detector: median(timings.map(\.detector)), icons: median(timings.map(\.icons)), ocr: median(timings.map(\.ocr)),
                                     heuristics: median(timings.map(\.heuristics)))
        outcome.medianTotal = median(timings.map(\.total))
        return outcome
    }
}

extension DescriptionRun {
    /// Tesseract reading screenshots at about `width` pixels when `enabled`; without it (off, or
    /// the library or its English data missing) nil, and a note saying why: describe goes on
    /// without OCR, its labels empty.
    public static func textRecognizer(enabled: Bool, width: Int) -> (recognizer: (any TextRecognizer)?, note: String?) {
        guard enabled else { return (nil, "Without OCR (--no-ocr): labels stay empty.") }
        do { return (try TesseractRecognizer(targetWidth: width), nil) } catch { return (nil, "Without OCR: \(error).") }
    }
}
