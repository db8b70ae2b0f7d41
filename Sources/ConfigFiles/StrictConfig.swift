import Foundation
import Yams

/// Why a config was refused: the file (or `--set`), the dotted key, and what was wrong.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public let source: String
    public let key: String
    public let problem: String
    public init(source: String, key: String, problem: String) {
        self.source = source
        self.key = key
        self.problem = problem
    }
    public var description: String { key.isEmpty ? "\(source): \(problem)" : "\(source): \(key): \(problem)" }
}

/// Reads YAML configs strictly, for any Codable config type with defaults: the file is laid
/// over the defaults, so a key the defaults do not have is an error (with the keys that would
/// fit), a value of the wrong type is an error naming its key, and so is an impossible value
/// (`problems`). Run configs and description configs share it.
public struct StrictConfig<Config: Codable & Sendable>: Sendable {
    public let defaults: Config
    /// Impossible values of a decoded config, each naming its dotted key.
    public let problems: @Sendable (Config) -> [(key: String, problem: String)]
    /// The allowed words of keys that take one of a few, by dotted key (for error messages).
    public let choices: [String: [String]]

    public init(defaults: Config, choices: [String: [String]] = [:], problems: @escaping @Sendable (Config) -> [(key: String, problem: String)]) {
        self.defaults = defaults
        self.choices = choices
        self.problems = problems
    }

