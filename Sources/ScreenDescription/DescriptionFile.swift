import Boxes
import FileKeys
import Foundation
import IconVocabulary
import Outputs

/// description.json: a JSON array of described screens, exactly as screen-description.md shows
/// it. Reading refuses what does not match the spec (a missing or unknown key, a frame that is not
/// four finite numbers in order, an unknown trait or source, a repeated id, a group without
/// members) with a `DescriptionFileError` naming the file and the element's path in it.
public enum DescriptionFile {
    /// The file's name in a description folder.
    public static let fileName = "description.json"

    /// Reads the screens of a description.json.
    public static func read(from url: URL) throws -> [DescribedScreen] {
        try decode(try JSONCoding.read(url), path: url.path)
    }

    /// The screens in the bytes of a file at `path` (named in errors).
    public static func decode(_ data: Data, path: String) throws -> [DescribedScreen] {
        try JSONCoding.decode([DescribedScreen].self, from: data, path: path)
    }

    /// The file's bytes: keys in the spec's order, one member a line, frames and traits on one line.
    /// A frame or score that is not finite is refused (JSON has no such numbers), naming the element.
    public static func encode(_ screens: [DescribedScreen], path: String = "<memory>") throws -> Data {
        func check(_ elements: [DescribedElement], _ at: String) throws {
            for (i, e) in elements.enumerated() {
                let here = "\(at)[\(i)]"
                if ![e.frame.xMin, e.frame.yMin, e.frame.xMax, e.frame.yMax].allSatisfy(\.isFinite) {
                    throw DescriptionFileError(path: path, position: here + ".frame", problem: "cannot be written: \(e.frame) is not finite")
                }
                if let score = e.score, !score.isFinite {
                    throw DescriptionFileError(path: path, position: here + ".score", problem: "cannot be written: \(score) is not finite")
                }
                try check(e.children, here + ".children")
            }
        }
        for (i, screen) in screens.enumerated() {
            try check(screen.elements, "[\(i)].elements")
            try check(screen.statusBar.map { [$0] } ?? [], "[\(i)].status_bar")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return Data((try OrderedJSON.array(screens.map(\.orderedJSON)).text(encoder: encoder) + "\n").utf8)
    }

    /// Writes the screens atomically.
    public static func write(_ screens: [DescribedScreen], to url: URL) throws {
        let data = try encode(screens, path: url.path)
        do { try data.write(to: url, options: .atomic) } catch {
            throw DescriptionFileError(path: url.path, position: "file", problem: "cannot write the file (\(FileProblem.reason(error)))")
        }
    }
}

extension DescribedScreen {
    /// The screen as description.json writes it.
    var orderedJSON: OrderedJSON {
        .object([("image_id", .string(imageID)), ("width", .number("\(width)")), ("height", .number("\(height)")),
                 ("elements", .array(elements.map(\.orderedJSON))), ("status_bar", .optional(statusBar.map(\.orderedJSON)))])
    }
}

extension DescribedElement {
    /// The element as description.json writes it: every key of the spec in its order, nulls
    /// included; an icon adds `icon_type` (icon-recognition.md: a vocabulary name or null).
    var orderedJSON: OrderedJSON {
        .object([
            ("id", .number("\(id)")), ("kind", .string(kind.rawValue)),
            ("frame", .array([frame.xMin, frame.yMin, frame.xMax, frame.yMax].map(OrderedJSON.number))),
            ("label", .string(label)), ("value", .optional(value.map(OrderedJSON.string))),
            ("traits", .array(traits.map { .string($0.rawValue) })), ("selected", .optional(selected.map(OrderedJSON.bool))),
            ("interactive", .bool(interactive)), ("score", .optional(score.map(OrderedJSON.number))), ("source", .string(source.rawValue)),
            ("children", .array(children.map(\.orderedJSON))), ("actions", .array(actions.map(OrderedJSON.string))),
        ] + (kind == .icon ? [("icon_type", .optional(iconType.map { .string($0.name) }))] : []))
    }
}

extension DescribedScreen: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case imageID = "image_id", width, height, elements, statusBar = "status_bar"
    }

    /// Reads one screen, refusing unknown keys, negative sizes and repeated element ids.
    public init(from decoder: Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        imageID = try c.decode(String.self, forKey: .imageID)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        for (key, v) in [(CodingKeys.width, width), (.height, height)] where v <= 0 {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(v) is not a positive number of pixels")
        }
        elements = try c.decode([DescribedElement].self, forKey: .elements)
        // Optional: descriptions written before the status bar stood apart have no status_bar.
        statusBar = try c.decodeIfPresent(DescribedElement.self, forKey: .statusBar)
        if let bar = statusBar, bar.kind != .statusBar {
            throw DecodingError.dataCorruptedError(forKey: .statusBar, in: c, debugDescription: "has kind \"\(bar.kind)\"; the status bar's kind is \"status_bar\"")
        }
        var seen = Set<Int>()
        func check(_ elements: [DescribedElement], _ path: [CodingKey]) throws {
            for (i, e) in elements.enumerated() {
                let here = path + [AnyCodingKey(intValue: i)]
                guard seen.insert(e.id).inserted else {
                    throw DecodingError.dataCorrupted(.init(codingPath: here + [DescribedElement.CodingKeys.id], debugDescription: "id \(e.id) is used twice in the screen"))
                }
                try check(e.children, here + [DescribedElement.CodingKeys.children])
            }
        }
        try check(elements, c.codingPath + [CodingKeys.elements])
        try check(statusBar.map { [$0] } ?? [], c.codingPath + [CodingKeys.statusBar])
    }

    /// Writes every key (in the order an encoder keeps; `DescriptionFile` writes the spec's). Written
    /// by hand because Swift synthesises an encoder only in the type's own file, and the format lives here.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(imageID, forKey: .imageID)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(elements, forKey: .elements)
        try c.encode(Nullable(statusBar), forKey: .statusBar)
    }
}

