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

    /// The document of `text`, or an error naming `source` when it breaks a limit or is not YAML.
    public static func compose(_ text: String, source: String) throws -> Node? {
        guard text.utf8.count <= maximumBytes else {
            throw ConfigError(source: source, key: "", problem: "is \(text.utf8.count) bytes, more than the \(maximumBytes) a YAML file may have here")
        }
        if let problem = nestingProblem(text) { throw ConfigError(source: source, key: "", problem: problem + "; refused") }
        // The parser recurses once per level: it runs on a thread whose stack holds the deepest
        // document that fits in the size limit, and the depth is checked on what it built.
        final class Outcome: @unchecked Sendable { var result: Result<Node?, Error> = .success(nil) }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.result = Result { try Yams.compose(yaml: text) }
            done.signal()
        }
        thread.stackSize = 1 << 30
        thread.start()
        done.wait()
        let node: Node?
        do { node = try outcome.result.get() } catch { throw ConfigError(source: source, key: "", problem: "not valid YAML (\(error))") }
        if let node { try checkSize(node, source: source) }
        return node
    }

    /// Nesting too deep to parse at all, found by a scan of the text: flow collections ([ and {
    /// outside quotes and comments), compact block sequences (- - -) and indentation.
    static func nestingProblem(_ text: String) -> String? {
        var depth = 0, quote: UInt8? = nil, comment = false, previous: UInt8 = 10
        var lineStart = true, indent = 0, dashes = 0
        for byte in text.utf8 {
            if byte == 10 { comment = false; lineStart = true; indent = 0; dashes = 0; previous = byte; continue }
            if comment { continue }
            if let q = quote {
                if byte == q { quote = nil }
            } else if byte == 35 && (previous == 32 || previous == 10 || previous == 9) {  // #
                comment = true
            } else if byte == 34 || byte == 39 {  // " '
                quote = byte
            } else if byte == 91 || byte == 123 {  // [ {
                depth += 1
                if depth > maximumDepth { return "nests flow collections more than \(maximumDepth) levels deep" }
            } else if byte == 93 || byte == 125 {  // ] }
                depth = max(0, depth - 1)
            }
            if lineStart {
                if byte == 32 { indent += 1 } else if byte == 45 { dashes += 1 } else if byte != 9 { lineStart = false }  // ' ', '-'
                if indent > 4 * maximumDepth || dashes > maximumDepth { return "nests blocks more than \(maximumDepth) levels deep" }
            }
            previous = byte
        }
        return nil
    }

    /// Walks the tree (aliases expanded) until a limit is broken, so the walk itself stays bounded.
    static func checkSize(_ root: Node, source: String) throws {
        var stack: [(Node, Int)] = [(root, 1)]
        var nodes = 0
        while let (node, depth) = stack.popLast() {
            nodes += 1
            if nodes > maximumNodes {
                throw ConfigError(source: source, key: "", problem: "expands to more than \(maximumNodes) YAML nodes (aliases repeating aliases?); refused")
            }
            if depth > maximumDepth {
                throw ConfigError(source: source, key: "", problem: "nests more than \(maximumDepth) levels deep; refused")
            }
            switch node {
            case .scalar: break
            case .sequence(let s): for child in s { stack.append((child, depth + 1)) }
            case .mapping(let m): for (k, v) in m { stack.append((k, depth + 1)); stack.append((v, depth + 1)) }
            }
        }
    }
}
