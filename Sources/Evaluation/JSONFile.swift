import Foundation

/// Reading and writing the evaluation's own JSON files (metrics.json, thresholds.json).
///
/// Written pretty-printed with sorted keys, so that two evaluations diff well; a file that does
/// not decode is an `EvaluationInputError` naming the file and the field, not a bare DecodingError.
enum JSONFile {
    static func write<T: Encodable>(_ value: T, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch EncodingError.invalidValue(let bad, let context) {
            throw EvaluationInputError(path: url.path, position: position(context.codingPath), problem: "cannot be written: \(bad) (\(context.debugDescription))")
        }
        try data.write(to: url, options: .atomic)
    }

    static func read<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        guard let data = try? Data(contentsOf: url) else {
            throw EvaluationInputError(path: url.path, position: "file", problem: "cannot read the file")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            let (path, problem): ([CodingKey], String)
            switch error {
            case .keyNotFound(let key, let context): (path, problem) = (context.codingPath + [key], "is missing")
            case .valueNotFound(let expected, let context): (path, problem) = (context.codingPath, "is null, expected \(name(of: expected))")
            case .typeMismatch(let expected, let context): (path, problem) = (context.codingPath, "expected \(name(of: expected))")
            case .dataCorrupted(let context): (path, problem) = (context.codingPath, context.debugDescription)
            @unknown default: (path, problem) = ([], "\(error)")
            }
            throw EvaluationInputError(path: url.path, position: position(path), problem: problem)
        }
    }

    /// A coding path as a person writes it: `classes[2].gt_count`; `file` for the whole file.
    static func position(_ path: [CodingKey]) -> String {
        var out = ""
        for key in path {
            if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
        }
        return out.isEmpty ? "file" : out
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type: return "an integer"
        case is String.Type: return "a string"
        default: return "\(type)"
        }
    }
}
