import Boxes

/// A container forms one group with every element inside it; smaller containers first, so that a
/// card inside a list is its own group before the list takes it. The container is the group's
/// first member and gives its frame. Dialogs and tab buttons are never taken (ours: a background
/// behind them must not swallow a dialog or a tab bar). Ours (`sections`): a container holding
/// several rows is a grouped table's section and groups nothing (see `isSection`).
struct ContainerRule {
    var config = DescriptionConfig.Containers()
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        let containers = state.elements.filter { $0.kind == .container }
            .sorted { ($0.frame.area, $0.id) < ($1.frame.area, $1.id) }.map(\.id)
        for id in containers {
            guard let c = state.elements.firstIndex(where: { $0.id == id }) else { continue }
            let frame = state.elements[c].frame
            let inside = state.elements.indices.filter { i in
                i != c && state.elements[i].kind != .dialog && state.elements[i].kind != .tabButton
                    && state.elements[i].frame.fractionInside(frame) >= insideFraction
            }
            guard !inside.isEmpty else { continue }
            if config.sections && Self.rowCount(inside.map { state.elements[$0] }) >= config.minSectionRows { continue }
            let members = [state.elements[c]] + inside.map { state.elements[$0] }
            state.replace([([c] + inside).sorted()]) { state, _ in state.group(.group, members, frame: frame) }
        }
    }
}

extension ContainerRule {
    /// How many rows `elements` hold: bands of elements chained by one's vertical centre lying within
    /// the other's extent, each with a text-like member and one that is not text (a row's icon,
    /// picture, chevron or switch). A card's picture, title and lines are bands of one kind each.
    static func rowCount(_ elements: [DescribedElement]) -> Int {
        bands(elements.map(\.frame)).filter { band in
            let leaves = band.flatMap { elements[$0].leaves }
            return leaves.contains { $0.kind == .text } && leaves.contains { $0.kind != .text && !$0.kind.isRegion }
        }.count
    }
}

extension ContainerRule: GroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .containers }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.Containers> { \.containers }

    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping.containers, insideFraction: insideFraction)
    }
}
