import Boxes

/// A text T1 and a text T2 below it (T2's vertical centre lower) are grouped when they overlap in
/// x and the vertical gap is less than min(T1.height, T2.height); chains make several lines one group.
/// Ours (`headings_apart`): a heading joins no line; (`max_gap_growth`) a line set apart from the
/// paragraph below by more space than that paragraph's own lines joins it not.
struct TextLineRule {
    var config = DescriptionConfig.TextLines()

    func apply(_ state: inout DescriptionState) {
        let texts = state.elements.indices.filter { i in
            state.elements[i].kind == .text && !(config.headingsApart && state.headers.contains(state.elements[i].id))
        }
        let frames = texts.map { state.elements[$0].frame }
        func joins(_ t1: Box, _ t2: Box) -> Bool {
            t2.centerY > t1.centerY && t1.xOverlap(t2) > 0 && t1.verticalGap(to: t2) < min(t1.height, t2.height)
        }
        // The gap from each line to the nearest line it joins below, if any.
        let gapBelow: [Float?] = frames.indices.map { a in
            frames.indices.filter { $0 != a && joins(frames[a], frames[$0]) }.map { frames[a].verticalGap(to: frames[$0]) }.min()
        }
        var sets = DisjointSets(count: texts.count)
        for a in texts.indices {
            for b in texts.indices where a != b && joins(frames[a], frames[b]) {
                if let next = gapBelow[b],
                   Double(frames[a].verticalGap(to: frames[b])) > config.maxGapGrowth * Double(next) + 0.1 * Double(frames[b].height) { continue }
                sets.union(a, b)
            }
        }
        let groups = sets.components().filter { $0.count > 1 }.map { $0.map { texts[$0] } }
        state.replace(groups) { $0.group(.group, $1) }
    }
}

extension TextLineRule: StandaloneGroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .textLines }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.TextLines> { \.textLines }
}
