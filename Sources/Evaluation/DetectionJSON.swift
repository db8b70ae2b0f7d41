import Foundation

/// A parser for detection files: a JSON array of objects with `image_id`,
/// `class`, `score` and `box`.
///
/// Written for this one schema rather than through JSONSerialization: it
/// parses 200,000 detections in a fraction of a second, and it reports the
/// record at fault for every error, including numbers too large for a double
/// (e.g. 1e999, which becomes infinity and is refused as not finite).
struct DetectionJSONParser {
    /// A string value: where its bytes lie in the file when it has no escapes (no String is
    /// made for it: most records repeat the image and class of the one before), else decoded.
    enum Text {
        case bytes(UnsafeBufferPointer<UInt8>)
        case decoded(String)

        var string: String {
            switch self {
            case .bytes(let b): return String(decoding: b, as: UTF8.self)
            case .decoded(let s): return s
            }
        }

        /// Whether this is the same text as `other`.
        func equals(_ other: Text) -> Bool {
            switch (self, other) {
            case (.bytes(let a), .bytes(let b)): return a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            default: return string == other.string
            }
        }
    }

    /// One record as written, before names are resolved.
    struct Record {
        var imageID: Text?
        var className: Text?
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
        /// A record well-formed as JSON but wrong for the schema, thrown by a consumer.
        case record(Int, problem: String)
    }

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var i = 0
    private var record: Int? = nil

