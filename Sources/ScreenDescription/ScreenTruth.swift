import Boxes
import IconVocabulary
import VocabularyMaps

/// Why a screen's ground truth is unusable: the screen, the dataset, and what was wrong.
public struct ScreenTruthError: Error, CustomStringConvertible, Equatable {
    public let imageID: String
    public let field: String
    public let problem: String
    /// The file the screen was read from, where the reader knows it.
    public let file: String?

    /// An error with every part given.
    public init(imageID: String, field: String, problem: String, file: String? = nil) {
        self.imageID = imageID
        self.field = field
        self.problem = problem
        self.file = file
    }

    /// The same error, naming the file the screen came from.
    public func located(in file: String) -> ScreenTruthError {
        ScreenTruthError(imageID: imageID, field: field, problem: problem, file: file)
    }

    public var description: String { (file.map { "\($0): " } ?? "") + "screen \(imageID): \(field): \(problem)" }
}

/// One screen's ground truth for description metrics, as a shard stores it (screen-description.md,
/// "Ground truth in shards"): boxes in stored pixels with their class names, and the optional
/// datasets aligned with them (nil where the shard does not have one; the metrics that need it
/// are then not computed for the screen).
public struct ScreenTruth: Equatable, Sendable {
    public let imageID: String
    /// The stored (letterboxed) image's size; boxes are in its pixels.
    public let storedSize: Size
    /// The original screenshot's size; descriptions are in its pixels.
    public let originalSize: Size
    public let boxes: [Box]
    /// Each box's class; once `describing(through:)` has run, its description kind.
    public private(set) var classNames: [String]
    /// The group each box belongs to within the screen, nil for none.
    public let groupIndex: [Int?]?
    /// The rank of each box's top-level element in the reference order, nil for boxes outside it.
    public let navOrder: [Int?]?
    /// nil where not applicable.
    public let selected: [Bool?]?
    /// nil where unknown.
    public let interactive: [Bool?]?
    /// The string each text box shows; empty for other classes.
    public let texts: [String]?
    /// The kind of each box's group (`tab_button`, `group`), nil for none.
    public let groupKinds: [ElementKind?]?
    /// The type of each icon box (icon-recognition.md, `icon_types`), nil for other boxes and unknown types.
    public let iconTypes: [IconType?]?

    /// Ground truth from a shard's values as stored: `-1` for none / not applicable / unknown,
    /// empty strings for no text and no group kind. Every dataset must have one row per box.
    public init(imageID: String, storedSize: Size, originalSize: Size, boxes: [Box], classNames: [String],
                groupIndex: [Int32]? = nil, navOrder: [Int32]? = nil, selected: [Int8]? = nil, interactive: [Int8]? = nil,
                texts: [String]? = nil, groupKinds: [String]? = nil, iconTypes: [String]? = nil) throws {
        func fail(_ field: String, _ problem: String) -> ScreenTruthError { ScreenTruthError(imageID: imageID, field: field, problem: problem) }
        guard storedSize.width > 0, storedSize.height > 0 else { throw fail("stored size", "\(storedSize) is not a size") }
        guard originalSize.width > 0, originalSize.height > 0 else { throw fail("original size", "\(originalSize) is not a size") }
        func rows<T>(_ values: [T]?, _ field: String) throws {
            if let values, values.count != boxes.count { throw fail(field, "\(values.count) rows for \(boxes.count) boxes") }
        }
        try rows(classNames, "class names")
        try rows(groupIndex, "group_index"); try rows(navOrder, "nav_order"); try rows(selected, "selected")
        try rows(interactive, "interactive"); try rows(texts, "texts"); try rows(groupKinds, "group_kinds"); try rows(iconTypes, "icon_types")
        func index(_ values: [Int32]?, _ field: String) throws -> [Int?]? {
            try values.map { try $0.enumerated().map { i, v in
                guard v >= -1 else { throw fail(field, "row \(i): \(v) is below -1") }
                return v == -1 ? nil : Int(v)
            } }
        }
        func flag(_ values: [Int8]?, _ field: String) throws -> [Bool?]? {
            try values.map { try $0.enumerated().map { i, v in
                guard (-1...1).contains(v) else { throw fail(field, "row \(i): \(v) is not -1, 0 or 1") }
                return v == -1 ? nil : v == 1
            } }
        }
        self.imageID = imageID
        self.storedSize = storedSize
        self.originalSize = originalSize
        self.boxes = boxes
        self.classNames = classNames
        self.groupIndex = try index(groupIndex, "group_index")
        self.navOrder = try index(navOrder, "nav_order")
        self.selected = try flag(selected, "selected")
        self.interactive = try flag(interactive, "interactive")
        self.texts = texts
        self.groupKinds = try groupKinds.map { try $0.enumerated().map { i, k in
            guard ["", "tab_button", "group"].contains(k) else { throw fail("group_kinds", "row \(i): \"\(k)\" is not tab_button, group or empty") }
            return k.isEmpty ? nil : ElementKind(rawValue: k)
        } }
        self.iconTypes = try iconTypes.map { try $0.enumerated().map { i, name in
            guard !name.isEmpty else { return nil }
            guard let type = IconVocabulary.type(named: name) else { throw fail("icon_types", "row \(i): \"\(name)\" is not a type of the icon vocabulary") }
            return type
        } }
    }

    /// The truth with each box's class made the kind `vocabulary` gives it (a class it lacks keeps its
    /// name), so that described elements match true boxes by kind: a `TextButton` box is a `button`.
    public func describing(through vocabulary: VocabularyMap) -> ScreenTruth {
        var t = self
        t.classNames = classNames.map { vocabulary.entry($0)?.kind.rawValue ?? $0 }
        return t
    }

    /// The uniform scale from original to stored pixels: min(W_s / W, H_s / H).
    public var scale: Float {
        min(Float(storedSize.width) / Float(originalSize.width), Float(storedSize.height) / Float(originalSize.height))
    }

    /// The true element each box belongs to: its group, or the box alone.
    func element(of box: Int) -> TrueElement {
        groupIndex?[box].map { .group($0) } ?? .box(box)
    }

    /// Interactivity-model examples from this screen's icons with a known `interactive`, their
    /// features computed in original pixels among all the screen's boxes; with `iconTypes`, each
    /// icon's true type is its `icon_type` feature (else unknown, -1).
    public func iconExamples(iconTypes useTypes: Bool = true) -> [IconExample] {
        guard let interactive else { return [] }
        let original = boxes.map { $0.transformed(scaleX: 1 / scale, scaleY: 1 / scale) }
        let all = zip(classNames, original).map { (kind: ElementKind(rawValue: $0), frame: $1) }
        return boxes.indices.compactMap { i in
            guard classNames[i] == ElementKind.icon.rawValue, let label = interactive[i] else { return nil }
            var neighbours = all
            neighbours.remove(at: i)
            let type = useTypes ? iconTypes?[i]?.index : nil
            return IconExample(features: IconFeatures(icon: original[i], screen: originalSize, neighbours: neighbours, iconType: type), interactive: label)
        }
    }
}

/// A true element: a group of boxes, or one ungrouped box.
enum TrueElement: Hashable {
    case group(Int)
    case box(Int)
}
