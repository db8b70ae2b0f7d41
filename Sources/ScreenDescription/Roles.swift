import Boxes

/// The last pass: each leaf's traits and value from its kind and what the steps found, then each
/// group's label (its members' labels in navigation order, joined by ", "), actions (its
/// interactive members) and role.
struct Roles {
    func apply(_ state: inout DescriptionState) {
        state.elements = state.elements.map { finish($0, state) }
        if var bar = state.statusBar {
            // The bar speaks its own label (the time first); its members say nothing of their own.
            bar.children = bar.children.map { finish($0, state) }
            state.statusBar = bar
        }
    }

    func finish(_ element: DescribedElement, _ state: DescriptionState) -> DescribedElement {
        var e = element
        guard !e.children.isEmpty else {
            e.traits = leafTraits(e, state)
            if e.kind.isToggle || e.kind.isCheckbox { e.value = e.selected.map { $0 ? "on" : "off" } }
            return e
        }
        e.children = e.children.map { finish($0, state) }
        e.label = e.children.map(\.label).filter { !$0.isEmpty }.joined(separator: ", ")
        if state.controlGroups.contains(e.id), let control = e.children.first {
            // Ours: a control boxed with what it shows is activated as a whole: it offers no actions.
            e.interactive = true
            e.traits = control.traits
            e.value = control.value
            e.selected = control.selected
            return e
        }
        if e.kind == .tabButton {
            // The tab is the control: it is activated as a whole, so it offers no actions.
            e.interactive = true
            e.traits = [.button] + (e.selected == true ? [.selected] : [])
            return e
        }
        let interactive = e.children.filter(\.interactive)
        e.actions = interactive.map(SpokenText.name)
        if interactive.count == 1, let only = interactive.first {
            // One thing to activate: the group acts as that member (a row with its switch, a label with its field).
            e.interactive = true
            e.traits = only.traits
            e.value = only.value
            e.selected = only.selected
        } else {
            e.interactive = false
            let leaves = e.leaves
            e.traits = leaves.allSatisfy { $0.kind == .text } ? (leaves.contains { $0.traits.contains(.header) } ? [.header] : [.staticText]) : []
        }
        return e
    }

    func leafTraits(_ e: DescribedElement, _ state: DescriptionState) -> [AccessibilityTrait] {
        switch e.kind {
        case .text: return state.headers.contains(e.id) ? [.header] : [.staticText]
        case .icon: return e.interactive ? [.button] : (state.iconDecided.contains(e.id) ? [.image] : [])
        case .picture: return [.image]
        case .textField: return state.searchFields.contains(e.id) ? [.searchField] : []
        case .segmentedControl: return [.button] + (e.selected == true ? [.selected] : [])
        case .button: return [.button]
        case .statusBar: return [.staticText]
        case .slider, .pageControl: return [.adjustable]
        case _ where e.kind.isToggle || e.kind.isCheckbox: return [.button]
        default: return []
        }
    }
}
