import Boxes

/// Text T1 joins picture P when it lies below P (its centre below P's bottom), overlaps P in x by
/// at least `min_x_overlap` of its width, its gap to P is less than `max_gap` x H, and it is closer
/// to P than to any other element below it that overlaps it in x (its own text group is already
/// one element); a second line T2 joins under the same conditions relative to T1.
struct PictureSubtitleRule {
    var config: DescriptionConfig.PictureSubtitles

    func apply(_ state: inout DescriptionState) {
        let pictures = state.elements.filter { $0.kind == .picture }.sorted { ($0.frame.yMin, $0.frame.xMin) < ($1.frame.yMin, $1.frame.xMin) }.map(\.id)
        for id in pictures {
            guard let p = state.elements.firstIndex(where: { $0.id == id }) else { continue }
            guard let first = caption(below: p, excluding: [p], in: state) else { continue }
            var members = [p, first]
            if config.secondLine, let second = caption(below: first, excluding: members, in: state) { members.append(second) }
            let ordered = members.map { state.elements[$0] }
            state.replace([members.sorted()]) { state, _ in state.group(.group, ordered) }
        }
    }

    /// The text-like element that captions element `above`, if one does.
    func caption(below above: Int, excluding taken: [Int], in state: DescriptionState) -> Int? {
        let a = state.elements[above].frame
        let maxGap = Float(config.maxGap) * state.height
        let candidates = state.elements.indices.filter { i in
            let t = state.elements[i].frame
            guard !taken.contains(i), state.elements[i].isTextLike, t.centerY > a.yMax,
                  Double(t.xOverlap(a)) >= config.minXOverlap * Double(t.width), a.verticalGap(to: t) < maxGap else { return false }
            let gap = a.verticalGap(to: t)
            return !state.elements.indices.contains { j in
                let d = state.elements[j]
                guard j != i, !taken.contains(j), !d.kind.isRegion, d.frame.centerY > t.centerY, d.frame.xOverlap(t) > 0 else { return false }
                return gap >= t.verticalGap(to: d.frame)
            }
        }
        return candidates.min { (a.verticalGap(to: state.elements[$0].frame), $0) < (a.verticalGap(to: state.elements[$1].frame), $1) }
    }
}

extension PictureSubtitleRule: StandaloneGroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .pictureSubtitles }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.PictureSubtitles> { \.pictureSubtitles }
}