    /// The config of `url` with `overrides` ("dotted.key=value", the value in YAML) applied after it.
    public func load(_ url: URL?, overrides: [String] = []) throws -> Config {
        guard let url else { return try load(yaml: nil, source: "defaults", overrides: overrides) }
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw ConfigError(source: url.path, key: "", problem: "cannot read the file")
        }
        return try load(yaml: text, source: url.path, overrides: overrides)
    }

    /// A config from YAML text (a file's, or as saved in a run folder; nil: the defaults alone)
    /// named `source` in errors, with `overrides` applied after it and the same checks.
    public func load(yaml text: String?, source: String, overrides: [String] = []) throws -> Config {
        var tree = try defaultsTree()
        // Which keys `--set` gave, so that an error in their values blames the --set argument,
        // not the file (whose line numbers would point at the argument's own "line 1").
        var setBy: [String: String] = [:]
        if let text { tree = try laid(yaml: text, over: tree, source: source) }
        for item in overrides {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw ConfigError(source: "--set", key: item, problem: "expected key=value, e.g. optimizer.learning_rate=0.01")
            }
            let keys = item[..<eq].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let valueText = String(item[item.index(after: eq)...])
            guard !keys.contains("") else { throw ConfigError(source: "--set", key: String(item[..<eq]), problem: "empty key part") }
            let value = try SafeYAML.compose(valueText, source: "--set \(keys.joined(separator: "."))") ?? Node.scalar(Node.Scalar("null", Tag(.null)))
            var nested: Node = value
            for key in keys.reversed() { nested = Node.mapping(Node.Mapping([(Node(key), nested)])) }
            tree = try merge(tree, nested, path: [], source: "--set")
            setBy[keys.joined(separator: ".")] = item
        }
        return try decode(tree, source: text == nil && !overrides.isEmpty ? "--set" : source, setBy: setBy)
    }

    /// The YAML text's keys laid over `tree`.
    func laid(yaml: String, over tree: Node, source: String) throws -> Node {
        let node = try SafeYAML.compose(yaml, source: source)
        return try node.map { try merge(tree, $0, path: [], source: source) } ?? tree
    }

    /// `config` as YAML, every key written out, numbers as a person writes them.
    public static func yaml(_ config: Config) throws -> String {
        guard let node = try Yams.compose(yaml: try YAMLEncoder().encode(config)) else { return "" }
        return try Yams.serialize(node: plainNumbers(node))
    }

    /// Numbers as a person writes them: Yams prints floats in scientific notation, and a
    /// float32 field as its double expansion to 15 digits (0.1 as 1.00000001490116e-1). A value
    /// that is such an expansion is written as the shortest text that reads back to its float32.
    static func plainNumbers(_ node: Node) -> Node {
        switch node {
        case .scalar(let s):
            guard s.style == .plain, s.string.contains(where: { $0 == "e" || $0 == "." }), let d = Double(s.string), d.isFinite else { return node }
            // Yams's 15 digits are within 5e-15 of the float32's double; a double field (0.9998) is not
            // that close to any float32 unless it is one, and then the float32's text is the same number.
            let asFloat = abs(Double(Float(d)) - d) <= abs(d) * 1e-14
            let text = asFloat ? "\(Float(d))" : "\(d)"
            return .scalar(Node.Scalar(text, s.tag, s.style))
        case .mapping(let m):
            return .mapping(Node.Mapping(m.map { ($0.key, plainNumbers($0.value)) }, m.tag, m.style))
        case .sequence(let q):
            return .sequence(Node.Sequence(q.map(plainNumbers), q.tag, q.style))
        }
    }

    /// The dotted keys at which two configs differ.
    public static func differingKeys(_ a: Config, _ b: Config) -> [String] {
        guard let na = try? Yams.compose(yaml: yaml(a)), let nb = try? Yams.compose(yaml: yaml(b)) else { return [] }
        var out: [String] = []
        func walk(_ x: Node?, _ y: Node?, _ path: [String]) {
            if case .mapping(let mx)? = x, case .mapping(let my)? = y {
                let keys = Set(mx.keys.compactMap(\.string) + my.keys.compactMap(\.string))
                for k in keys.sorted() { walk(mx[k], my[k], path + [k]) }
                return
            }
            let sx = x.flatMap { try? Yams.serialize(node: $0) }, sy = y.flatMap { try? Yams.serialize(node: $0) }
            if sx != sy { out.append(path.joined(separator: ".")) }
        }
        walk(na, nb, [])
        return out
    }

    /// Every key of the defaults, dotted (`optimizer.learning_rate`), with its default as YAML
    /// text, in the order the config type encodes them: what `--help` lists.
    public func defaultKeys() -> [(key: String, value: String)] {
        guard let tree = try? defaultsTree() else { return [] }
        var out: [(String, String)] = []
        func walk(_ node: Node, _ path: [String]) {
            if case .mapping(let m) = node, !m.isEmpty {
                for (k, v) in m { walk(v, path + [k.string ?? "?"]) }
                return
            }
            var text = (try? Yams.serialize(node: node).trimmingCharacters(in: .whitespacesAndNewlines)) ?? "?"
            if case .sequence(let q) = node {
                text = "[" + q.map { (try? Yams.serialize(node: $0).trimmingCharacters(in: .whitespacesAndNewlines)) ?? "?" }.joined(separator: ", ") + "]"
            }
            out.append((path.joined(separator: "."), text))
        }
        walk(tree, [])
        return out
    }

    func defaultsTree() throws -> Node {
        guard let node = try Yams.compose(yaml: try Self.yaml(defaults)) else { fatalError("the default config does not encode") }
        return node
    }
    /// `over` laid over `base`: mappings merge key by key; anything else replaces.
    func merge(_ base: Node, _ over: Node, path: [String], source: String) throws -> Node {
        guard case .mapping(var mapping) = base else { return over }
        let here = path.joined(separator: ".")
        guard case .mapping(let overMapping) = over else {
            if case .scalar(let s) = over, s.string == "null" || s.string == "~" || s.string.isEmpty { return base }
            throw ConfigError(source: source, key: here, problem: "expected a mapping of keys (\(known(mapping))), found \(describe(over))\(line(over))")
        }
        for (keyNode, value) in overMapping {
            guard let key = keyNode.string else {
                throw ConfigError(source: source, key: here, problem: "keys must be strings\(line(keyNode))")
            }
            let full = (path + [key]).joined(separator: ".")
            guard let existing = mapping[key] else {
                throw ConfigError(source: source, key: full, problem: "unknown key\(line(keyNode)); \(here.isEmpty ? "the top level" : here) has \(known(mapping))")
            }
            mapping[key] = try merge(existing, value, path: path + [key], source: source)
        }
        return .mapping(mapping)
    }

    func decode(_ tree: Node, source: String, setBy: [String: String] = [:]) throws -> Config {
        let text = try Yams.serialize(node: tree)
        let config: Config
        do { config = try YAMLDecoder().decode(Config.self, from: text) } catch let error as DecodingError {
            throw describe(error, tree: tree, source: source, setBy: setBy)
        }
        if let p = problems(config).first {
            throw ConfigError(source: Self.override(of: p.key, in: setBy).map { "--set \($0)" } ?? source, key: p.key, problem: p.problem)
        }
        return config
    }

    /// The `--set` argument that gave `key`, or a key above or below it.
    static func override(of key: String, in setBy: [String: String]) -> String? {
        if let item = setBy[key] { return item }
        return setBy.keys.sorted().first { key.hasPrefix($0 + ".") || key.hasPrefix($0 + "[") || $0.hasPrefix(key + ".") }.map { setBy[$0]! }
    }

    func describe(_ error: DecodingError, tree: Node, source: String, setBy: [String: String] = [:]) -> ConfigError {
        let general = describe(error, tree: tree, source: source)
        guard let item = Self.override(of: general.key, in: setBy) else { return general }
        // The value came from the command line: its "(line 1)" would mislead.
        let problem = general.problem.replacingOccurrences(of: #" \(line \d+\)"#, with: "", options: .regularExpression)
        return ConfigError(source: "--set \(item)", key: general.key, problem: problem)
    }

    func describe(_ error: DecodingError, tree: Node, source: String) -> ConfigError {
        func path(_ codingPath: [CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let i = key.intValue { text += "[\(i)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text
        }
        func value(_ codingPath: [CodingKey]) -> String {
            var node: Node? = tree
            for k in codingPath {
                if let i = k.intValue, case .sequence(let s)? = node { node = i < s.count ? s[i] : nil } else { node = node?.mapping?[k.stringValue] }
            }
            return node.map { "\(describe($0))\(line($0))" } ?? "nothing"
        }
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return ConfigError(source: source, key: path(context.codingPath), problem: "expected \(typeName(type)), found \(value(context.codingPath))")
        case .dataCorrupted(let context):
            let key = path(context.codingPath)
            let found = value(context.codingPath)
            if let words = choices[key] { return ConfigError(source: source, key: key, problem: "\(found) is not one of \(words.joined(separator: ", "))") }
            return ConfigError(source: source, key: key, problem: "cannot read \(found): \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            return ConfigError(source: source, key: path(context.codingPath + [key]), problem: "missing")
        @unknown default:
            return ConfigError(source: source, key: "", problem: "\(error)")
        }
    }

    func typeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        switch name {
        case "Int", "UInt64", "Int32": return "an integer"
        case "Float", "Double": return "a number"
        case "Bool": return "true or false"
        case "String": return "a string"
        default: return name.hasPrefix("Array") ? "a list" : name.hasPrefix("Dictionary") ? "a mapping" : name
        }
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    func line(_ node: Node) -> String { node.mark.map { " (line \($0.line))" } ?? "" }

    func known(_ mapping: Node.Mapping) -> String { mapping.keys.compactMap(\.string).joined(separator: ", ") }
}
