import Boxes
import IconVocabulary

/// What an element is: a class of the detector's vocabulary, or `tab_button` / `group` for groups.
///
/// Open rather than an enum: a description may come from a detector with another vocabulary
/// (a class map's common classes); the heuristics only act on the names below.
public struct ElementKind: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    /// The kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind named by a literal, e.g. `"text"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public var description: String { rawValue }

    public static let text: ElementKind = "text"
    public static let icon: ElementKind = "icon"
    public static let picture: ElementKind = "picture"
    public static let container: ElementKind = "container"
    public static let dialog: ElementKind = "dialog"
    public static let segmentedControl: ElementKind = "segmented_control"
    public static let textField: ElementKind = "text_field"
    public static let slider: ElementKind = "slider"
    public static let pageControl: ElementKind = "page_control"
    public static let toggleSelected: ElementKind = "toggle_selected"
    public static let toggleUnselected: ElementKind = "toggle_unselected"
    public static let checkboxSelected: ElementKind = "checkbox_selected"
    public static let checkboxUnselected: ElementKind = "checkbox_unselected"
    /// Ours, for detectors whose classes do not say the state (vocabulary maps): read from pixels, or unknown.
    public static let toggle: ElementKind = "toggle"
    public static let checkbox: ElementKind = "checkbox"
    /// Ours: something activated as a whole (a detector's button class), labelled by its text or what it holds.
    public static let button: ElementKind = "button"
    /// Ours: the system's status bar, one element outside the navigation order (`DescribedScreen.statusBar`).
    public static let statusBar: ElementKind = "status_bar"
    /// A group formed by the tab-button rule.
    public static let tabButton: ElementKind = "tab_button"
    /// A group formed by any other rule.
    public static let group: ElementKind = "group"

    var isToggle: Bool { self == .toggleSelected || self == .toggleUnselected || self == .toggle }
    var isCheckbox: Bool { self == .checkboxSelected || self == .checkboxUnselected || self == .checkbox }
    /// A control whose state its class does not say (`toggle`, `checkbox`): step 7 reads it from pixels.
    var isStateless: Bool { self == .toggle || self == .checkbox }
    /// Controls a detector may box together with their label (a button, an Android Switch or CheckedTextView).
    var holdsItsLabel: Bool { self == .button || isStateless }
    /// Kinds that only ever stand for a set of members.
    var isGroup: Bool { self == .tabButton || self == .group }
    /// Boxes that enclose other elements rather than show content of their own.
    var isRegion: Bool { self == .container || self == .dialog }
}

/// UIKit's accessibility traits that a description uses, by their snake_case names.
public enum AccessibilityTrait: String, Codable, CaseIterable, Sendable {
    case button, selected, adjustable, header, image, link
    case notEnabled = "not_enabled"
    case staticText = "static_text"
    case searchField = "search_field"
    case keyboardKey = "keyboard_key"
    case tabBar = "tab_bar"
}

/// Where an element came from.
public enum ElementSource: String, Codable, CaseIterable, Sendable {
    case detector, ocr, group
}

/// One accessibility element of a described screen (screen-description.md, "Output").
///
/// Frames are in the original screenshot's pixels. A group lists its members in `children`
/// (each a full element, in the group's navigation order) and is what a screen reader visits.
public struct DescribedElement: Equatable, Sendable {
    /// Unique within its screen: detections keep their input index, OCR lines and groups follow.
    public var id: Int
    public var kind: ElementKind
    public var frame: Box
    /// What a screen reader speaks first; empty when nothing is known.
    public var label: String
    /// The state read after the label ("on", "page 2 of 5"); nil when there is none.
    public var value: String?
    public var traits: [AccessibilityTrait]
    /// nil when unknown or not applicable; never guessed.
    public var selected: Bool?
    public var interactive: Bool
    /// The detector's score; for a group the mean of its members' scores; nil for OCR lines.
    public var score: Float?
    public var source: ElementSource
    public var children: [DescribedElement]
    /// The labels of a group's interactive members, each a custom action.
    public var actions: [String]
    /// An icon's type as the icon classifier named it (icon-recognition.md); nil when it named none.
    public var iconType: IconType?

    /// An element with every field given; the optional ones default to "nothing known".
    public init(id: Int, kind: ElementKind, frame: Box, label: String = "", value: String? = nil, traits: [AccessibilityTrait] = [],
                selected: Bool? = nil, interactive: Bool = false, score: Float?, source: ElementSource,
                children: [DescribedElement] = [], actions: [String] = [], iconType: IconType? = nil) {
        self.id = id
        self.kind = kind
        self.frame = frame
        self.label = label
        self.value = value
        self.traits = traits
        self.selected = selected
        self.interactive = interactive
        self.score = score
        self.source = source
        self.children = children
        self.actions = actions
        self.iconType = iconType
    }

    /// The boxes this element stands for: itself without children, else its children's leaves (nested groups flattened).
    public var leaves: [DescribedElement] {
        children.isEmpty ? [self] : children.flatMap(\.leaves)
    }
}

/// One described screen: its elements in navigation order (description.json holds an array of these).
public struct DescribedScreen: Equatable, Sendable {
    public var imageID: String
    /// The original screenshot's size in pixels.
    public var width: Int
    public var height: Int
    public var elements: [DescribedElement]
    /// The status bar (kind `status_bar`), apart from `elements`: VoiceOver reaches it outside the
    /// app's navigation order; nil when the screen shows none that was found.
    public var statusBar: DescribedElement?

    /// A screen with every field given.
    public init(imageID: String, width: Int, height: Int, elements: [DescribedElement], statusBar: DescribedElement? = nil) {
        self.imageID = imageID
        self.width = width
        self.height = height
        self.elements = elements
        self.statusBar = statusBar
    }

    public var size: Size { Size(width: width, height: height) }
}
