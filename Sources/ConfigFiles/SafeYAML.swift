// libyaml's event parser, which Yams is built on (its C target): the depth scan needs events,
// which Yams does not expose. Debian's libyaml beside it would put a second copy in the binary.
import CYaml
import Foundation
import Yams

/// YAML from files we did not write (configs, class maps, data sets' data.yaml), read with limits
/// checked before anything expands: a few hundred bytes of nested aliases would otherwise expand
/// to gigabytes, and deep nesting would overflow the parser's stack.
public enum SafeYAML {
    /// Longest text read (configs and class maps are a few kilobytes).
    public static let maximumBytes = 1 << 20
    /// Deepest nesting of mappings and sequences.
    public static let maximumDepth = 64
    /// Most nodes once aliases are expanded.
    public static let maximumNodes = 100_000

    /// Stacks tried in turn for the parser's thread. `nestingProblem` refuses more than 64 levels
    /// before anything recurses, and the deepest documents it lets through (every kind of nesting)
    /// needed 191 KiB in a debug build (`SafeYAMLTests` measures it): 8 MiB, the usual main-thread
    /// stack, is address space only until touched; 2 MiB, still ten times the need, starts where
    /// `ulimit -v` leaves little room (the 1 GiB stack used before could not start at 1.6 GB).
    public static let parserStackSizes = [8 << 20, 2 << 20]

    /// The document of `text`, or an error naming `source` when it breaks a limit, gives a key twice
    /// in one mapping, or is not YAML.
    public static func compose(_ text: String, source: String) throws -> Node? {
        try compose(text, source: source, stackSizes: parserStackSizes)
    }

    /// `compose` with the parser's thread started with the first of `stackSizes` that can start.
    static func compose(_ text: String, source: String, stackSizes: [Int]) throws -> Node? {
        guard text.utf8.count <= maximumBytes else {
            throw ConfigError(source: source, key: "", problem: "is \(text.utf8.count) bytes, more than the \(maximumBytes) a YAML file may have here")
        }
        if let problem = nestingProblem(text) { throw ConfigError(source: source, key: "", problem: problem + "; refused") }
        // The parser recurses once per level: it runs on a thread of its own whose stack holds the
        // deepest document the scan lets through. The tree is checked there too, so that a tree too
        // deep is also freed (recursively) on that stack, and only a checked tree comes back.
        let outcome = Outcome()
        try ParserThread.run(stackSizes: stackSizes, source: source) {
            outcome.result = Result {
                let node: Node?
                do { node = try Yams.compose(yaml: text) } catch { throw ConfigError(source: source, key: "", problem: "not valid YAML (\(error))") }
                if let node { try check(node, source: source) }
                return node
            }
        }
        return try outcome.result.get()
    }

    /// What the parser's thread hands back.
    private final class Outcome: @unchecked Sendable {
        var result: Result<Node?, Error> = .success(nil)
    }

    /// Nesting too deep to compose, found by libyaml's event parser: a loop over events whose
    /// state lives on the heap, so any depth costs no stack, and it stops at the first collection
    /// over the limit. A text scan cannot be sure which `[` is structure (a quote opened in a plain
    /// scalar, `? ? ?` and `- ? -` nesting on one line). Syntax errors are left to the composer,
    /// whose message names the line.
    static func nestingProblem(_ text: String) -> String? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return "cannot be scanned (libyaml could not start: out of memory)" }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer -> String? in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var depth = 0
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    depth += 1
                    if depth > maximumDepth {
                        return "nests more than \(maximumDepth) levels deep (line \(event.start_mark.line + 1))"
                    }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT: depth -= 1
                case YAML_STREAM_END_EVENT: return nil
                default: break
                }
            }
            return nil
        }
    }

    /// Walks the tree (aliases expanded) until a limit is broken, so the walk itself stays bounded,
    /// and refuses a key given twice in one mapping: YAML keeps the last silently, and the first
    /// was as surely meant.
    static func check(_ root: Node, source: String) throws {
        // Where each value sits: its parent's place and its key or [index]. Dotted keys are made
        // only for an error, from these.
        var places: [(parent: Int, name: String)] = []
        func dotted(_ place: Int, _ last: String) -> String {
            var names = [last], at = place
            while at >= 0 { names.append(places[at].name); at = places[at].parent }
            return names.reversed().reduce("") { $1.hasPrefix("[") || $0.isEmpty ? $0 + $1 : $0 + "." + $1 }
        }
        var stack: [(node: Node, depth: Int, place: Int)] = [(root, 1, -1)]
        var nodes = 0
        while let (node, depth, place) = stack.popLast() {
            nodes += 1
            if nodes > maximumNodes {
                throw ConfigError(source: source, key: "", problem: "expands to more than \(maximumNodes) YAML nodes (aliases repeating aliases?); refused")
            }
            if depth > maximumDepth {
                throw ConfigError(source: source, key: "", problem: "nests more than \(maximumDepth) levels deep; refused")
            }
            switch node {
            case .scalar: break
            case .sequence(let s):
                for (i, child) in s.enumerated() {
                    places.append((place, "[\(i)]"))
                    stack.append((child, depth + 1, places.count - 1))
                }
            case .mapping(let m):
                var firstLine: [String: Int] = [:]
                for (k, v) in m {
                    let name = k.scalar?.string ?? "?"
                    if k.scalar != nil, let first = firstLine.updateValue(k.mark?.line ?? 0, forKey: name) {
                        throw ConfigError(source: source, key: dotted(place, name),
                                          problem: "given twice in one mapping (lines \(first) and \(k.mark?.line ?? 0)); YAML would keep the last silently: keep one")
                    }
                    stack.append((k, depth + 1, place))
                    places.append((place, name))
                    stack.append((v, depth + 1, places.count - 1))
                }
            }
        }
    }
}
