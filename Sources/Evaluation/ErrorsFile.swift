import Boxes
import FileKeys
import Foundation

/// errors.json (README, "Where a detector fails"): one record per kept detection (a true positive's
/// record standing for its pair) and per missed true box, `[{"image_id", "class", "score", "box",
/// "kind", "reason", "other": {"class", "score", "box", "iou"}}]`, in `ErrorAnalysis.records`' order.
///
/// Written one record per line, by hand as detections.json is (`JSONLines`).
public enum ErrorsFile {
    /// The file's name in an evaluation folder.
    public static let fileName = "errors.json"

    /// Writes `errors`' records, labels named by `classNames`, to `url` atomically.
    public static func write(_ errors: ErrorAnalysis, classNames: [String], to url: URL) throws {
        var bytes = bytes(errors.records, classNames: classNames)
        // Written from the buffer itself: a copy into a Data would add another 50 MB for 5,000 screens.
        try bytes.withUnsafeMutableBytes { buffer in
            try Data(bytesNoCopy: buffer.baseAddress!, count: buffer.count, deallocator: .none).write(to: url, options: .atomic)
        }
    }

    /// The file's bytes. Every number comes from a finite detection or box (the readers refuse others).
    static func bytes(_ records: [ErrorRecord], classNames: [String]) -> [UInt8] {
        let names = classNames.map(JSONString.quoted)
        var json = JSONLines(capacity: 200 * records.count + 4)
        json.raw("[\n")
        var lastImage = -2, imageID = ""
        for (i, r) in records.enumerated() {
            if r.image != lastImage || r.image < 0 { (lastImage, imageID) = (r.image, JSONString.quoted(r.imageID)) }
            json.raw("{\"image_id\": ")
            json.write(imageID)
            json.raw(", ")
            json.detectionFields(quotedClass: names[r.label], score: r.score, box: r.box)
            json.raw(", \"kind\": \"")
            json.write(r.kind.rawValue)
            json.raw("\", \"reason\": ")
            if let reason = r.reason {
                json.raw("\"")
                json.write(reason.rawValue)
                json.raw("\"")
            } else {
                json.raw("null")
            }
            json.raw(", \"other\": ")
            if let o = r.other {
                json.raw("{")
                json.detectionFields(quotedClass: names[o.label], score: o.score, box: o.box)
                json.raw(", \"iou\": ")
                json.number(o.iou)
                json.raw("}")
            } else {
                json.raw("null")
            }
            json.raw(i + 1 < records.count ? "},\n" : "}\n")
        }
        json.raw("]\n")
        return json.bytes
    }
}
