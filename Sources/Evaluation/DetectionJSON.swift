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
        var box: (Double, Double, Double, Double) = (0, 0, 0, 0)
        /// Numbers in `box`, or -1 if there was no `box`.
        var boxCount = -1
        /// The record has a key of COCO's results format (`category_id` or `bbox`), skipped here.
        var hasCOCOKeys = false
    }

    enum Failure: Error {
        case syntax(offset: Int, record: Int?, problem: String)
    }

    /// The file's bytes followed by a NUL, so that strtod can read numbers in place.
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var i = 0
    private var record: Int? = nil

    /// Parses `data`, calling `each` with every record in order.
    static func parse(_ data: Data, _ each: (Int, Record) throws -> Void) throws {
        let buffer = [UInt8](unsafeUninitializedCapacity: data.count + 1) { p, n in
            data.copyBytes(to: p.baseAddress!, count: data.count)
            p[data.count] = 0
            n = data.count + 1
        }
        try buffer.withUnsafeBufferPointer { p in
            var parser = DetectionJSONParser(bytes: p.baseAddress!, count: data.count)
            try parser.parse(each)
        }
    }

    /// The first record of `data`, or nil for an empty array or a file that fails before its first record ends.
    static func firstRecord(_ data: Data) -> Record? {
        struct Stop: Error {}
        var first: Record?
        do { try parse(data) { _, r in first = r; throw Stop() } } catch {}
        return first
    }

    private init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    private mutating func parse(_ each: (Int, Record) throws -> Void) throws {
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
            guard i < count else { throw fail("the file ends inside the array (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; skipSpace(); continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw fail("expected ',' or ']' after a detection")
        }
        record = nil
        try end()
    }

    private mutating func end() throws {
        skipSpace()
        if i != count { throw fail("unexpected content after the array") }
    }

    private mutating func object() throws -> Record {
        skipSpace()
        try expect(UInt8(ascii: "{"))
        var r = Record()
        skipSpace()
        if peek() == UInt8(ascii: "}") { i += 1; return r }
        while true {
            skipSpace()
            let key = try keyName()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            switch key {
            case .imageID:
                if peek() == UInt8(ascii: "\"") { r.imageID = try string() } else { r.imageID = formatID(try number()) }
            case .className:
                if peek() == UInt8(ascii: "\"") { r.className = try string() } else { r.classIndex = try number() }
            case .score:
                guard peek() != UInt8(ascii: "\"") else { throw fail("'score' must be a number") }
                r.score = try number()
            case .box:
                try expect(UInt8(ascii: "["))
                r.boxCount = 0
                skipSpace()
                if peek() == UInt8(ascii: "]") { i += 1 } else {
                    while true {
                        skipSpace()
                        let v = try number()
                        switch r.boxCount { case 0: r.box.0 = v; case 1: r.box.1 = v; case 2: r.box.2 = v; case 3: r.box.3 = v; default: break }
                        r.boxCount += 1
                        skipSpace()
                        if peek() == UInt8(ascii: ",") { i += 1; continue }
                        try expect(UInt8(ascii: "]"))
                        break
                    }
                }
            case .coco:
                r.hasCOCOKeys = true
                try skipValue()
            case .other:
                try skipValue()
            }
            skipSpace()
            guard i < count else { throw fail("the file ends inside a detection (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return r }
            throw fail("expected ',' or '}' in a detection")
        }
    }

    enum Key { case imageID, className, score, box, coco, other }

    /// Reads an object key, recognising the schema's keys by their bytes (no String is made for them).
    private mutating func keyName() throws -> Key {
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected '\"'") }
        let start = i + 1
        var j = start
        while j < count && bytes[j] != UInt8(ascii: "\"") && bytes[j] != UInt8(ascii: "\\") { j += 1 }
        guard j < count, bytes[j] == UInt8(ascii: "\"") else { _ = try string(); return .other }  // escaped key: not one of ours
        i = j + 1
        func equals(_ word: StaticString) -> Bool {
            guard word.utf8CodeUnitCount == j - start else { return false }
            let w = word.utf8Start
            for k in 0..<(j - start) where bytes[start + k] != w[k] { return false }
            return true
        }
        if equals("image_id") { return .imageID }
        if equals("class") { return .className }
        if equals("score") { return .score }
        if equals("box") { return .box }
        if equals("category_id") || equals("bbox") { return .coco }
        return .other
    }

    private func formatID(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    private mutating func number() throws -> Double {
        let start = i
        while i < count, let c = Optional(bytes[i]),
              (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            i += 1
        }
        guard i > start else { throw fail("expected a number") }
        if let v = fastNumber(start, i) { return v }
        // strtod in place (the buffer ends in a NUL): 1e999 becomes inf instead of an error.
        var end: UnsafeMutablePointer<CChar>? = nil
        let value = UnsafeRawPointer(bytes + start).withMemoryRebound(to: CChar.self, capacity: i - start + 1) { strtod($0, &end) }
        guard let end, UnsafeRawPointer(end) - UnsafeRawPointer(bytes) == i else { i = start; throw fail("malformed number") }
        return value
    }

    /// Exact powers of ten up to 1e22: every one is a double.
    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// Clinger's fast path: a decimal with a mantissa below 2^53 and |exponent| <= 22 is
    /// mantissa * 10^e or mantissa / 10^e, both correctly rounded. nil means "use strtod".
    private func fastNumber(_ start: Int, _ end: Int) -> Double? {
        var p = start
        var negative = false
        if bytes[p] == UInt8(ascii: "-") { negative = true; p += 1 }
        var mantissa: UInt64 = 0, exponent = 0, digits = 0
        func digit(_ c: UInt8) -> UInt64? { c >= 48 && c <= 57 ? UInt64(c - 48) : nil }
        guard p < end, digit(bytes[p]) != nil else { return nil }
        while p < end, let d = digit(bytes[p]) {
            if mantissa > 0 || d > 0 { digits += 1 }
            guard digits <= 18 else { return nil }
            mantissa = mantissa * 10 + d
            p += 1
        }
        if p < end && bytes[p] == UInt8(ascii: ".") {
            p += 1
            guard p < end, digit(bytes[p]) != nil else { return nil }
            while p < end, let d = digit(bytes[p]) {
                if mantissa > 0 || d > 0 { digits += 1 }
                guard digits <= 18 else { return nil }
                mantissa = mantissa * 10 + d
                exponent -= 1
                p += 1
            }
        }
        if p < end && (bytes[p] == UInt8(ascii: "e") || bytes[p] == UInt8(ascii: "E")) {
            p += 1
            var sign = 1
            if p < end && (bytes[p] == UInt8(ascii: "-") || bytes[p] == UInt8(ascii: "+")) { sign = bytes[p] == UInt8(ascii: "-") ? -1 : 1; p += 1 }
            guard p < end, digit(bytes[p]) != nil else { return nil }
            var e = 0
            while p < end, let d = digit(bytes[p]) { e = min(e * 10 + Int(d), 10_000); p += 1 }
            exponent += sign * e
        }
        guard p == end, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let m = Double(mantissa)
        let v = exponent < 0 ? m / Self.powersOfTen[-exponent] : m * Self.powersOfTen[exponent]
        return negative ? -v : v
    }

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        // Fast path: no escapes, decode the bytes where they lie.
        var j = i
        while j < count && bytes[j] != UInt8(ascii: "\"") && bytes[j] != UInt8(ascii: "\\") { j += 1 }
        if j < count && bytes[j] == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(start: bytes + i, count: j - i), as: UTF8.self)
            i = j + 1
            return text
        }
        var out = [UInt8]()
        while true {
            guard i < count else { throw fail("the file ends inside a string (truncated?)") }
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard i < count else { throw fail("the file ends inside a string (truncated?)") }
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
                // A high surrogate joins the low one that follows; a surrogate without its pair is
                // not a character and becomes U+FFFD (as Python's json reader keeps such text).
                if scalar >= 0xD800 && scalar < 0xDC00, i + 5 < count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    let mark = i
                    i += 2
                    let low = try hex4()
                    if low >= 0xDC00 && low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        i = mark  // the next escape is a character of its own
                    }
                }
                out += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: out.append(e)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= count, let v = UInt32(String(decoding: UnsafeBufferPointer(start: bytes + i, count: 4), as: UTF8.self), radix: 16) else { throw fail("bad \\u escape") }
        i += 4
        return v
    }

    /// Skips any JSON value (for keys the schema does not use). Iterative, with the open
    /// containers on a heap stack: a value nested 200,000 deep must not overflow the call stack.
    private mutating func skipValue() throws {
        var closers: [UInt8] = []
        repeat {
            skipSpace()
            guard i < count else { throw fail("the file ends where a value was expected (truncated?)") }
            switch bytes[i] {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close: UInt8 = bytes[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                i += 1
                skipSpace()
                if peek() == close { i += 1 } else {
                    closers.append(close)
                    if close == UInt8(ascii: "}") { try objectKey() }
                    continue  // the container's first value
                }
            default:
                let start = i
                while i < count, !",}] \n\r\t".utf8.contains(bytes[i]) { i += 1 }
                let word = String(decoding: UnsafeBufferPointer(start: bytes + start, count: i - start), as: UTF8.self)
                if !["true", "false", "null"].contains(word) { i = start; _ = try number() }
            }
            // A value ended: go on in its container, or close containers that are done.
            while let close = closers.last {
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    i += 1
                    if close == UInt8(ascii: "}") { try objectKey() }
                    break
                }
                try expect(close)
                closers.removeLast()
            }
        } while !closers.isEmpty
    }

    /// A member's key and its colon.
    private mutating func objectKey() throws {
        skipSpace()
        _ = try string()
        skipSpace()
        try expect(UInt8(ascii: ":"))
    }

    private func peek() -> UInt8? { i < count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while i < count, bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 || bytes[i] == 9 { i += 1 }
    }

    private mutating func expect(_ c: UInt8) throws {
        guard i < count else { throw fail("the file ends where '\(Character(Unicode.Scalar(c)))' was expected (truncated?)") }
        guard bytes[i] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
        i += 1
    }

    private func fail(_ problem: String) -> Failure { .syntax(offset: i, record: record, problem: problem) }
}
