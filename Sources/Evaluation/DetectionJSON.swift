import Foundation

/// A parser for detection files: a JSON array of objects with `image_id`,
/// `class`, `score` and `box`.
///
/// Written for this one schema rather than through JSONSerialization: it
/// parses 200,000 detections in a fraction of a second, and it reports the
/// record at fault for every error, including numbers too large for a double
/// (e.g. 1e999, which becomes infinity and is refused as not finite).
struct DetectionJSONParser {
    /// One record as written, before names are resolved.
    struct Record {
        var imageID: String?
        var className: String?
        var classIndex: Double?
        var score: Double?
        var box: [Double]?
    }

    enum Failure: Error {
        case syntax(offset: Int, record: Int?, problem: String)
    }

    private let bytes: [UInt8]
    private var i = 0
    private var record: Int? = nil

    init(_ data: Data) { bytes = [UInt8](data) }

    mutating func parse(_ each: (Int, Record) throws -> Void) throws {
        skipSpace()
        try expect(UInt8(ascii: "["))
        skipSpace()
        if peek() == UInt8(ascii: "]") { i += 1; return try end() }
        var index = 0
        while true {
            record = index
            try each(index, try object())
            index += 1
            skipSpace()
            guard i < bytes.count else { throw fail("the file ends inside the array (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; skipSpace(); continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw fail("expected ',' or ']' after a detection")
        }
        record = nil
        try end()
    }

    private mutating func end() throws {
        skipSpace()
        if i != bytes.count { throw fail("unexpected content after the array") }
    }

    private mutating func object() throws -> Record {
        skipSpace()
        try expect(UInt8(ascii: "{"))
        var r = Record()
        skipSpace()
        if peek() == UInt8(ascii: "}") { i += 1; return r }
        while true {
            skipSpace()
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            switch key {
            case "image_id":
                if peek() == UInt8(ascii: "\"") { r.imageID = try string() } else { r.imageID = formatID(try number()) }
            case "class":
                if peek() == UInt8(ascii: "\"") { r.className = try string() } else { r.classIndex = try number() }
            case "score":
                guard peek() != UInt8(ascii: "\"") else { throw fail("'score' must be a number") }
                r.score = try number()
            case "box":
                try expect(UInt8(ascii: "["))
                var v: [Double] = []
                skipSpace()
                if peek() == UInt8(ascii: "]") { i += 1 } else {
                    while true {
                        skipSpace()
                        v.append(try number())
                        skipSpace()
                        if peek() == UInt8(ascii: ",") { i += 1; continue }
                        try expect(UInt8(ascii: "]"))
                        break
                    }
                }
                r.box = v
            default:
                try skipValue()
            }
            skipSpace()
            guard i < bytes.count else { throw fail("the file ends inside a detection (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return r }
            throw fail("expected ',' or '}' in a detection")
        }
    }

    private func formatID(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    private mutating func number() throws -> Double {
        let start = i
        while i < bytes.count, let c = Optional(bytes[i]),
              (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            i += 1
        }
        guard i > start, i - start < 64 else { throw fail(i == start ? "expected a number" : "number too long") }
        // strtod on a small NUL-terminated copy: fast, and 1e999 becomes inf instead of an error.
        var buffer = [CChar](repeating: 0, count: i - start + 1)
        for k in 0..<(i - start) { buffer[k] = CChar(bitPattern: bytes[start + k]) }
        var endPointer: UnsafeMutablePointer<CChar>? = nil
        let value = buffer.withUnsafeMutableBufferPointer { p -> Double in
            let v = strtod(p.baseAddress!, &endPointer)
            return endPointer == p.baseAddress! + (i - start) ? v : .nan
        }
        if value.isNaN { i = start; throw fail("malformed number") }
        return value
    }

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        var out = [UInt8]()
        while true {
            guard i < bytes.count else { throw fail("the file ends inside a string (truncated?)") }
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard i < bytes.count else { throw fail("the file ends inside a string (truncated?)") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00, i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: out.append(e)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else { throw fail("bad \\u escape") }
        i += 4
        return v
    }

    /// Skips any JSON value (for keys the schema does not use).
    private mutating func skipValue() throws {
        skipSpace()
        guard i < bytes.count else { throw fail("the file ends where a value was expected (truncated?)") }
        switch bytes[i] {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close: UInt8 = bytes[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            i += 1
            skipSpace()
            if peek() == close { i += 1; return }
            while true {
                if close == UInt8(ascii: "}") { skipSpace(); _ = try string(); skipSpace(); try expect(UInt8(ascii: ":")) }
                try skipValue()
                skipSpace()
                if peek() == UInt8(ascii: ",") { i += 1; continue }
                try expect(close)
                return
            }
        default:
            let start = i
            while i < bytes.count, !",}] \n\r\t".utf8.contains(bytes[i]) { i += 1 }
            let word = String(decoding: bytes[start..<i], as: UTF8.self)
            if !["true", "false", "null"].contains(word) { i = start; _ = try number() }
        }
    }

    private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 || bytes[i] == 9 { i += 1 }
    }

    private mutating func expect(_ c: UInt8) throws {
        guard i < bytes.count else { throw fail("the file ends where '\(Character(Unicode.Scalar(c)))' was expected (truncated?)") }
        guard bytes[i] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
        i += 1
    }

    private func fail(_ problem: String) -> Failure { .syntax(offset: i, record: record, problem: problem) }
}
