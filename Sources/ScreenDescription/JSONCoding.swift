import Foundation
import Outputs

/// Why a file of this module (description.json, an icon model, description metrics) could not be
/// read or written: the file, the place in it (`[2].elements[0].frame`, or `file`), and what was wrong.
public struct DescriptionFileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let position: String
    public let problem: String

    /// An error with every part given.
    public init(path: String, position: String, problem: String) {
        self.path = path
        self.position = position
        self.problem = problem
    }

    public var description: String { "\(path): \(position): \(problem)" }
}

/// JSON reading and writing for this module's files: keys sorted, and every decoding failure
/// turned into a `DescriptionFileError`.
enum JSONCoding {
    static func encode<T: Encodable>(_ value: T, path: String) throws -> Data {
        let encoder = JSONEncoder()
        // Sorted: Foundation's encoder on Linux writes keys in hash order, which changes between runs.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch EncodingError.invalidValue(let bad, let context) {
            throw DescriptionFileError(path: path, position: position(context.codingPath), problem: "cannot be written: \(bad) (\(context.debugDescription))")
        }
    }

    /// Writes atomically (a temporary file, then a rename).
    static func write<T: Encodable>(_ value: T, to url: URL) throws {
        let data = try encode(value, path: url.path)
        do { try data.write(to: url, options: .atomic) } catch {
            throw DescriptionFileError(path: url.path, position: "file", problem: "cannot write the file (\(FileProblem.reason(error)))")
        }
    }

    static func read(_ url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw DescriptionFileError(path: url.path, position: "file", problem: "cannot read the file (\(FileProblem.reason(error)))")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            let (at, problem): ([CodingKey], String)
            switch error {
            case .keyNotFound(let key, let context): (at, problem) = (context.codingPath + [key], "is missing")
            case .valueNotFound(let expected, let context): (at, problem) = (context.codingPath, "is null, expected \(name(of: expected))")
            case .typeMismatch(let expected, let context): (at, problem) = (context.codingPath, "expected \(name(of: expected))")
            case .dataCorrupted(let context):
                // Every check of ours names a key, so a complaint about the whole file is the parser's.
                (at, problem) = (context.codingPath, context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription)
            @unknown default: (at, problem) = ([], "\(error)")
            }
            throw DescriptionFileError(path: path, position: position(at), problem: problem)
        }
    }

    /// A coding path as a person writes it: `[2].elements[0].frame`; `file` for the whole file.
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
        case is Bool.Type: return "true or false"
        default: return String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }
}

/// Any key a JSON object holds, for telling the keys a type knows from the ones it does not.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

extension Decoder {
    /// Refuses an object holding a key that `keys` does not list: a file that does not match the spec is an error, not a guess.
    func rejectUnknownKeys<K: CodingKey & CaseIterable>(_ keys: K.Type) throws {
        let c = try container(keyedBy: AnyCodingKey.self)
        let known = K.allCases.map(\.stringValue)
        if let extra = c.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [extra], debugDescription: "unknown key (expected \(known.joined(separator: ", ")))"))
        }
    }
}
