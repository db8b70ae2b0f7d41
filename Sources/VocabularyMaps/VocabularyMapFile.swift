import ConfigFiles
import Foundation
import Yams

extension VocabularyMap {
    /// Reads a vocabulary map file (YAML):
    ///
    ///     classes:
    ///       Text: text                                  # a class and its kind
    ///       ImageButton: {kind: icon, interactive: true} # a kind and what the class implies
    ///
    /// Refused, naming the file and the class: an unknown kind (with the kinds there are), a class
    /// given twice, an unknown key, a value that is neither a kind nor such a mapping.
    public init(contentsOf url: URL) throws {
        let path = url.path
        func fail(_ className: String?, _ problem: String) -> VocabularyMapError { VocabularyMapError(path: path, className: className, problem: problem) }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail(nil, "cannot read the file") }
        guard let text = String(data: data, encoding: .utf8) else { throw fail(nil, "is not UTF-8 text") }
        let root: Node?
        do { root = try SafeYAML.compose(text, source: path) } catch let error as ConfigError {
            // A class given twice is a key given twice under `classes`: name the class.
            if error.key.hasPrefix("classes.") { throw fail(String(error.key.dropFirst("classes.".count)), "is mapped twice: " + error.problem) }
            throw fail(nil, error.key.isEmpty ? error.problem : "\(error.key): \(error.problem)")
        }
        guard let top = root?.mapping else { throw fail(nil, "expected a mapping with the key `classes`") }
        for (key, _) in top where key.scalar?.string != "classes" {
            throw fail(nil, "unknown key '\(key.scalar?.string ?? "?")' (expected: classes)")
        }
        guard let classes = top["classes"]?.mapping, !classes.isEmpty else { throw fail(nil, "`classes` must map each class name to its kind") }
        var entries: [String: Entry] = [:]
        for (key, value) in classes {
            guard let name = key.scalar?.string, !name.isEmpty else { throw fail(nil, "a class name must be a non-empty string (line \(key.mark?.line ?? 0))") }
            entries[name] = try Self.entry(value, className: name, fail: fail)
        }
        self.init(name: path, classes: entries)
    }

    /// One class's entry: a kind, or `{kind: K, interactive: true|false}`.
    static func entry(_ node: Node, className: String, fail: (String?, String) -> VocabularyMapError) throws -> Entry {
        func kind(_ node: Node?) throws -> DescriptionKind {
            guard let word = node?.scalar?.string else { throw fail(className, "needs a kind (one of \(Self.kindList))") }
            guard let kind = DescriptionKind(rawValue: word) else {
                throw fail(className, "has the unknown kind '\(word)' (kinds: \(Self.kindList))")
            }
            return kind
        }
        if node.scalar != nil { return Entry(try kind(node)) }
        guard let fields = node.mapping else { throw fail(className, "must be a kind or {kind: ..., interactive: true|false}") }
        for (key, _) in fields where !["kind", "interactive"].contains(key.scalar?.string ?? "") {
            throw fail(className, "has the unknown key '\(key.scalar?.string ?? "?")' (expected: kind, interactive)")
        }
        var interactive: Bool?
        if let flag = fields["interactive"] {
            guard let value = flag.bool else { throw fail(className, "interactive must be true or false, not '\(flag.scalar?.string ?? "?")'") }
            interactive = value
        }
        return Entry(try kind(fields["kind"]), interactive: interactive)
    }

    static var kindList: String { DescriptionKind.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The map as a file reads it back: classes sorted, each kind (and `interactive` where it differs from the kind's).
    public func yaml() -> String {
        var lines = ["classes:"]
        for name in classes.keys.sorted() {
            let e = classes[name]!
            let key = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ? name : "\"\(name)\""
            lines.append(e.interactive == e.kind.interactiveByDefault ? "  \(key): \(e.kind.rawValue)"
                         : "  \(key): {kind: \(e.kind.rawValue), interactive: \(e.interactive)}")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
