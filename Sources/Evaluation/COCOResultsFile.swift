import Boxes
import Foundation
import Interchange
import Shards

/// Detections in COCO's results format, `[{"image_id": int, "category_id": int, "bbox": [x, y, w, h], "score"}]`,
/// their ids through a `COCOIDMap`: an instances file's, or `export-data coco`'s numbering of the same shards.
///
/// Written one record per line by hand (as detections.json), with `bbox` from the float32 box widened to
/// double (`w = x_max - x_min` is then exact, and `x + w` gives `x_max` back); read through Codable.
public enum COCOResultsFile {
    /// The file's name beside detections.json.
    public static let fileName = "detections.coco.json"

    /// What a write left out: detections whose class is no category of the ids, or whose image has no COCO id.
    public struct LeftOut: Equatable {
        public var unknownClass = 0
        public var unknownImage = 0
        public init(unknownClass: Int = 0, unknownImage: Int = 0) {
            self.unknownClass = unknownClass
            self.unknownImage = unknownImage
        }
    }

    /// Whether the JSON file at `url` holds COCO results: its first record has `category_id` or `bbox`, and neither `class` nor `box`.
    public static func isCOCOResults(_ url: URL) -> Bool {
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped), let r = DetectionJSONParser.firstRecord(data) else { return false }
        return r.hasCOCOKeys && !r.hasClass && !r.hasBox
    }

    /// Writes `detections` (labels named by `classNames`) to `url` atomically, leaving out (and counting) those
    /// `ids` has no category or image for. A non-finite score or box, or a label outside `classNames`, is refused.
    @discardableResult
    public static func write(_ detections: [Detection], classNames: [String], ids: COCOIDMap, to url: URL) throws -> LeftOut {
        let categories = classNames.map { ids.categoryIDs[$0] }
        var text = "[\n", written = 0, leftOut = LeftOut()
        for (i, d) in detections.enumerated() {
            try DetectionsFile.check(d, at: i, classCount: classNames.count, path: url.path)
            guard let category = categories[d.label] else { leftOut.unknownClass += 1; continue }
            guard let image = ids.cocoImageIDs[d.imageID] else { leftOut.unknownImage += 1; continue }
            let x = Double(d.box.xMin), y = Double(d.box.yMin)
            text += (written == 0 ? "" : ",\n") + "{\"image_id\": \(image), \"category_id\": \(category), "
            text += "\"bbox\": [\(x), \(y), \(Double(d.box.xMax) - x), \(Double(d.box.yMax) - y)], \"score\": \(d.score)}"
            written += 1
        }
        try Data((text + "\n]\n").utf8).write(to: url, options: .atomic)
        return leftOut
    }

    /// Reads COCO results, naming each record's image and class through `ids`. Class names then follow the
    /// rules of detections.json (`EvaluationLoader.detectionsJSON`), and so do the errors, with the record's position.
    public static func read(_ url: URL, ids: COCOIDMap, classNames: [String], imageIDs: Set<String>, classMap: ClassMap?) throws -> [Detection] {
        let records: [COCOResult]
        do { records = try InterchangeJSON.read([COCOResult].self, from: url) } catch let e as InterchangeError {
            // "[17].bbox" -> "detection 17: bbox"
            var position = e.field.isEmpty ? "file" : e.field
            if e.field.hasPrefix("["), let close = e.field.firstIndex(of: "]") {
                let rest = e.field[e.field.index(after: close)...].drop { $0 == "." }
                position = "detection \(e.field.dropFirst().prefix(upTo: close))" + (rest.isEmpty ? "" : ": \(rest)")
            }
            throw EvaluationInputError(path: url.path, position: position, problem: e.problem)
        }
        let index = Dictionary(uniqueKeysWithValues: classNames.enumerated().map { ($1, $0) })
        var labels: [Int: EvaluationLoader.ClassResolution] = [:]
        var out: [Detection] = []
        out.reserveCapacity(records.count)
        for (i, r) in records.enumerated() {
            func fail(_ problem: String) -> EvaluationInputError { EvaluationInputError(path: url.path, position: "detection \(i)", problem: problem) }
            guard let image = ids.imageIDs[r.imageID] else { throw fail("image_id \(r.imageID) is not an image of the COCO instances") }
            guard imageIDs.contains(image) else { throw fail("image_id \(r.imageID) ('\(image)') is not in the ground truth") }
            if labels[r.categoryID] == nil {
                guard let name = ids.classNames[r.categoryID] else { throw fail("category_id \(r.categoryID) is not a category of the COCO instances") }
                labels[r.categoryID] = EvaluationLoader.resolve(name, index: index, classNames: classNames, classMap: classMap)
            }
            let label: Int
            switch labels[r.categoryID]! {
            case .label(let l): label = l
            case .dropped: continue
            case .unknown(let problem): throw fail(problem)
            }
            guard r.score.isFinite else { throw fail("score \(r.score) is not finite") }
            guard r.bbox.count == 4 else { throw fail("'bbox' must be 4 numbers [x, y, width, height]") }
            let (x, y, w, h) = (r.bbox[0], r.bbox[1], r.bbox[2], r.bbox[3])
            guard x.isFinite && y.isFinite && w.isFinite && h.isFinite else { throw fail("bbox \(r.bbox) is not finite") }
            guard w >= 0 && h >= 0 else { throw fail("bbox \(r.bbox) has a negative width or height") }
            out.append(Detection(imageID: image, label: label, score: r.score, box: Box(xMin: Float(x), yMin: Float(y), xMax: Float(x + w), yMax: Float(y + h))))
        }
        return out
    }
}
