import Boxes

/// Ours: a list row. Texts (or text groups, or icon-and-text groups), icons, pictures, toggles
/// and checkboxes that share a horizontal band (one's vertical centre within the other's extent,
/// chained) form one row when the band holds at least one text and one thing that is not text,
/// at most `max_interactive` interactive members (a row is one thing to activate), nothing else
/// overlaps the band, and it lies below the top bar (a navigation bar is not a row). Tiles (an icon
/// and its caption) are complete: they join no row. Pictures must sit centred on the row's text
/// (`centred_pictures`); at most `max_text_members` members hold text (a title, a value).
struct ListRowRule {
    var config: DescriptionConfig.ListRows

    static let anchors: Set<ElementKind> = [.icon, .picture, .toggleSelected, .toggleUnselected, .checkboxSelected, .checkboxUnselected]

    func apply(_ state: inout DescriptionState) {
        let topBar = Float(config.topBarFraction) * state.height
        let eligible = state.elements.indices.filter { i in
            let e = state.elements[i]
            let rowPart = Self.anchors.contains(e.kind) || (e.kind == .text) || (e.kind == .group && e.leaves.allSatisfy { $0.kind == .text || $0.kind == .icon })
            return rowPart && e.frame.yMax > topBar && !state.tiles.contains(e.id)
        }
        var rows: [[Int]] = []
        for component in bands(eligible.map { state.elements[$0].frame }) where component.count > 1 {
            let members = component.map { eligible[$0] }
            let leaves = members.flatMap { state.elements[$0].leaves }
            guard leaves.contains(where: { $0.kind == .text }), leaves.contains(where: { $0.kind != .text }),
                  Self.controls(leaves, leadingIconIsPicture: config.leadingIconIsPicture).count <= config.maxInteractive,
                  members.filter({ Self.leadsWithIcon(state.elements[$0]) }).count <= config.maxLeadingIconGroups,
                  members.filter({ state.elements[$0].leaves.contains { $0.kind == .text } }).count <= config.maxTextMembers,
                  !config.centredPictures || Self.picturesCentred(leaves, maxOffset: config.maxPictureOffset) else { continue }
            let band = enclosing(members.map { state.elements[$0].frame })
            let crowded = state.elements.indices.contains { j in
                !members.contains(j) && !state.elements[j].kind.isRegion && state.elements[j].frame.intersectionArea(band) > 0
            }
            if !crowded { rows.append(members) }
        }
        state.replace(rows) { $0.group(.group, $1) }
    }

    /// Whether every picture among `leaves` has its vertical centre within `maxOffset` x the height of
    /// the texts' extent of the texts' vertical centre (ours: a row centres its thumbnail or avatar on
    /// its text; a chat avatar sits at the foot of its bubble, and is not part of the message).
    static func picturesCentred(_ leaves: [DescribedElement], maxOffset: Double) -> Bool {
        let texts = leaves.filter { $0.kind == .text }.map(\.frame)
        guard !texts.isEmpty else { return true }
        let extent = enclosing(texts)
        return leaves.filter { $0.kind == .picture }.allSatisfy { p in
            Double(abs(p.frame.centerY - extent.centerY)) <= maxOffset * Double(extent.height)
        }
    }

    /// The interactive leaves of a row, but for an icon leading it when `leadingIconIsPicture`.
    static func controls(_ leaves: [DescribedElement], leadingIconIsPicture: Bool) -> [DescribedElement] {
        let leading = leadingIconIsPicture ? leaves.min { ($0.frame.xMin, $0.id) < ($1.frame.xMin, $1.id) } : nil
        return leaves.filter { $0.interactive && !($0.kind == .icon && $0.id == leading?.id) }
    }

    /// A group of an icon and text whose leftmost leaf is an icon ("☆ Favourites", a chip).
    static func leadsWithIcon(_ e: DescribedElement) -> Bool {
        guard e.kind == .group, e.leaves.contains(where: { $0.kind == .text }) else { return false }
        return e.leaves.min { ($0.frame.xMin, $0.id) < ($1.frame.xMin, $1.id) }?.kind == .icon
    }
}

extension ListRowRule: StandaloneGroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .listRows }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.ListRows> { \.listRows }
}
