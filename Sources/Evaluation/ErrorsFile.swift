import Boxes
import Foundation

/// errors.json (README, "Where a detector fails"): one record per kept detection (a true positive's
/// record standing for its pair) and per missed true box, `[{"image_id", "class", "score", "box",
/// "kind", "reason", "other": {"class", "score", "box", "iou"}}]`, in `ErrorAnalysis.records`' order.
///
/// Written one record per line, by hand as detections.json is: a validation of a few thousand
/// screens has hundreds of thousands of records, which JSONEncoder takes seconds over.
public enum ErrorsFile {
    /// The file's name in an evaluation folder.
    public static let fileName = "errors.json"

    /// Writes `errors`' records, labels named by `classNames`, to `url` atomically.
    public static func write(_ errors: ErrorAnalysis, classNames: [String], to url: URL) throws {
        try Data(text(errors.records, classNames: classNames).utf8).write(to: url, options: .atomic)
    }

    /// The file's text. Every number comes from a finite detection or box (the readers refuse others)
    /// and is written in Swift's shortest form that reads back the same.
    static func text(_ records: [ErrorRecord], classNames: [String]) -> String {
        let names = classNames.map(DetectionsFile.quoted)
        var text = "[\n"
        text.reserveCapacity(200 * records.count + 4)
        var lastImage = -2, imageID = ""
        for (i, r) in records.enumerated() {
            if r.image != lastImage || r.image < 0 { (lastImage, imageID) = (r.image, DetectionsFile.quoted(r.imageID)) }
            text += "{\"image_id\": "
            text += imageID
            text += ", "
            append(names[r.label], r.score, r.box, to: &text)
            text += ", \"kind\": \""
            text += r.kind.rawValue
            text += "\", \"reason\": "
            text += r.reason.map { "\"\($0.rawValue)\"" } ?? "null"
            text += ", \"other\": "
            if let o = r.other {
                text += "{"
                append(names[o.label], o.score, o.box, to: &text)
                text += ", \"iou\": \(o.iou)}"
            } else {
                text += "null"
            }
            text += i + 1 < records.count ? "},\n" : "}\n"
        }
        return text + "]\n"
    }

    /// `"class": ..., "score": ..., "box": [...]`, the fields a record and the box it relates to share.
    private static func append(_ quotedClass: String, _ score: Double?, _ b: Box, to text: inout String) {
        text += "\"class\": "
        text += quotedClass
        text += ", \"score\": "
        text += score.map { "\($0)" } ?? "null"
        text += ", \"box\": [\(b.xMin), \(b.yMin), \(b.xMax), \(b.yMax)]"
    }
}
