/// One meaning an icon can have: the name files and programs use, the label a screen reader
/// speaks, and the shapes it covers (icon-recognition.md, "Vocabulary").
public struct IconType: Hashable, Sendable, CustomStringConvertible {
    /// As files and programs spell it (`back`, `notifications`, `other`).
    public let name: String
    /// What a screen reader says ("Back", "More options"); nil for `other`, which gets no label.
    public let label: String?
    /// The shapes the type covers, in words.
    public let shapes: String

    /// The type's place in the vocabulary: the classifier's output row and the interactivity model's feature.
    public var index: Int { IconVocabulary.index[name]! }
    public var isOther: Bool { name == IconVocabulary.other.name }
    public var description: String { name }
}

/// The icon vocabulary of icon-recognition.md, version 1: fifty-two types and `other`, in the
/// spec's order (which is also the classifier's output order, `other` last).
public enum IconVocabulary {
    public static let version = 1

    /// Every type, `other` last.
    public static let types: [IconType] = [
        IconType(name: "back", label: "Back", shapes: "arrow pointing left, chevron pointing left (iOS back)"),
        IconType(name: "forward", label: "Forward", shapes: "arrow pointing right, chevron pointing right"),
        IconType(name: "close", label: "Close", shapes: "X, X in a circle"),
        IconType(name: "menu", label: "Menu", shapes: "three horizontal lines (hamburger)"),
        IconType(name: "more", label: "More options", shapes: "three dots, horizontal or vertical"),
        IconType(name: "home", label: "Home", shapes: "house"),
        IconType(name: "search", label: "Search", shapes: "magnifying glass"),
        IconType(name: "expand", label: "Expand", shapes: "chevron or triangle pointing down"),
        IconType(name: "collapse", label: "Collapse", shapes: "chevron or triangle pointing up"),
        IconType(name: "add", label: "Add", shapes: "plus, plus in a circle or square"),
        IconType(name: "delete", label: "Delete", shapes: "trash can"),
        IconType(name: "edit", label: "Edit", shapes: "pencil, pen on paper"),
        IconType(name: "share", label: "Share", shapes: "three connected dots (Android), box with an arrow up (iOS)"),
        IconType(name: "settings", label: "Settings", shapes: "gear, sliders"),
        IconType(name: "refresh", label: "Refresh", shapes: "circular arrow(s)"),
        IconType(name: "download", label: "Download", shapes: "arrow down onto a line or into a tray, cloud with arrow down"),
        IconType(name: "upload", label: "Upload", shapes: "arrow up from a line or tray, cloud with arrow up"),
        IconType(name: "send", label: "Send", shapes: "paper plane"),
        IconType(name: "filter", label: "Filter", shapes: "funnel, three lines of decreasing length"),
        IconType(name: "sort", label: "Sort", shapes: "up and down arrows, sort lines"),
        IconType(name: "done", label: "Done", shapes: "check mark, check in a circle"),
        IconType(name: "bookmark", label: "Bookmark", shapes: "bookmark ribbon"),
        IconType(name: "attach", label: "Attach", shapes: "paper clip"),
        IconType(name: "info", label: "Info", shapes: "i in a circle"),
        IconType(name: "help", label: "Help", shapes: "question mark, question mark in a circle"),
        IconType(name: "notifications", label: "Notifications", shapes: "bell"),
        IconType(name: "favorite", label: "Favorite", shapes: "heart, outlined or filled"),
        IconType(name: "star", label: "Star", shapes: "star, outlined or filled"),
        IconType(name: "like", label: "Like", shapes: "thumb up"),
        IconType(name: "dislike", label: "Dislike", shapes: "thumb down"),
        IconType(name: "copy", label: "Copy", shapes: "two overlapping sheets"),
        IconType(name: "play", label: "Play", shapes: "triangle pointing right, in a circle or not"),
        IconType(name: "pause", label: "Pause", shapes: "two vertical bars"),
        IconType(name: "next", label: "Next", shapes: "skip forward (triangle(s) with a bar)"),
        IconType(name: "previous", label: "Previous", shapes: "skip back"),
        IconType(name: "volume", label: "Volume", shapes: "loudspeaker with waves"),
        IconType(name: "mute", label: "Mute", shapes: "loudspeaker crossed out or with an X"),
        IconType(name: "microphone", label: "Microphone", shapes: "microphone"),
        IconType(name: "camera", label: "Camera", shapes: "photo camera"),
        IconType(name: "video", label: "Video", shapes: "video camera"),
        IconType(name: "photos", label: "Photos", shapes: "picture (mountains and sun), gallery"),
        IconType(name: "profile", label: "Profile", shapes: "one person, person in a circle (account)"),
        IconType(name: "people", label: "People", shapes: "two or more persons"),
        IconType(name: "cart", label: "Cart", shapes: "shopping cart, shopping bag"),
        IconType(name: "location", label: "Location", shapes: "map pin, location arrow"),
        IconType(name: "calendar", label: "Calendar", shapes: "calendar page"),
        IconType(name: "clock", label: "Clock", shapes: "clock face, alarm clock, history clock"),
        IconType(name: "mail", label: "Mail", shapes: "envelope"),
        IconType(name: "chat", label: "Chat", shapes: "speech bubble(s)"),
        IconType(name: "phone", label: "Phone", shapes: "telephone handset"),
        IconType(name: "lock", label: "Lock", shapes: "padlock, closed or open"),
        IconType(name: "cloud", label: "Cloud", shapes: "cloud without an arrow"),
        IconType(name: "other", label: nil, shapes: "any icon that is none of the above: it gets no label"),
    ]

    /// The type of icons that are none of the others: never labelled.
    public static var other: IconType { types[types.count - 1] }

    static let index: [String: Int] = Dictionary(uniqueKeysWithValues: types.enumerated().map { ($1.name, $0) })

    /// The type called `name`, or nil for a name outside the vocabulary.
    public static func type(named name: String) -> IconType? { index[name].map { types[$0] } }
}
