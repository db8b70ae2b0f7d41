import Boxes

/// Ours: a rating. At least `min_icons` icons of one size (within 20%) on one line below the status bar, each at most
/// half an icon's width from the next, and a text starting at most one icon's width after the last
/// are one element: five stars and "4.5 (120)" are read once. (The stars may look like buttons to the
/// interactivity model, which would keep them out of a list row.)
struct RatingRule {
    var config: DescriptionConfig.Ratings
    /// The status bar's glyphs and time (in this top share of H) are no rating.
    var statusBarFraction = 0.06

    func apply(_ state: inout DescriptionState) {
        let frames = state.elements.map(\.frame)
        let statusBar = Float(statusBarFraction) * state.height
        let icons = state.elements.indices.filter { state.elements[$0].kind == .icon && frames[$0].yMax > statusBar }
            .sorted { (frames[$0].xMin, $0) < (frames[$1].xMin, $1) }
        func alike(_ a: Box, _ b: Box) -> Bool {
            abs(a.height - b.height) <= 0.2 * max(a.height, b.height) && abs(a.width - b.width) <= 0.2 * max(a.width, b.width)
                && a.sharesBand(with: b)
        }
        var groups: [[Int]] = []
        var used = Set<Int>()
        for first in icons where !used.contains(first) {
            var run = [first]
            while let last = run.last,
                  let next = icons.first(where: { !used.contains($0) && !run.contains($0) && frames[$0].xMin >= frames[last].xMax - 1
                      && frames[$0].xMin - frames[last].xMax <= 0.5 * frames[last].width && alike(frames[$0], frames[last]) }) {
                run.append(next)
            }
            guard run.count >= config.minIcons, let end = run.last.map({ frames[$0] }) else { continue }
            let texts = state.elements.indices.filter { t in
                state.elements[t].kind == .text && frames[t].xMin >= end.xMax - 1 && frames[t].xMin - end.xMax <= end.width
                    && frames[t].holdsVerticalCentre(of: end)
            }
            guard let text = texts.min(by: { (frames[$0].xMin, $0) < (frames[$1].xMin, $1) }) else { continue }
            used.formUnion(run)
            groups.append((run + [text]).sorted())
        }
        state.replace(groups.sorted { $0[0] < $1[0] }) { $0.group(.group, $1) }
    }
}

extension RatingRule: GroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .ratings }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.Ratings> { \.ratings }

    /// The status bar is the one the icon-text rule leaves alone (`icon_text.status_bar_fraction`):
    /// one setting, so that the two rules agree on where it ends.
    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping.ratings, statusBarFraction: grouping.iconText.statusBarFraction)
    }
}
