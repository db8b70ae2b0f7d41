import IconVocabulary

/// What a glyph is trained as: a type of the vocabulary, `other` (none of ours), or never used
/// (it looks like one of our types but means something else, and would teach a contradiction).
public enum GlyphAssignment: Equatable, Sendable {
    case type(IconType)
    case other
    case excluded
}

/// The mapping from glyph names to icon types (`GlyphTypes+Table.swift`): per family, the names
/// listed under each type and under `[exclude]`; a glyph listed nowhere is `other`.
public struct GlyphTypes: Sendable {
    /// By family, each listed name's assignment.
    let assignments: [GlyphFamily: [String: GlyphAssignment]]

    /// The shipped table.
    public static let shipped: GlyphTypes = try! GlyphTypes(parsing: table)

    /// Parses the table format: `[type]` or `[exclude]` headers, `family: name name ...` lines, `#` comments.
    public init(parsing text: String) throws {
        var out: [GlyphFamily: [String: GlyphAssignment]] = [:]
        var section: GlyphAssignment?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            func fail(_ problem: String) -> GlyphError { GlyphError(path: "glyph types, line \(number + 1)", problem: problem) }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                let name = String(line.dropFirst().dropLast())
                if name == "exclude" { section = .excluded; continue }
                guard let type = IconVocabulary.type(named: name), !type.isOther else { throw fail("[\(name)] is not a type of the vocabulary") }
                section = .type(type)
                continue
            }
            guard let section else { throw fail("a line before the first [section]") }
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let family = GlyphFamily(rawValue: parts[0].trimmingCharacters(in: .whitespaces)) else {
                throw fail("expected `family: name name ...` with a family of \(GlyphFamily.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            for name in parts[1].split(separator: " ") {
                if let earlier = out[family]?[String(name)], earlier != section { throw fail("\(family.rawValue) \(name) is listed twice") }
                out[family, default: [:]][String(name)] = section
            }
        }
        assignments = out
    }

    /// The assignment of a glyph known by `names` (its name and aliases) in `family`.
    public func assignment(of names: [String], in family: GlyphFamily) -> GlyphAssignment {
        let listed = assignments[family] ?? [:]
        for n in names { if let a = listed[n] { return a } }
        return .other
    }

    /// Every name the table lists for `family` (to check that the installed package has them all).
    public func listedNames(in family: GlyphFamily) -> [String] { (assignments[family] ?? [:]).keys.sorted() }
}
