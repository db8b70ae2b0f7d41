import Boxes

/// Ours: the tab bars the detector boxed (vocabulary kind `tab_bar`: a bottom navigation, a row of
/// tabs): the elements inside each bar that overlap in x, chained, form one tab button each. Where
/// the vocabulary boxes tab bars, the paper's tab-button heuristic is not run (`TabButtonRule`): the
/// detector says where the bar is, and a screen without one has none.
struct TabBarRule {
    var config = DescriptionConfig.TabBars()
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        for bar in state.tabBars.sorted(by: { ($0.yMin, $0.xMin) < ($1.yMin, $1.xMin) }) {
            let items = state.elements.indices.filter { i in
                let e = state.elements[i]
                return !e.kind.isRegion && e.kind != .tabButton && e.kind != .statusBar && e.frame.fractionInside(bar) >= insideFraction
            }
            guard !items.isEmpty else { continue }
            let buttons = DisjointSets.chains(items.count) { state.elements[items[$0]].frame.xOverlap(state.elements[items[$1]].frame) > 0 }
                .map { $0.map { items[$0] } }
            state.replace(buttons) { $0.group(.tabButton, $1) }
        }
    }
}

extension TabBarRule: GroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .tabBars }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.TabBars> { \.tabBars }

    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping.tabBars, insideFraction: insideFraction)
    }
}
