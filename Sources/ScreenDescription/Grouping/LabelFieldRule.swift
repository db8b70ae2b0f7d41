import Boxes

/// Ours: a text label right above a text field (its centre above the field's top, a gap of at
/// most `max_gap_in_field_heights` field heights, overlapping the field in x by `min_x_overlap`
/// of its width, nothing between them) joins the field. Fields are served top to bottom. A heading
/// ("Sign in" over the form) labels no field (`headings_apart`).
struct LabelFieldRule {
    var config: DescriptionConfig.LabelField

    func apply(_ state: inout DescriptionState) {
        let fields = state.elements.indices.filter { state.elements[$0].kind == .textField }
            .sorted { (state.elements[$0].frame.yMin, $0) < (state.elements[$1].frame.yMin, $1) }
        var taken = Set<Int>()
        var pairs: [[Int]] = []
        for f in fields {
            let field = state.elements[f].frame
            let labels = state.elements.indices.filter { t in
                let label = state.elements[t].frame
                guard !taken.contains(t), state.elements[t].isTextLike, label.centerY < field.yMin,
                      !(config.headingsApart && state.elements[t].leaves.contains { state.headers.contains($0.id) }),
                      Double(label.verticalGap(to: field)) <= config.maxGapInFieldHeights * Double(field.height),
                      Double(label.xOverlap(field)) >= config.minXOverlap * Double(label.width) else { return false }
                let span = label.union(field)
                return !state.elements.indices.contains { j in
                    let d = state.elements[j].frame
                    return j != t && j != f && !state.elements[j].kind.isRegion && d.xOverlap(span) > 0 && d.yMin >= label.yMax && d.yMax <= field.yMin
                }
            }
            let frames = state.elements.map(\.frame)
            let gap = { (t: Int) in frames[t].verticalGap(to: field) }
            guard let t = labels.min(by: { (gap($0), $0) < (gap($1), $1) }) else { continue }
            taken.formUnion([t, f])
            pairs.append([t, f].sorted())
        }
        state.replace(pairs.sorted { $0[0] < $1[0] }) { $0.group(.group, $1) }
    }
}

extension LabelFieldRule: StandaloneGroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .labelField }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.LabelField> { \.labelField }
}
