import Foundation

/// A file in another tool's format (COCO, Ultralytics) that is wrong or unsafe: names the file, the field or line, and the problem.
public struct InterchangeError: Error, CustomStringConvertible, Equatable {
    public let path: String
    /// Where in the file: a field such as `images[3].file_name`, a line, or empty for the whole file.
    public let field: String
    public let problem: String

    public init(path: String, field: String, problem: String) {
        self.path = path
        self.field = field
        self.problem = problem
    }

    public var description: String { field.isEmpty ? "\(path): \(problem)" : "\(path): \(field): \(problem)" }
}

/// JSON files of other tools: decoded into Codable types with errors naming the field, written atomically.
public enum InterchangeJSON {
    /// Decodes `url` as `T`; a malformed file is an `InterchangeError` naming the field (`annotations[2].bbox`).
    public static func read<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        guard let data = try? Data(contentsOf: url) else { throw InterchangeError(path: url.path, field: "", problem: "cannot read the file") }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            let (path, problem) = problem(of: error)
            throw InterchangeError(path: url.path, field: field(path), problem: problem)
        }
    }

    /// Where a decoding error is (its coding path) and what is wrong there, as a person says it.
    public static func problem(of error: DecodingError) -> (path: [CodingKey], problem: String) {
        func name(_ type: Any.Type) -> String {
            switch type {
            case is Double.Type, is Float.Type: "a number"
            case is Int.Type: "an integer"
            case is String.Type: "a string"
            default: "\(type)"
            }
        }
        switch error {
        case .keyNotFound(let key, let context): return (context.codingPath + [key], "is missing")
        case .valueNotFound(let expected, let context): return (context.codingPath, "is null, expected \(name(expected))")
        case .typeMismatch(let expected, let context): return (context.codingPath, "expected \(name(expected))")
        case .dataCorrupted(let context): return (context.codingPath, context.debugDescription)
        @unknown default: return ([], "\(error)")
        }
    }

    /// Encodes `value` compactly with sorted keys and writes it atomically.
    public static func write<T: Encodable>(_ value: T, to url: URL, pretty: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(value) } catch EncodingError.invalidValue(let bad, let context) {
            throw InterchangeError(path: url.path, field: field(context.codingPath), problem: "cannot be written: \(bad)")
        }
        try data.write(to: url, options: .atomic)
    }

    /// A coding path as a person writes it: `annotations[2].bbox`.
    public static func field(_ path: [CodingKey]) -> String {
        var out = ""
        for key in path {
            if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
        }
        return out
    }
}
