/// What a detector class becomes in a screen description (README, "Vocabulary maps"): an element
/// kind of the description, or a box that is no element itself but tells the steps something
/// about what lies inside it (a tab bar, a toolbar) or nothing at all (a background).
public enum DescriptionKind: String, CaseIterable, Codable, Sendable {
    // The 13 classes of the default vocabulary (screen-description.md), each its own kind.
    case checkboxUnselected = "checkbox_unselected", checkboxSelected = "checkbox_selected", container, dialog, icon
    case pageControl = "page_control", picture, segmentedControl = "segmented_control", slider, text
    case textField = "text_field", toggleUnselected = "toggle_unselected", toggleSelected = "toggle_selected"
    /// A switch or a checkbox whose class does not say its state: read from its pixels, or unknown.
    case toggle, checkbox
    /// Something activated as a whole: labelled by the text in its box, or by the elements it holds.
    case button
    /// The system's status bar: one element, outside the navigation order.
    case statusBar = "status_bar"
    /// A bar whose contents are tab buttons (a bottom navigation, a row of tabs); not an element itself.
    case tabBar = "tab_bar"
    /// A bar whose icons are actions and whose text is the screen's title; not an element itself.
    case toolbar
    /// A region of rows (a list): not an element itself, and what lies inside stays apart, row by row
    /// (a `container` would join everything inside it into one element).
    case list
    /// A picture behind other content (a background image): not described.
    case background

    /// Whether an element of this kind can be activated by its class alone (screen-description.md,
    /// step 5, with the kinds of our own: a button, a toggle and a checkbox are controls too).
    public var interactiveByDefault: Bool {
        switch self {
        case .textField, .toggleSelected, .toggleUnselected, .checkboxSelected, .checkboxUnselected, .slider, .pageControl,
             .segmentedControl, .toggle, .checkbox, .button:
            return true
        default:
            return false
        }
    }

    /// Bars whose icons are controls by platform convention (a toolbar's actions, a tab bar's tabs).
    public var holdsControls: Bool { self == .tabBar || self == .toolbar }
}