    /// Parses `data`, calling `each` with every record in order (the bytes of `Text` values are valid during the call).
    static func parse(_ data: Data, _ each: (Int, Record) throws -> Void) throws {
        try data.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            guard let base = p.baseAddress else {
                var empty = DetectionJSONParser(bytes: UnsafePointer(bitPattern: 1)!, count: 0)
                return try empty.parse(each)
            }
            var parser = DetectionJSONParser(bytes: base, count: p.count)
            try parser.parse(each)
        }
    }

    /// Parses `data` in two halves at once, one per core, each half's records going to a consumer
    /// of its own (`makeConsumer`), returned in file order; record numbers passed to `each` count
    /// from the start of the consumer's half, and `offsets[k]` gives the records before half k.
    ///
    /// The second half starts at a guessed record boundary near the middle; the first half checks
    /// the guess by reaching it as a record boundary itself. A guess that falls inside a string
    /// is found out that way, and the first half then parses the whole file alone. A syntax error
    /// is the first in the file either way.
    static func parseInHalves<Consumer>(
        _ data: Data, makeConsumer: () -> Consumer, _ each: (inout Consumer, Int, Record) throws -> Void
    ) throws -> (consumers: [Consumer], offsets: [Int]) {
        try withoutActuallyEscaping(each) { each in try data.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            guard let base = p.baseAddress, p.count >= 1 << 20, let middle = guessRecordStart(base, count: p.count) else {
                var consumer = makeConsumer()
                try parse(data) { try each(&consumer, $0, $1) }
                return ([consumer], [0])
            }
            var first = makeConsumer(), second = makeConsumer()
            var firstResult: Result<(records: Int, stopped: Bool), Error> = .success((0, false))
            var secondResult: Result<Int, Error> = .success(0)
            withUnsafeMutablePointer(to: &first) { first in withUnsafeMutablePointer(to: &second) { second in
                withUnsafeMutablePointer(to: &firstResult) { firstResult in withUnsafeMutablePointer(to: &secondResult) { secondResult in
                    let shared = Halves(base: base, count: p.count, first: first, second: second, firstResult: firstResult,
                                        secondResult: secondResult, each: each)
                    DispatchQueue.concurrentPerform(iterations: 2) { half in
                        var parser = DetectionJSONParser(bytes: shared.base, count: shared.count)
                        if half == 0 {
                            shared.firstResult.pointee = Result { try parser.parse(stoppingAt: middle) { try shared.each(&shared.first.pointee, $0, $1) } }
                        } else {
                            parser.i = middle
                            shared.secondResult.pointee = Result { try parser.parseElements { try shared.each(&shared.second.pointee, $0, $1) } }
                        }
                    }
                } }
            } }
            let (records, stopped) = try firstResult.get()
            guard stopped else { return ([first], [0]) }
            do { _ = try secondResult.get() } catch Failure.syntax(let offset, let record, let problem) {
                throw Failure.syntax(offset: offset, record: record.map { $0 + records }, problem: problem)
            } catch Failure.record(let record, let problem) {
                throw Failure.record(record + records, problem: problem)
            }
            return ([first, second], [0, records])
        } }
    }

    /// What the two workers share: the file, and the consumer and result each writes alone.
    private struct Halves<Consumer>: @unchecked Sendable {
        let base: UnsafePointer<UInt8>, count: Int
        let first, second: UnsafeMutablePointer<Consumer>
        let firstResult: UnsafeMutablePointer<Result<(records: Int, stopped: Bool), Error>>
        let secondResult: UnsafeMutablePointer<Result<Int, Error>>
        let each: (inout Consumer, Int, Record) throws -> Void
    }

    /// The offset of a `{` near the middle that follows `}` and `,` (spaces aside): where a record
    /// starts unless the three lie inside a string; nil if there is none.
    private static func guessRecordStart(_ b: UnsafePointer<UInt8>, count: Int) -> Int? {
        func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 13 || c == 9 }
        var j = count / 2
        while j < count - 1 {
            if b[j] == UInt8(ascii: "{") {
                var k = j - 1
                while k > 0 && isSpace(b[k]) { k -= 1 }
                if b[k] == UInt8(ascii: ",") {
                    k -= 1
                    while k > 0 && isSpace(b[k]) { k -= 1 }
                    if b[k] == UInt8(ascii: "}") { return j }
                }
            }
            j += 1
        }
        return nil
    }

    /// The first record of `data`, or nil for an empty array or a file that fails before its first record ends.
    static func firstRecord(_ data: Data) -> (hasCOCOKeys: Bool, hasClass: Bool, hasBox: Bool)? {
        struct Stop: Error {}
        var first: (Bool, Bool, Bool)?
        do { try parse(data) { _, r in first = (r.hasCOCOKeys, r.className != nil || r.classIndex != nil, r.boxCount >= 0); throw Stop() } } catch {}
        return first
    }

    private init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    private mutating func parse(_ each: (Int, Record) throws -> Void) throws {
        _ = try parse(stoppingAt: nil, each)
    }

    /// Parses the whole array, or only up to `stop` if a record starts exactly there: returns the
    /// records parsed and whether it stopped there.
    private mutating func parse(stoppingAt stop: Int?, _ each: (Int, Record) throws -> Void) throws -> (records: Int, stopped: Bool) {
        skipSpace()
        try expect(UInt8(ascii: "["))
        skipSpace()
        if peek() == UInt8(ascii: "]") { i += 1; try end(); return (0, false) }
        return try elements(from: 0, stoppingAt: stop, each)
    }

    /// Parses records from a record's start to the end of the array and the file (the second half).
    private mutating func parseElements(_ each: (Int, Record) throws -> Void) throws -> Int {
        try elements(from: 0, stoppingAt: nil, each).records
    }

    private mutating func elements(from first: Int, stoppingAt stop: Int?, _ each: (Int, Record) throws -> Void) throws -> (records: Int, stopped: Bool) {
        var index = first
        while true {
            record = index
            try each(index, try object())
            index += 1
            skipSpace()
            guard i < count else { throw fail("the file ends inside the array (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                if i == stop { return (index, true) }
                continue
            }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw fail("expected ',' or ']' after a detection")
        }
        record = nil
        try end()
        return (index, false)
    }

    private mutating func end() throws {
        skipSpace()
        if i != count { throw fail("unexpected content after the array") }
    }

    private mutating func object() throws -> Record {
        skipSpace()
        if let r = canonicalRecord() { return r }
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
                if peek() == UInt8(ascii: "\"") { r.imageID = try text() } else { r.imageID = .decoded(formatID(try number())) }
            case .className:
                if peek() == UInt8(ascii: "\"") { r.className = try text() } else { r.classIndex = try number() }
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
        switch j - start {
        case 3: return equals("box") ? .box : .other
        case 4: return equals("bbox") ? .coco : .other
        case 5: return equals("class") ? .className : equals("score") ? .score : .other
        case 8: return equals("image_id") ? .imageID : .other
        case 11: return equals("category_id") ? .coco : .other
        default: return .other
        }
    }

    private func formatID(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }

    private mutating func number() throws -> Double {
        if let v = plainDecimal() { return v }
        let start = i
        while i < count, let c = Optional(bytes[i]),
              (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            i += 1
        }
        guard i > start else { throw fail("expected a number") }
        if let v = fastNumber(start, i) { return v }
        // strtod on a NUL-terminated copy (the file is read where it lies, with no terminator):
        // 1e999 becomes inf instead of an error.
        var digits = [CChar](repeating: 0, count: i - start + 1)
        for k in 0..<(i - start) { digits[k] = CChar(bitPattern: bytes[start + k]) }
        var parsed = 0
        let value = digits.withUnsafeMutableBufferPointer { d -> Double in
            var end: UnsafeMutablePointer<CChar>? = nil
            let v = strtod(d.baseAddress!, &end)
            parsed = end.map { $0 - d.baseAddress! } ?? 0
            return v
        }
        guard parsed == i - start else { i = start; throw fail("malformed number") }
        return value
    }

    /// The common case in one pass: `-?digits(.digits)?` with at most 19 significant digits and 22
    /// after the point, ended by a character that cannot continue a number, correctly rounded
    /// (Clinger's fast path, or `DecimalToDouble`). nil leaves `i` where it was, for the general path.
    @inline(__always)
    private mutating func plainDecimal() -> Double? {
        var p = i
        guard let v = plainDecimal(at: &p) else { return nil }
        i = p
        return v
    }

    /// `plainDecimal()` from `p`, moving `p` past the number when it returns one.
    @inline(__always)
    private func plainDecimal(at position: inout Int) -> Double? {
        var p = position
        let negative = p < count && bytes[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        var mantissa: UInt64 = 0, significant = 0, fraction = 0
        let first = p
        digits(&p, &mantissa, &significant)
        guard p > first else { return nil }
        if p < count && bytes[p] == UInt8(ascii: ".") {
            p += 1
            let digitsStart = p
            digits(&p, &mantissa, &significant)
            fraction = p - digitsStart
            guard fraction > 0 else { return nil }
        }
        guard significant <= 19, fraction <= 22 else { return nil }
        if p < count {
            let c = bytes[p]
            guard c != UInt8(ascii: "e") && c != UInt8(ascii: "E") && c != UInt8(ascii: "+") && c != UInt8(ascii: "-") && c != UInt8(ascii: ".") else { return nil }
        }
        // Clinger's fast path where the mantissa is exact in a double, else the checked quotient.
        let v: Double
        if mantissa <= 1 << 53 {
            v = Double(mantissa) / DecimalToDouble.powersOfTen[fraction]
        } else {
            guard let q = DecimalToDouble.quotient(mantissa, fraction) else { return nil }
            v = q
        }
        position = p
        return negative ? -v : v
    }

    /// Reads a run of decimal digits into `mantissa` (wrapping past 19 digits: the caller refuses
    /// more than 18 significant ones), eight at a time where eight follow (SWAR: one 64-bit load,
    /// a check and three multiplies), counting the digits from the first non-zero one.
    @inline(__always)
    private func digits(_ p: inout Int, _ mantissa: inout UInt64, _ significant: inout Int) {
        while p + 8 <= count {
            let chunk = UnsafeRawPointer(bytes + p).loadUnaligned(as: UInt64.self).littleEndian
            // Every byte in '0'...'9': its high nibble is 3, and adding 6 keeps it 3.
            let high = chunk & 0xF0F0_F0F0_F0F0_F0F0, carried = (chunk &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
            guard high == 0x3030_3030_3030_3030 && carried == 0x3030_3030_3030_3030 else { break }
            var v = chunk &- 0x3030_3030_3030_3030
            v = (v &* 10) &+ (v >> 8)
            let pairs: UInt64 = 0x0000_00FF_0000_00FF
            let evenPairs: UInt64 = (v & pairs) &* Self.swarHundreds
            let oddPairs: UInt64 = ((v >> 16) & pairs) &* Self.swarUnits
            v = (evenPairs &+ oddPairs) >> 32
            if mantissa != 0 {
                significant += 8
            } else if v != 0 {
                var d = 1, t = v
                while t >= 10 { t /= 10; d += 1 }
                significant += d
            }
            mantissa = mantissa &* 100_000_000 &+ v
            p += 8
        }
        while p < count {
            let d = bytes[p] &- 48
            guard d <= 9 else { break }
            if mantissa != 0 || d != 0 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(d)
            p += 1
        }
    }

    /// A record laid out as `uidetect` writes it (`{"image_id": "...", "class": "...", "score": S, "box": [X, Y, X, Y]}`,
    /// no escapes, plain decimals), read without looking keys up; nil, with `i` untouched, for any other layout.
    private mutating func canonicalRecord() -> Record? {
        var p = i
        @inline(__always) func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard p + n <= count, memcmp(bytes + p, word.utf8Start, n) == 0 else { return false }
            p += n
            return true
        }
        @inline(__always) func text() -> UnsafeBufferPointer<UInt8>? {
            let start = p
            while p < count && bytes[p] != UInt8(ascii: "\"") && bytes[p] != UInt8(ascii: "\\") { p += 1 }
            guard p < count && bytes[p] == UInt8(ascii: "\"") else { return nil }
            defer { p += 1 }
            return UnsafeBufferPointer(start: bytes + start, count: p - start)
        }
        guard literal("{\"image_id\": \""), let image = text(), literal(", \"class\": \""), let name = text(),
              literal(", \"score\": "), let score = plainDecimal(at: &p), literal(", \"box\": ["),
              let x0 = plainDecimal(at: &p), literal(", "), let y0 = plainDecimal(at: &p), literal(", "),
              let x1 = plainDecimal(at: &p), literal(", "), let y1 = plainDecimal(at: &p), literal("]}") else { return nil }
        i = p
        return Record(imageID: .bytes(image), className: .bytes(name), score: score, box: (x0, y0, x1, y1), boxCount: 4)
    }

    /// The multipliers that fold four two-digit pairs into one 8-digit number (Lemire's SWAR digits).
    private static let swarHundreds: UInt64 = 100 + (1_000_000 << 32)
    private static let swarUnits: UInt64 = 1 + (10_000 << 32)


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
        let v = exponent < 0 ? m / DecimalToDouble.powersOfTen[-exponent] : m * DecimalToDouble.powersOfTen[exponent]
        return negative ? -v : v
    }

    /// A string value, as its bytes where it has no escapes.
    private mutating func text() throws -> Text {
        try expect(UInt8(ascii: "\""))
        var j = i
        while j < count && bytes[j] != UInt8(ascii: "\"") && bytes[j] != UInt8(ascii: "\\") { j += 1 }
        if j < count && bytes[j] == UInt8(ascii: "\"") {
            defer { i = j + 1 }
            return .bytes(UnsafeBufferPointer(start: bytes + i, count: j - i))
        }
        i -= 1
        return .decoded(try string())
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
