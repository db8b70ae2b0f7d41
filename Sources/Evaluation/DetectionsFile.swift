import FileKeys
import Foundation

/// detections.json (evaluation.md, "Detections"): `[{"image_id", "class", "score", "box": [x_min, y_min, x_max, y_max]}]`.
///
/// Written one record per line so that two runs diff well; read back by `EvaluationLoader.detectionsJSON`.
/// Written by hand rather than with JSONEncoder for speed and that layout; strings are escaped in full
/// (every control character), so any image id or class name gives valid JSON.
public enum DetectionsFile {
    /// The file's name in an evaluation folder.
    public static let fileName = "detections.json"

    /// Writes `detections`, their labels named by `classNames`, to `url` atomically.
    /// A non-finite score or box, or a label outside `classNames`, is refused: JSON has no such numbers.
    public static func write(_ detections: [Detection], classNames: [String], to url: URL) throws {
        try encode(detections, classNames: classNames, path: url.path).write(to: url, options: .atomic)
    }

    /// The file's bytes; `path` names it in errors.
    public static func encode(_ detections: [Detection], classNames: [String], path: String) throws -> Data {
        let names = classNames.map(JSONString.quoted)
        var json = JSONLines(capacity: 120 * detections.count + 4)
        json.raw("[\n")
        var lastImage = "", imageID = ""
        for (i, d) in detections.enumerated() {
            try check(d, at: i, classCount: classNames.count, path: path)
            if i == 0 || d.imageID != lastImage { (lastImage, imageID) = (d.imageID, JSONString.quoted(d.imageID)) }
            json.raw("{\"image_id\": ")
            json.write(imageID)
            json.raw(", ")
            json.detectionFields(quotedClass: names[d.label], score: d.score, box: d.box)
            json.raw(i + 1 < detections.count ? "},\n" : "}\n")
        }
        json.raw("]\n")
        return Data(json.bytes)
    }

    /// Refuses what JSON cannot hold or no class names: a label outside `classCount`, a non-finite score or box.
    static func check(_ d: Detection, at i: Int, classCount: Int, path: String) throws {
        func fail(_ problem: String) -> EvaluationInputError { EvaluationInputError(path: path, position: "detection \(i)", problem: problem) }
        guard d.label >= 0 && d.label < classCount else { throw fail("label \(d.label) is outside the \(classCount) classes") }
        guard d.score.isFinite else { throw fail("score \(d.score) is not finite") }
        let b = d.box
        guard b.xMin.isFinite && b.yMin.isFinite && b.xMax.isFinite && b.yMax.isFinite else {
            throw fail("box [\(b.xMin), \(b.yMin), \(b.xMax), \(b.yMax)] is not finite")
        }
    }
}
