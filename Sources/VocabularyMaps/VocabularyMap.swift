import ConfigFiles
import Foundation
import Yams

/// How the classes of one detector vocabulary become description kinds: per class, the kind and
/// whether its elements can be activated (README, "Vocabulary maps"). The description steps act on
/// kinds only, so that a detector of any vocabulary can be described through its map.
public struct VocabularyMap: Equatable, Sendable {
    /// What one class becomes.
    public struct Entry: Equatable, Sendable {
        public var kind: DescriptionKind
        /// Whether the class says its elements can be activated (by default what the kind says).
        public var interactive: Bool

        /// An entry of `kind`, interactive as the kind is unless `interactive` says otherwise.
        public init(_ kind: DescriptionKind, interactive: Bool? = nil) {
            self.kind = kind
            self.interactive = interactive ?? kind.interactiveByDefault
        }
    }

    /// The map's name, for messages and notes (a built-in's name, or its file's path).
    public var name: String
    /// The entries by class name.
    public var classes: [String: Entry]

    /// A map with every field given.
    public init(name: String, classes: [String: Entry]) {
        self.name = name
        self.classes = classes
    }

    /// What `className` becomes, or nil when the map does not name it.
    public func entry(_ className: String) -> Entry? { classes[className] }

    /// The entries of `classNames` in their order; a class the map lacks is an error naming it and
    /// the map (`who` says whose vocabulary it is: "the detector", "the shards").
    public func entries(for classNames: [String], of who: String) throws -> [Entry] {
        try classNames.map { name in
            guard let e = classes[name] else {
                throw VocabularyMapError(path: self.name, className: name,
                                         problem: "is a class of \(who) but has no mapping here (mapped: \(classes.keys.sorted().joined(separator: ", ")))")
            }
            return e
        }
    }

    /// Whether the map has a class of kind `kind`.
    public func has(_ kind: DescriptionKind) -> Bool { classes.values.contains { $0.kind == kind } }
}

extension VocabularyMap {
    /// The default vocabulary (screen-description.md, shard-format.md): each class its own kind.
    public static let defaultVocabulary = VocabularyMap(name: "built-in default (13 classes)", classes: Dictionary(uniqueKeysWithValues: [
        DescriptionKind.checkboxUnselected, .checkboxSelected, .container, .dialog, .icon, .pageControl, .picture, .segmentedControl,
        .slider, .text, .textField, .toggleUnselected, .toggleSelected,
    ].map { ($0.rawValue, Entry($0)) }))

    /// The real-screen vocabulary of `../shared/data/real-ui-screens` (19 classes); the same as
    /// `Configs/vocabularies/real-ui.yaml`, which says why each class maps as it does.
    public static let realUI = VocabularyMap(name: "built-in real-ui (19 classes)", classes: [
        "BackgroundImage": Entry(.background),
        "Bottom_Navigation": Entry(.tabBar),
        "Card": Entry(.container),
        "CheckedTextView": Entry(.checkbox),
        "Drawer": Entry(.dialog),
        "EditText": Entry(.textField),
        "Icon": Entry(.icon),
        "Image": Entry(.picture),
        "ImageButton": Entry(.icon, interactive: true),
        "List": Entry(.list),
        "Modal": Entry(.dialog),
        "Multi_Tab": Entry(.tabBar),
        "PageIndicator": Entry(.pageControl),
        "Switch": Entry(.toggle),
        "Text": Entry(.text),
        "TextButton": Entry(.button),
        "TextImageButton": Entry(.button),
        "Toolbar": Entry(.toolbar),
        "UpperTaskBar": Entry(.statusBar),
    ])

    /// The maps `describe` knows without being told, tried in this order.
    public static let builtIns = [defaultVocabulary, realUI]

    /// The built-in map that names every one of `classNames` (a detector's or shards' vocabulary);
    /// none is an error naming the classes the closest one lacks, and how to give a map.
    public static func builtIn(for classNames: [String], of who: String) throws -> VocabularyMap {
        if let map = builtIns.first(where: { m in classNames.allSatisfy { m.classes[$0] != nil } }) { return map }
        let closest = builtIns.max { a, b in
            classNames.filter { a.classes[$0] != nil }.count < classNames.filter { b.classes[$0] != nil }.count
        }!
        let missing = classNames.filter { closest.classes[$0] == nil }
        throw VocabularyMapError(path: "built-in vocabulary maps", className: missing[0],
                                 problem: "is a class of \(who) that no built-in map names (\(missing.count) of its \(classNames.count) classes are missing from the closest, "
                                     + "\(closest.name): \(missing.joined(separator: ", "))); give a map with --vocabulary-map FILE (see Configs/vocabularies/)")
    }
}

/// A vocabulary map that cannot be used: the file (or "built-in vocabulary maps"), the class at fault, and why.
public struct VocabularyMapError: Error, CustomStringConvertible, Equatable {
    public let path: String
    /// The class at fault; nil when the fault is the file's as a whole.
    public let className: String?
    public let problem: String

    /// An error with every part given.
    public init(path: String, className: String?, problem: String) {
        self.path = path
        self.className = className
        self.problem = problem
    }

    public var description: String { "\(path): " + (className.map { "class '\($0)' " } ?? "") + problem }
}

extension VocabularyMap {
    /// The map for `classNames` (`who`'s vocabulary): the file at `file`, which must name every one
    /// of them, or else the built-in map that does. Errors name the file and the class.
    public static func resolve(file: String?, classNames: [String], of who: String) throws -> VocabularyMap {
        guard let file else { return try builtIn(for: classNames, of: who) }
        let map = try VocabularyMap(contentsOf: URL(fileURLWithPath: file))
        _ = try map.entries(for: classNames, of: who)
        return map
    }
}
