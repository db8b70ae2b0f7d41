import Boxes

/// Ours: a trailing value. A text ending at the screen's right edge (within `max_right_margin` x W)
/// joins the text or text group on its left (below the top bar, not a heading, across a gap, the two
/// overlapping in y, nothing else in their band) when it sits at the title's top: within a title and
/// subtitle's extent, or, beside a one-line title, raised by `min_raise_in_title_heights` title heights
/// (a date top-aligned with a sender's name; a "See all" centred on a heading stays apart).
struct TrailingValueRule {
    var config: DescriptionConfig.TrailingValues
    var topBarFraction: Double

    func apply(_ state: inout DescriptionState) {
        let topBar = Float(topBarFraction) * state.height
        let candidates = state.elements.indices.filter { i in
            let e = state.elements[i]
            return e.isTextLike && e.frame.yMax > topBar && !e.leaves.contains { state.headers.contains($0.id) }
        }
        var pairs: [[Int]] = []
        var taken = Set<Int>()
        for v in candidates where state.elements[v].kind == .text {
            let value = state.elements[v].frame
            guard Double(state.width - value.xMax) <= config.maxRightMargin * Double(state.width) else { continue }
            let titles = candidates.filter { t in
                guard t != v, !taken.contains(t) else { return false }
                let title = state.elements[t].frame
                return title.xMax < value.xMin && min(title.yMax, value.yMax) > max(title.yMin, value.yMin) && sitsAtTop(value, of: state.elements[t])
            }
            let frames = state.elements.map(\.frame)
            guard let t = titles.min(by: { (frames[$0].horizontalGap(value), $0) < (frames[$1].horizontalGap(value), $1) }) else { continue }
            let band = value.union(frames[t])
            let crowded = state.elements.indices.contains { j in
                j != t && j != v && !state.elements[j].kind.isRegion && frames[j].intersectionArea(band) > 0
            }
            guard !crowded, !taken.contains(v) else { continue }
            taken.formUnion([t, v])
            pairs.append([t, v].sorted())
        }
        state.replace(pairs.sorted { $0[0] < $1[0] }) { $0.group(.group, $1) }
    }

    /// Whether `value` sits at the top of `title`: in a several-line title's extent, or raised
    /// beside a one-line title.
    func sitsAtTop(_ value: Box, of title: DescribedElement) -> Bool {
        if title.leaves.count > 1 { return title.frame.holdsVerticalCentre(of: value) }
        return Double(title.frame.centerY - value.centerY) >= config.minRaiseInTitleHeights * Double(title.frame.height)
    }
}

extension TrailingValueRule: GroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .trailingValues }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.TrailingValues> { \.trailingValues }

    /// The top bar is the one list rows stay below (`list_rows.top_bar_fraction`): one setting, so
    /// that a value and its row are judged by the same bar.
    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping.trailingValues, topBarFraction: grouping.listRows.topBarFraction)
    }
}
