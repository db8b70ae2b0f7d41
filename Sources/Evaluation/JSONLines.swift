import Boxes
import FileKeys

/// A JSON file's bytes, written by hand one record per line (detections.json, errors.json).
///
/// Why by hand and into bytes: a validation of a few thousand screens writes hundreds of thousands of
/// records; JSONEncoder takes seconds over them and appending to a String most of a second, where
/// appending bytes to one preallocated buffer takes a tenth of that.
struct JSONLines: TextOutputStream {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

    /// Literal JSON text (punctuation and keys), without going through a String.
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A finite number in Swift's shortest form that reads back the same (1e-05 and 1e+20 are valid JSON).
    mutating func number<N: BinaryFloatingPoint & TextOutputStreamable>(_ x: N) { x.write(to: &self) }

    /// `"class": ..., "score": ..., "box": [...]`, the fields both files' records have.
    mutating func detectionFields(quotedClass: String, score: Double?, box b: Box) {
        raw("\"class\": ")
        write(quotedClass)
        raw(", \"score\": ")
        if let score { number(score) } else { raw("null") }
        raw(", \"box\": [")
        number(b.xMin)
        raw(", ")
        number(b.yMin)
        raw(", ")
        number(b.xMax)
        raw(", ")
        number(b.yMax)
        raw("]")
    }
}
