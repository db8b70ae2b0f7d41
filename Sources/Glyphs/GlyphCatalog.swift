import Foundation
import IconVocabulary

/// One glyph of an icon package: its family, its names (the first is the one the mapping
/// lists, aliases after it), what it is trained as, and its drawing.
public struct Glyph: Sendable {
    public var family: GlyphFamily
    public var names: [String]
    public var assignment: GlyphAssignment
    public var outline: VectorGlyph
    /// "bootstrap/house-fill", for messages and pages.
    public var id: String { "\(family.rawValue)/\(names[0])" }
}

/// Every glyph of the installed icon packages with what it means (`GlyphTypes`), read once;
/// immutable afterwards, so one catalog serves every thread.
public struct GlyphCatalog: Sendable {
    public let glyphs: [Glyph]
    /// Indices into `glyphs` by type (vocabulary order; `other` last), excluded glyphs in none.
    public let byType: [[Int]]

    /// Reads the `families` (all four by default); a missing package is an error naming it and saying how to install it.
    public init(families: [GlyphFamily] = GlyphFamily.allCases, types: GlyphTypes = .shipped) throws {
        var glyphs: [Glyph] = []
        for family in families { glyphs += try Self.read(family, types: types) }
        self.glyphs = glyphs
        var byType = [[Int]](repeating: [], count: IconVocabulary.types.count)
        for (k, g) in glyphs.enumerated() {
            switch g.assignment {
            case .type(let t): byType[t.index].append(k)
            case .other: byType[IconVocabulary.other.index].append(k)
            case .excluded: break
            }
        }
        self.byType = byType
    }

    /// The glyphs of `type` (for `other`, those that mean none of ours), optionally of one family.
    public func glyphs(of type: IconType, family: GlyphFamily? = nil) -> [Glyph] {
        byType[type.index].map { glyphs[$0] }.filter { family == nil || $0.family == family }
    }

    static func read(_ family: GlyphFamily, types: GlyphTypes) throws -> [Glyph] {
        switch family.source {
        case .svgFolder(let folder):
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                throw GlyphError(path: folder, problem: "missing: install Debian's \(family.package) (scripts/setup.sh does)")
            }
            return try files.filter { $0.hasSuffix(".svg") }.sorted().map { file in
                let name = String(file.dropLast(4))
                return Glyph(family: family, names: [name], assignment: types.assignment(of: [name], in: family),
                             outline: try SVGGlyph.read(URL(fileURLWithPath: folder).appendingPathComponent(file)))
            }
        case .font(let file, let namesFile, let format):
            guard FileManager.default.fileExists(atPath: file), let text = try? String(contentsOfFile: namesFile, encoding: .utf8) else {
                throw GlyphError(path: FileManager.default.fileExists(atPath: file) ? namesFile : file,
                                 problem: "missing: install Debian's \(family.package) (scripts/setup.sh does)")
            }
            let named = format == .scssMap ? scssNames(text) : cssNames(text)
            // One glyph per codepoint; the name the mapping lists (if any) first, then the other aliases.
            var namesByCode: [UInt32: [String]] = [:]
            for (name, code) in named { namesByCode[code, default: []].append(name) }
            let listed = Set(types.listedNames(in: family))
            let outlines = try FontGlyphs.read(font: file, codepoints: Array(namesByCode.keys))
            return namesByCode.keys.sorted().compactMap { code in
                guard let outline = outlines[code] else { return nil }
                let names = namesByCode[code]!.sorted { (listed.contains($0) ? 0 : 1, $0) < (listed.contains($1) ? 0 : 1, $1) }
                return Glyph(family: family, names: names, assignment: types.assignment(of: names, in: family), outline: outline)
            }
        }
    }

    /// `"name": e5c4` pairs of Material's `_variables.scss`.
    static func scssNames(_ text: String) -> [(String, UInt32)] {
        let pattern = try! NSRegularExpression(pattern: #""([^"]+)":\s*([0-9a-fA-F]+)"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            guard let name = Range(m.range(at: 1), in: text), let hex = Range(m.range(at: 2), in: text), let code = UInt32(text[hex], radix: 16) else { return nil }
            return (String(text[name]), code)
        }
    }

    /// Names and codepoints of a Font Awesome style sheet: every `.fa-NAME:before` selector of a
    /// rule whose `content` is one character (aliases share the rule).
    static func cssNames(_ text: String) -> [(String, UInt32)] {
        let rule = try! NSRegularExpression(pattern: #"((?:\.fa-[a-z0-9-]+:before,?\s*)+)\{\s*content:\s*"\\([0-9a-fA-F]+)";"#)
        let selector = try! NSRegularExpression(pattern: #"\.fa-([a-z0-9-]+):before"#)
        var out: [(String, UInt32)] = []
        for m in rule.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let selectors = Range(m.range(at: 1), in: text), let hex = Range(m.range(at: 2), in: text), let code = UInt32(text[hex], radix: 16) else { continue }
            let group = String(text[selectors])
            for s in selector.matches(in: group, range: NSRange(group.startIndex..., in: group)) {
                out.append((String(group[Range(s.range(at: 1), in: group)!]), code))
            }
        }
        return out
    }
}
