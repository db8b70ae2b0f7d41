import Boxes

/// Ours: text T joins icon I when T's horizontal centre lies within I's x extent, T lies below I
/// (its centre below I's bottom) at a gap of less than `max_gap_in_icon_heights` x I's height, and
/// no other element below I and overlapping it in x is nearer. Such a tile is marked, so that the
/// list-row rule leaves it whole rather than joining the tiles of a grid row.
struct IconCaptionRule {
    var config: DescriptionConfig.IconCaptions

    func apply(_ state: inout DescriptionState) {
        var pairs: [[Int]] = []
        var taken = Set<Int>()
        for i in state.elements.indices where state.elements[i].kind == .icon {
            let icon = state.elements[i].frame
            let maxGap = min(Float(config.maxGapInIconHeights) * icon.height, Float(config.maxGap) * state.height)
            let below = state.elements.indices.filter { j in
                let d = state.elements[j]
                return j != i && !d.kind.isRegion && d.frame.centerY > icon.yMax && d.frame.xOverlap(icon) > 0
            }
            guard let nearest = below.min(by: { (icon.verticalGap(to: state.elements[$0].frame), $0) < (icon.verticalGap(to: state.elements[$1].frame), $1) }) else { continue }
            let t = state.elements[nearest]
            guard t.isTextLike, !taken.contains(nearest), icon.xMin <= t.frame.centerX, t.frame.centerX <= icon.xMax,
                  icon.verticalGap(to: t.frame) < maxGap else { continue }
            taken.insert(nearest)
            pairs.append([i, nearest].sorted())
        }
        state.replace(pairs.sorted { $0[0] < $1[0] }) { state, members in
            let tile = state.group(.group, members)
            state.tiles.insert(tile.id)
            return tile
        }
    }
}

extension IconCaptionRule: StandaloneGroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .iconCaptions }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.IconCaptions> { \.iconCaptions }
}
