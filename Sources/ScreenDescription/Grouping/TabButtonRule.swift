import Boxes

/// B is the bottom-most detection; a text or icon D is in the tab bar when it lies in the bottom
/// share of the screen and B.y_max - D.y_min < max_distance_from_bottom x H; tab-bar icons and
/// texts that overlap in x form one tab button. Containers and dialogs are not candidates for B
/// (ours: a background reaching the screen's bottom would push every item out of reach). Ours
/// (`max_card_width`): items inside a card are the card's.
struct TabButtonRule {
    var config: DescriptionConfig.TabButtons
    var insideFraction = 0.9

    func apply(_ state: inout DescriptionState) {
        // A detector that boxes tab bars has said where they are (`TabBarRule`); none boxed means none.
        guard !state.vocabularyHasTabBars else { return }
        let h = state.height
        guard let bottom = state.elements.filter({ !$0.kind.isRegion }).map(\.frame.yMax).max() else { return }
        let cards = state.elements.filter { $0.kind == .container && Double($0.frame.width) < config.maxCardWidth * Double(state.width) }.map(\.frame)
        let items = state.elements.indices.filter { i in
            let e = state.elements[i]
            return (e.kind == .icon || e.isTextLike) && Double(e.frame.yMin) >= (1 - config.bottomFraction) * Double(h)
                && Double(bottom - e.frame.yMin) < config.maxDistanceFromBottom * Double(h)
                && !e.frame.isInside(anyOf: cards, fraction: insideFraction)
        }
        // Ours: when the items are not evenly spaced, the highest ones may be a row above the bar
        // (within reach of the bottom); they are left out, highest first, until the rest are a bar.
        for top in Set(items.map { state.elements[$0].frame.yMin }).sorted() {
            let candidates = items.filter { state.elements[$0].frame.yMin >= top }
            let buttons = Self.buttons(candidates, state)
            guard buttons.count >= config.minButtons else { return }
            let centres = buttons.map { enclosing($0.map { state.elements[$0].frame }).centerX }.sorted()
            if Self.evenlySpaced(centres, width: state.width, tolerance: config.spacingTolerance) {
                return state.replace(buttons) { $0.group(.tabButton, $1) }
            }
        }
    }

    /// The items that overlap in x, chained: one tab button each, in increasing order.
    static func buttons(_ items: [Int], _ state: DescriptionState) -> [[Int]] {
        DisjointSets.chains(items.count) { state.elements[items[$0]].frame.xOverlap(state.elements[items[$1]].frame) > 0 }
            .map { $0.map { items[$0] } }
    }
}

extension TabButtonRule {
    /// Whether `centres` (sorted) sit in equal slots across `width` (ours: a tab bar gives each button
    /// an equal share of the screen's width): the gaps between neighbours and twice the margins at
    /// either edge all lie within `tolerance` x their mean of that mean.
    static func evenlySpaced(_ centres: [Float], width: Float, tolerance: Double) -> Bool {
        guard let first = centres.first, let last = centres.last else { return true }
        let gaps = [2 * Double(first)] + zip(centres.dropFirst(), centres).map { Double($0 - $1) } + [2 * Double(width - last)]
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        return gaps.allSatisfy { abs($0 - mean) <= tolerance * mean }
    }
}

extension TabButtonRule: GroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .tabButtons }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.TabButtons> { \.tabButtons }

    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping.tabButtons, insideFraction: insideFraction)
    }
}
