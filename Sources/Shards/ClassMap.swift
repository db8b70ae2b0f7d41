import Foundation
import ConfigFiles
import Yams

/// Renames classes of two vocabularies onto common classes (evaluation.md, "Across vocabularies").
///
/// The YAML holds `common_classes` (a list) and two sections of renamings:
/// `source` (names used by ground truth / imported data) and
/// `default_vocabulary` (names used by a detector trained on the 13 default classes).
/// A name already in `common_classes` stays as it is; any other name maps to nothing.
public struct ClassMap: Equatable {
    public enum Section: String { case source, defaultVocabulary = "default_vocabulary" }

    public let commonClasses: [String]
    public let source: [String: String]
    public let defaultVocabulary: [String: String]

    public init(commonClasses: [String], source: [String: String], defaultVocabulary: [String: String]) {
        self.commonClasses = commonClasses
        self.source = source
        self.defaultVocabulary = defaultVocabulary
    }

    /// Reads and checks a class-map file.
    public init(contentsOf url: URL) throws {
        let path = url.path
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw ClassMapError(path: path, field: "-", problem: "cannot read the file") }
        let node: Any?
        do {
            _ = try SafeYAML.compose(text, source: path)  // limits first: an alias bomb must not expand
            node = try Yams.load(yaml: text)
        } catch let error as ConfigError {
            throw ClassMapError(path: path, field: error.key.isEmpty ? "-" : error.key, problem: error.problem)
        } catch { throw ClassMapError(path: path, field: "-", problem: "not valid YAML (\(error))") }
        guard let root = node as? [String: Any] else { throw ClassMapError(path: path, field: "-", problem: "expected a mapping at the top level") }
        let known: Set<String> = ["common_classes", "source", "default_vocabulary"]
        if let extra = root.keys.sorted().first(where: { !known.contains($0) }) {
            throw ClassMapError(path: path, field: extra, problem: "unknown key (expected common_classes, source, default_vocabulary)")
        }
        guard let common = root["common_classes"] as? [Any], !common.isEmpty, common.allSatisfy({ $0 is String }) else {
            throw ClassMapError(path: path, field: "common_classes", problem: "must be a non-empty list of class names")
        }
        let names = common.map { $0 as! String }
        guard Set(names).count == names.count else { throw ClassMapError(path: path, field: "common_classes", problem: "a class is listed twice") }
        func section(_ key: String) throws -> [String: String] {
            guard let value = root[key] else { return [:] }
            guard let dict = value as? [String: Any] else { throw ClassMapError(path: path, field: key, problem: "must map class names to common classes") }
            var out: [String: String] = [:]
            for (k, v) in dict {
                guard let target = v as? String else { throw ClassMapError(path: path, field: "\(key).\(k)", problem: "must name one common class") }
                guard names.contains(target) else {
                    throw ClassMapError(path: path, field: "\(key).\(k)", problem: "'\(target)' is not in common_classes \(names)")
                }
                out[k] = target
            }
            return out
        }
        self.init(commonClasses: names, source: try section("source"), defaultVocabulary: try section("default_vocabulary"))
    }

    /// The common class `name` becomes, or nil if it maps to nothing.
    public func map(_ name: String, from section: Section) -> String? {
        if let target = (section == .source ? source : defaultVocabulary)[name] { return target }
        return commonClasses.contains(name) ? name : nil
    }
}

/// A class-map file that cannot be used, naming the field at fault.
public struct ClassMapError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let field: String
    public let problem: String
    public var description: String { "\(path): field '\(field)': \(problem)" }
}
