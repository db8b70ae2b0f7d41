import Foundation
import Interchange

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
            let (path, problem) = InterchangeJSON.problem(of: error)
            throw EvaluationInputError(path: url.path, position: position(path), problem: problem)
        }
    }

    /// A coding path as a person writes it: `classes[2].gt_count`; `file` for the whole file.
    static func position(_ path: [CodingKey]) -> String {
        let field = InterchangeJSON.field(path)
        return field.isEmpty ? "file" : field
    }
}
