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
        Data(try text(detections, classNames: classNames, path: path).utf8)
    }

    static func text(_ detections: [Detection], classNames: [String], path: String) throws -> String {
        let names = classNames.map(quoted)
        var text = "[\n"
        for (i, d) in detections.enumerated() {
            try check(d, at: i, classCount: classNames.count, path: path)
            let b = d.box
            // Swift prints finite numbers as valid JSON numbers (1e-05, 1e+20), shortest form that reads back the same.
            text += "{\"image_id\": \(quoted(d.imageID)), \"class\": \(names[d.label]), \"score\": \(d.score), "
            text += "\"box\": [\(b.xMin), \(b.yMin), \(b.xMax), \(b.yMax)]}"
            text += i + 1 < detections.count ? ",\n" : "\n"
        }
        return text + "]\n"
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

    /// `s` as a JSON string literal: quote, backslash and every control character (U+0000 to U+001F) escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
