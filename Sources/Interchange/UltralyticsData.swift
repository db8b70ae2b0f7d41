import ConfigFiles
import Foundation
import Yams

/// An Ultralytics `data.yaml`: the data set's root (`path`), its splits and its class names.
///
/// `train`, `val` and `test` each name a folder of images, a `.txt` list of images, or a list of
/// either, relative to `path` (which is relative to the YAML's folder; absent, the YAML's folder).
/// `names` is a list or an index -> name mapping (`{0: person, 1: car}`); without it, `nc` gives
/// `class_0`, `class_1`, ... as Ultralytics does. Other keys (`download`, ...) are ignored.
public struct UltralyticsData: Codable, Equatable {
    public var path: String?
    public var train: [String]?
    public var val: [String]?
    public var test: [String]?
    public var names: [String]

    /// The split keys this project reads, in order.
    public static let splitNames = ["train", "val", "test"]

    public init(path: String? = nil, train: [String]? = nil, val: [String]? = nil, test: [String]? = nil, names: [String]) {
        self.path = path
        self.train = train
        self.val = val
        self.test = test
        self.names = names
    }

    /// The entries of split `name` (`train`, `val` or `test`).
    public func entries(of name: String) -> [String]? {
        switch name {
        case "train": train
        case "val": val
        case "test": test
        default: nil
        }
    }

    /// Sets the entries of split `name` (`train`, `val` or `test`).
    public mutating func setEntries(_ entries: [String]?, of name: String) {
        switch name {
        case "train": train = entries
        case "val": val = entries
        case "test": test = entries
        default: preconditionFailure("split \(name) is not train, val or test")
        }
    }

    enum CodingKeys: String, CodingKey { case path, train, val, test, nc, names }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func entries(_ key: CodingKeys) throws -> [String]? {
            guard c.contains(key), try !c.decodeNil(forKey: key) else { return nil }
            if let one = try? c.decode(String.self, forKey: key) { return [one] }
            return try c.decode([String].self, forKey: key)
        }
        path = try c.decodeIfPresent(String.self, forKey: .path)
        train = try entries(.train)
        val = try entries(.val)
        test = try entries(.test)
        if let list = try? c.decode([String].self, forKey: .names) {
            names = list
        } else if let mapping = try? c.decode([String: String].self, forKey: .names) {
            var byIndex: [Int: String] = [:]
            for (key, name) in mapping {
                guard let i = Int(key), i >= 0 else {
                    throw DecodingError.dataCorruptedError(forKey: .names, in: c, debugDescription: "key '\(key)' is not a class index")
                }
                byIndex[i] = name
            }
            names = try (0..<byIndex.count).map { i in
                guard let name = byIndex[i] else {
                    throw DecodingError.dataCorruptedError(forKey: .names, in: c, debugDescription: "no name for class \(i) (indices must run 0, 1, 2, ...)")
                }
                return name
            }
        } else if !c.contains(.names), let nc = try c.decodeIfPresent(Int.self, forKey: .nc), nc >= 0 {
            names = (0..<nc).map { "class_\($0)" }
        } else {
            throw DecodingError.dataCorruptedError(forKey: .names, in: c, debugDescription: "must be a list of class names or a mapping index -> name")
        }
        // Two classes of one name would be one class to every reader of the shards.
        var firstIndex: [String: Int] = [:]
        for (i, name) in names.enumerated() {
            if let first = firstIndex.updateValue(i, forKey: name) {
                throw DecodingError.dataCorruptedError(forKey: .names, in: c, debugDescription: "classes \(first) and \(i) are both named '\(name)'")
            }
        }
    }

    /// Writes Ultralytics' own form, which a synthesised encoder cannot: a split of one entry as a
    /// string, no key for a split without one, `nc` counted from the names.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(path, forKey: .path)
        for (key, value) in [(CodingKeys.train, train), (.val, val), (.test, test)] {
            guard let value else { continue }
            if value.count == 1 { try c.encode(value[0], forKey: key) } else { try c.encode(value, forKey: key) }
        }
        try c.encode(names.count, forKey: .nc)
        try c.encode(names, forKey: .names)
    }

    /// Reads a data.yaml; a missing or malformed field is an `InterchangeError` naming it.
    public init(contentsOf url: URL) throws {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw InterchangeError(path: url.path, field: "", problem: "cannot read the file") }
        do {
            do { _ = try SafeYAML.compose(text, source: url.path) } catch let error as ConfigError {
                // Limits first: an alias bomb must not expand in the decoder.
                throw InterchangeError(path: url.path, field: error.key, problem: error.problem)
            }
            self = try YAMLDecoder().decode(UltralyticsData.self, from: text)
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                throw InterchangeError(path: url.path, field: "", problem: "not a YAML mapping (\(context.debugDescription))")
            case .dataCorrupted(let context):
                throw InterchangeError(path: url.path, field: InterchangeJSON.field(context.codingPath), problem: context.debugDescription)
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                throw InterchangeError(path: url.path, field: InterchangeJSON.field(context.codingPath), problem: "must be a string or a list of strings")
            case .keyNotFound(let key, _):
                throw InterchangeError(path: url.path, field: key.stringValue, problem: "is missing")
            @unknown default:
                throw InterchangeError(path: url.path, field: "", problem: "\(error)")
            }
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw InterchangeError(path: url.path, field: "", problem: "not valid YAML: \(error)")
        }
    }

    /// Writes the file atomically, `comment` (if any) as `#` lines above the keys.
    public func write(to url: URL, comment: String? = nil) throws {
        let body = try YAMLEncoder().encode(self)
        let header = comment.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)\n" }.joined() } ?? ""
        try Data((header + body).utf8).write(to: url, options: .atomic)
    }
}