extension DescribedElement: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, kind, frame, label, value, traits, selected, interactive, score, source, children, actions
        case iconType = "icon_type"
    }

    /// Reads one element with every key of the spec, nulls where the spec allows them.
    public init(from decoder: Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        kind = try c.decode(ElementKind.self, forKey: .kind)
        if kind.rawValue.isEmpty { throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "is empty") }
        let numbers = try c.decode([Float].self, forKey: .frame)
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[0] <= numbers[2], numbers[1] <= numbers[3] else {
            throw DecodingError.dataCorruptedError(forKey: .frame, in: c, debugDescription: "expected [x_min, y_min, x_max, y_max]: four finite numbers, each max at least its min; found \(numbers)")
        }
        frame = Box(xMin: numbers[0], yMin: numbers[1], xMax: numbers[2], yMax: numbers[3])
        label = try c.decode(String.self, forKey: .label)
        value = try c.decodeNullable(String.self, forKey: .value)
        let names = try c.decode([String].self, forKey: .traits)
        traits = try names.map { name in
            guard let t = AccessibilityTrait(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .traits, in: c, debugDescription: "\"\(name)\" is not a trait (expected \(AccessibilityTrait.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return t
        }
        selected = try c.decodeNullable(Bool.self, forKey: .selected)
        interactive = try c.decode(Bool.self, forKey: .interactive)
        score = try c.decodeNullable(Float.self, forKey: .score)
        if let score, !score.isFinite { throw DecodingError.dataCorruptedError(forKey: .score, in: c, debugDescription: "is not a finite number") }
        let sourceName = try c.decode(String.self, forKey: .source)
        guard let source = ElementSource(rawValue: sourceName) else {
            throw DecodingError.dataCorruptedError(forKey: .source, in: c, debugDescription: "\"\(sourceName)\" is not one of detector, ocr, group")
        }
        self.source = source
        children = try c.decode([DescribedElement].self, forKey: .children)
        actions = try c.decode([String].self, forKey: .actions)
        // Optional: descriptions written before icons were named have no icon_type.
        if let name = try c.decodeIfPresent(String.self, forKey: .iconType) {
            guard let type = IconVocabulary.type(named: name) else {
                throw DecodingError.dataCorruptedError(forKey: .iconType, in: c, debugDescription: "\"\(name)\" is not a type of the icon vocabulary")
            }
            iconType = type
        }
        if (source == .group) != !children.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .children, in: c, debugDescription: source == .group
                ? "a group (source \"group\") has no members" : "only a group (source \"group\") has members; this element's source is \"\(sourceName)\"")
        }
    }

    /// Writes every key, nulls included; the frame as four numbers. Written by hand for the frame:
    /// a synthesised encoder would write the `Box` as an object of named coordinates.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode([frame.xMin, frame.yMin, frame.xMax, frame.yMax], forKey: .frame)
        try c.encode(label, forKey: .label)
        try c.encode(Nullable(value), forKey: .value)
        try c.encode(traits, forKey: .traits)
        try c.encode(Nullable(selected), forKey: .selected)
        try c.encode(interactive, forKey: .interactive)
        try c.encode(Nullable(score), forKey: .score)
        try c.encode(source, forKey: .source)
        try c.encode(children, forKey: .children)
        try c.encode(actions, forKey: .actions)
        if kind == .icon { try c.encode(iconType?.name, forKey: .iconType) }
    }
}

extension KeyedDecodingContainer {
    /// A key the spec requires whose value may be null: missing is an error, null is nil.
    func decodeNullable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return try decodeNil(forKey: key) ? nil : decode(type, forKey: key)
    }
}
