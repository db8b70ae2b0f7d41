import Boxes

/// Ours: a button, switch or checkbox the detector boxed together with what it shows (a button's
/// icon and text, an Android CheckedTextView's text) forms one group with the elements inside it,
/// and the group is activated as that control (Roles): "Share, button", not "Share" and "icon".
/// Smaller controls first, so that a button inside a larger one keeps its own contents.
struct ControlContentsRule {
    var config = DescriptionConfig.ControlContents()
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        let controls = state.elements.filter { $0.kind.holdsItsLabel }.sorted { ($0.frame.area, $0.id) < ($1.frame.area, $1.id) }.map(\.id)
        for id in controls {
            guard let c = state.elements.firstIndex(where: { $0.id == id }) else { continue }
            let frame = state.elements[c].frame
            let inside = state.elements.indices.filter { i in
                i != c && !state.elements[i].kind.isRegion && state.elements[i].kind != .tabButton && state.elements[i].frame.fractionInside(frame) >= insideFraction
            }
            guard !inside.isEmpty else { continue }
            let members = [state.elements[c]] + inside.map { state.elements[$0] }
            state.replace([([c] + inside).sorted()]) { state, _ in
                let group = state.group(.group, members, frame: frame)
                state.controlGroups.insert(group.id)
                return group
            }
        }
    }
}

extension ControlContentsRule: GroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .controlContents }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.ControlContents> { \.controlContents }

    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping.controlContents, insideFraction: insideFraction)
    }
}
