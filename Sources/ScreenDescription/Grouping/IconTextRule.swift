import Boxes

/// Ours: an icon on a text's line (its vertical centre within the text's extent), no taller than
/// `max_icon_height_in_text_heights` text heights and at most `max_gap_in_text_heights` text
/// heights away, joins the nearest such text: "< Back", "♥ 12". A text may take an icon on each side.
/// An icon inside a toolbar the detector boxed joins none: each is an action of its own, and the text beside it the title.
struct IconTextRule {
    var config: DescriptionConfig.IconText
    var insideFraction = 0.9

    func apply(_ state: inout DescriptionState) {
        let statusBar = Float(config.statusBarFraction) * state.height
        let texts = state.elements.indices.filter { state.elements[$0].kind == .text && state.elements[$0].frame.yMax > statusBar }
        var iconsOf: [Int: [Int]] = [:]
        let toolbars = state.toolbars
        for i in state.elements.indices where state.elements[i].kind == .icon && state.elements[i].frame.yMax > statusBar
            && !state.elements[i].frame.isInside(anyOf: toolbars, fraction: insideFraction) {
            let icon = state.elements[i].frame
            let near = texts.filter { t in
                let text = state.elements[t].frame
                return text.holdsVerticalCentre(of: icon) && Double(icon.height) <= config.maxIconHeightInTextHeights * Double(text.height)
                    && Double(icon.horizontalGap(text)) <= config.maxGapInTextHeights * Double(text.height)
            }
            let frames = state.elements.map(\.frame)
            let gap = { (t: Int) in icon.horizontalGap(frames[t]) }
            if let t = near.min(by: { (gap($0), $0) < (gap($1), $1) }) { iconsOf[t, default: []].append(i) }
        }
        let groups = iconsOf.map { ([$0.key] + $0.value).sorted() }.sorted { $0[0] < $1[0] }
        state.replace(groups) { $0.group(.group, $1) }
    }
}

extension IconTextRule: GroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .iconText }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.IconText> { \.iconText }

    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping.iconText, insideFraction: insideFraction)
    }
}
