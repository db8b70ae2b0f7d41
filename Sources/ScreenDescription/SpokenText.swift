import Boxes

/// What a screen reader speaks for each top-level element, VoiceOver-like: the name (the label;
/// for an unlabelled text field its text), the role, the state, the position in its set, and
/// "actions available" for a group with custom actions, e.g. "Alarm, tab, selected, 2 of 4",
/// "Settings, heading", "Wi-Fi, switch button, on".
public enum SpokenText {
    /// One utterance per top-level element of `screen`, in navigation order.
    public static func utterances(for screen: DescribedScreen,
                                  segmentGapInHeights: Double = DescriptionConfig().selection.segmentGapInHeights) -> [String] {
        let positions = self.positions(in: screen.elements, segmentGapInHeights: segmentGapInHeights)
        return screen.elements.enumerated().map { utterance(for: $1, position: positions[$0]) }
    }

    /// What is spoken for the screen as a whole: the utterances as sentences.
    public static func transcript(for screen: DescribedScreen) -> String {
        utterances(for: screen).map { $0 + "." }.joined(separator: " ")
    }

    /// What is spoken for `element`; `position` is its place in its set (tab bar, segmented control), 1-based.
    public static func utterance(for element: DescribedElement, position: (index: Int, count: Int)? = nil) -> String {
        // A group that acts as its one interactive member speaks that member's role.
        let actor = element.kind == .group && element.interactive ? element.children.first(where: \.interactive) ?? element : element
        var name = element.label
        var value = element.value
        if name.isEmpty && actor.kind == .textField, let text = value {
            (name, value) = (text, nil)
        }
        let role = self.role(actor, traits: element.traits)
        var parts: [String] = []
        if !name.isEmpty { parts.append(name) } else if role == nil { parts.append(noun(element.kind)) }
        if let role { parts.append(role) }
        if element.selected == true && !(actor.kind.isToggle || actor.kind.isCheckbox) { parts.append("selected") }
        if let value { parts.append(value) }
        if let position { parts.append("\(position.index) of \(position.count)") }
        if !element.interactive && !element.actions.isEmpty { parts.append("actions available") }
        return parts.joined(separator: ", ")
    }

    /// The name an element goes by as a custom action: its label, else what it is.
    static func name(_ element: DescribedElement) -> String {
        element.label.isEmpty ? noun(element.kind) : element.label
    }

    /// The role word for `element` with `traits`; nil for plain text and what has no role.
    static func role(_ element: DescribedElement, traits: [AccessibilityTrait]) -> String? {
        switch element.kind {
        case .tabButton: return "tab"
        case .textField: return traits.contains(.searchField) ? "search field" : "text field"
        case _ where element.kind.isToggle: return "switch button"
        case _ where element.kind.isCheckbox: return "checkbox"
        case .dialog: return "dialog"
        default: break
        }
        if traits.contains(.header) { return "heading" }
        if traits.contains(.button) { return "button" }
        if traits.contains(.adjustable) { return "adjustable" }
        if traits.contains(.link) { return "link" }
        if traits.contains(.image) { return "image" }
        return nil
    }

    /// What an element is called when it has no label and no role.
    static func noun(_ kind: ElementKind) -> String {
        switch kind {
        case .toggleSelected, .toggleUnselected: return "switch"
        case .checkboxSelected, .checkboxUnselected: return "checkbox"
        case .segmentedControl: return "segment"
        case .tabButton: return "tab"
        case .button: return "button"
        default: return kind.rawValue.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// Each top-level element's place in its set: tab buttons left to right across the bar,
    /// segments across their control (as step 7 clusters them); nil for the rest.
    static func positions(in elements: [DescribedElement], segmentGapInHeights: Double) -> [(index: Int, count: Int)?] {
        var out = [(index: Int, count: Int)?](repeating: nil, count: elements.count)
        let tabs = elements.indices.filter { elements[$0].kind == .tabButton }
        for bar in bands(tabs.map { elements[$0].frame }) {
            let members = bar.map { tabs[$0] }.sorted { (elements[$0].frame.xMin, $0) < (elements[$1].frame.xMin, $1) }
            for (k, i) in members.enumerated() { out[i] = (k + 1, members.count) }
        }
        let segments = elements.indices.filter { elements[$0].kind == .segmentedControl }
        for control in SegmentControls.cluster(segments.map { elements[$0].frame }, maxGapInHeights: segmentGapInHeights) {
            for (k, s) in control.enumerated() { out[segments[s]] = (k + 1, control.count) }
        }
        return out
    }
}
