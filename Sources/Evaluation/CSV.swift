import Foundation

/// Comma-separated values as RFC 4180 defines them, for pr_curves.csv and confusion_matrix.csv.
///
/// A field is quoted when it holds a comma, a quote or a line break, and a quote inside a quoted
/// field is doubled. Lines are written ending in "\n" (as the files always were); "\r\n" is read too.
public enum CSV {
    /// One record of a file with the line it starts on (1-based), so that errors can point at it.
    public struct Record: Equatable, Sendable {
        public var line: Int
        public var fields: [String]

        /// A record starting on `line`.
        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }
    }

    /// `rows` as the text of a file, one line per row.
    public static func text(_ rows: [[String]]) -> String {
        var out = ""
        out.reserveCapacity(rows.reduce(0) { $0 + $1.reduce($1.count) { $0 + $1.utf8.count } })
        for row in rows {
            for (k, value) in row.enumerated() {
                if k > 0 { out += "," }
                out += field(value)
            }
            out += "\n"
        }
        return out
    }

    /// `value` as one field: quoted only where a reader would otherwise split it.
    static func field(_ value: String) -> String {
        // Bytes, not Characters: "\r\n" is one Character and would compare unequal to both (and bytes are fast).
        let needsQuotes = value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        return needsQuotes ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }

    /// Writes `rows` to `url` atomically.
    static func write(_ rows: [[String]], to url: URL) throws {
        try Data(text(rows).utf8).write(to: url, options: .atomic)
    }

    /// The records of the file at `url`.
    public static func records(contentsOf url: URL) throws -> [Record] {
        guard let data = try? Data(contentsOf: url) else {
            throw EvaluationInputError(path: url.path, position: "file", problem: "cannot read the file")
        }
        return try records(data, path: url.path)
    }

    /// The records of `data`, the file at `path` (named in errors). Empty lines are skipped.
    public static func records(_ data: Data, path: String) throws -> [Record] {
        let bytes = [UInt8](data)
        let n = bytes.count
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var records: [Record] = []
        var line = 1
        var i = 0
        func fail(_ line: Int, _ problem: String) -> EvaluationInputError {
            EvaluationInputError(path: path, position: "line \(line)", problem: problem)
        }
        // The length of the line ending at i ("\n" or "\r\n"), 0 if there is none.
        func lineEnd(_ i: Int) -> Int {
            if i < n && bytes[i] == lf { return 1 }
            if i + 1 < n && bytes[i] == cr && bytes[i + 1] == lf { return 2 }
            return 0
        }
        while i < n {
            if lineEnd(i) > 0 { i += lineEnd(i); line += 1; continue }
            let start = line
            var fields: [String] = []
            while true {
                if i < n && bytes[i] == quote {
                    let opened = line
                    var value: [UInt8] = []
                    i += 1
                    while true {
                        guard i < n else { throw fail(opened, "a quoted field is not closed before the end of the file") }
                        if bytes[i] == quote {
                            // A doubled quote is a quote inside the field; a single one closes it.
                            if i + 1 < n && bytes[i + 1] == quote { value.append(quote); i += 2; continue }
                            i += 1
                            break
                        }
                        if bytes[i] == lf { line += 1 }
                        value.append(bytes[i])
                        i += 1
                    }
                    guard i == n || bytes[i] == comma || lineEnd(i) > 0 else {
                        throw fail(line, "text after the closing quote of a field (a quote inside a quoted field is written twice)")
                    }
                    fields.append(String(decoding: value, as: UTF8.self))
                } else {
                    let first = i
                    while i < n && bytes[i] != comma && lineEnd(i) == 0 {
                        guard bytes[i] != quote else { throw fail(line, "a quote inside an unquoted field (such a field must be quoted and the quote doubled)") }
                        i += 1
                    }
                    fields.append(String(decoding: bytes[first..<i], as: UTF8.self))
                }
                if i < n && bytes[i] == comma { i += 1; continue }
                if i < n { i += lineEnd(i); line += 1 }
                break
            }
            records.append(Record(line: start, fields: fields))
        }
        return records
    }
}
