import Foundation

/// A JSON value whose objects keep their keys in the order given: description.json is written
/// in the spec's order (Foundation's encoder can only sort keys or leave them in hash order).
indirect enum OrderedJSON {
    case null
    case bool(Bool)
    /// The number's text as written, e.g. "120.5".
    case number(String)
    case string(String)
    case array([OrderedJSON])
    case object([(key: String, value: OrderedJSON)])

    /// A float as Swift's shortest round-tripping text ("32.0", "0.91").
    static func number(_ value: Float) -> OrderedJSON { .number("\(value)") }

    static func optional(_ value: OrderedJSON?) -> OrderedJSON { value ?? .null }

    /// The text: objects and arrays of objects one member a line, indented by two spaces; arrays
    /// of plain values (a frame, traits) on one line. Strings are quoted by `encoder`.
    func text(indent: String = "", encoder: JSONEncoder) throws -> String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return try Self.quoted(s, encoder)
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            if items.allSatisfy(\.isPlain) { return "[" + (try items.map { try $0.text(encoder: encoder) }).joined(separator: ", ") + "]" }
            let inner = indent + "  "
            return "[\n" + (try items.map { inner + (try $0.text(indent: inner, encoder: encoder)) }).joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let inner = indent + "  "
            let lines = try members.map { inner + (try Self.quoted($0.key, encoder)) + ": " + (try $0.value.text(indent: inner, encoder: encoder)) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    private var isPlain: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// A JSON string literal as Foundation writes one.
    private static func quoted(_ s: String, _ encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(s), as: UTF8.self)
    }
}
