import Boxes

/// Step 6: the rules in order, the paper's four (text lines, tab buttons, containers, picture
/// subtitles) first, with ours fitted in (figure captions after text lines; then ratings, icon captions,
/// icons in text rows, a label above its field, list rows, trailing values). Each acts on the top-level elements the earlier ones left.
struct Grouping {
    var config: DescriptionConfig.Grouping
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        if config.textLines.enabled { TextLineRule(config: config.textLines).apply(&state) }
        if config.figureCaptions.enabled { FigureCaptionRule(config: config.figureCaptions).apply(&state) }
        if config.tabButtons.enabled { TabButtonRule(config: config.tabButtons, insideFraction: insideFraction).apply(&state) }
        if config.containers.enabled { ContainerRule(config: config.containers, insideFraction: insideFraction).apply(&state) }
        if config.pictureSubtitles.enabled { PictureSubtitleRule(config: config.pictureSubtitles).apply(&state) }
        if config.ratings.enabled { RatingRule(config: config.ratings, statusBarFraction: config.iconText.statusBarFraction).apply(&state) }
        if config.iconCaptions.enabled { IconCaptionRule(config: config.iconCaptions).apply(&state) }
        if config.iconText.enabled { IconTextRule(config: config.iconText).apply(&state) }
        if config.labelField.enabled { LabelFieldRule(config: config.labelField).apply(&state) }
        if config.listRows.enabled { ListRowRule(config: config.listRows).apply(&state) }
        if config.trailingValues.enabled { TrailingValueRule(config: config.trailingValues, topBarFraction: config.listRows.topBarFraction).apply(&state) }
    }
}

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

/// Ours: a figure and its caption. A text C centred under a text F (horizontal centres within
/// `max_centre_offset` x the wider's width, a gap of at most `max_gap_in_figure_heights` x F's height,
/// the nearest such) is F's caption when at least `min_columns` such pairs stand side by side (their
/// figures sharing a band): a row of counts or stats. The text-line rule misses them because the
/// large figure is a heading, or the gap exceeds the small caption's height.
struct FigureCaptionRule {
    var config: DescriptionConfig.FigureCaptions

    func apply(_ state: inout DescriptionState) {
        let frames = state.elements.map(\.frame)
        let texts = state.elements.indices.filter { state.elements[$0].kind == .text }
        var pairs: [(figure: Int, caption: Int)] = []
        var taken = Set<Int>()
        for f in texts {
            let figure = frames[f]
            let below = texts.filter { c in
                let caption = frames[c]
                return c != f && caption.centerY > figure.yMax
                    && Double(abs(caption.centerX - figure.centerX)) <= config.maxCentreOffset * Double(max(figure.width, caption.width))
                    && Double(figure.verticalGap(to: caption)) <= config.maxGapInFigureHeights * Double(figure.height)
            }
            guard let c = below.min(by: { (figure.verticalGap(to: frames[$0]), $0) < (figure.verticalGap(to: frames[$1]), $1) }),
                  !taken.contains(c), !taken.contains(f) else { continue }
            taken.formUnion([f, c])
            pairs.append((f, c))
        }
        var sets = DisjointSets(count: pairs.count)
        for a in pairs.indices {
            for b in pairs.indices where a < b {
                let (x, y) = (frames[pairs[a].figure], frames[pairs[b].figure])
                if x.holdsVerticalCentre(of: y) || y.holdsVerticalCentre(of: x) { sets.union(a, b) }
            }
        }
        let rows = sets.components().filter { $0.count >= config.minColumns }
        let groups = rows.flatMap { $0.map { [pairs[$0].figure, pairs[$0].caption].sorted() } }.sorted { $0[0] < $1[0] }
        state.replace(groups) { $0.group(.group, $1) }
    }
}

/// B is the bottom-most detection; a text or icon D is in the tab bar when it lies in the bottom
/// share of the screen and B.y_max - D.y_min < max_distance_from_bottom x H; tab-bar icons and
/// texts that overlap in x form one tab button. Containers and dialogs are not candidates for B
/// (ours: a background reaching the screen's bottom would push every item out of reach). Ours
/// (`max_card_width`): items inside a card are the card's.
struct TabButtonRule {
    var config: DescriptionConfig.TabButtons
    var insideFraction = 0.9

    func apply(_ state: inout DescriptionState) {
        let h = state.height
        guard let bottom = state.elements.filter({ !$0.kind.isRegion }).map(\.frame.yMax).max() else { return }
        let cards = state.elements.filter { $0.kind == .container && Double($0.frame.width) < config.maxCardWidth * Double(state.width) }.map(\.frame)
        let items = state.elements.indices.filter { i in
            let e = state.elements[i]
            return (e.kind == .icon || e.isTextLike) && Double(e.frame.yMin) >= (1 - config.bottomFraction) * Double(h)
                && Double(bottom - e.frame.yMin) < config.maxDistanceFromBottom * Double(h)
                && !cards.contains { e.frame.fractionInside($0) >= insideFraction }
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
        var sets = DisjointSets(count: items.count)
        for a in items.indices {
            for b in items.indices where a < b && state.elements[items[a]].frame.xOverlap(state.elements[items[b]].frame) > 0 { sets.union(a, b) }
        }
        return sets.components().map { $0.map { items[$0] } }
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

/// A container forms one group with every element inside it; smaller containers first, so that a
/// card inside a list is its own group before the list takes it. The container is the group's
/// first member and gives its frame. Dialogs and tab buttons are never taken (ours: a background
/// behind them must not swallow a dialog or a tab bar). Ours (`sections`): a container holding
/// several rows is a grouped table's section and groups nothing (see `isSection`).
struct ContainerRule {
    var config = DescriptionConfig.Containers()
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        let containers = state.elements.filter { $0.kind == .container }
            .sorted { ($0.frame.area, $0.id) < ($1.frame.area, $1.id) }.map(\.id)
        for id in containers {
            guard let c = state.elements.firstIndex(where: { $0.id == id }) else { continue }
            let frame = state.elements[c].frame
            let inside = state.elements.indices.filter { i in
                i != c && state.elements[i].kind != .dialog && state.elements[i].kind != .tabButton
                    && state.elements[i].frame.fractionInside(frame) >= insideFraction
            }
            guard !inside.isEmpty else { continue }
            if config.sections && Self.rowCount(inside.map { state.elements[$0] }) >= config.minSectionRows { continue }
            let members = [state.elements[c]] + inside.map { state.elements[$0] }
            state.replace([([c] + inside).sorted()]) { state, _ in state.group(.group, members, frame: frame) }
        }
    }
}

extension ContainerRule {
    /// How many rows `elements` hold: bands of elements chained by one's vertical centre lying within
    /// the other's extent, each with a text-like member and one that is not text (a row's icon,
    /// picture, chevron or switch). A card's picture, title and lines are bands of one kind each.
    static func rowCount(_ elements: [DescribedElement]) -> Int {
        var sets = DisjointSets(count: elements.count)
        for a in elements.indices {
            for b in elements.indices where a < b {
                let (x, y) = (elements[a].frame, elements[b].frame)
                if x.holdsVerticalCentre(of: y) || y.holdsVerticalCentre(of: x) { sets.union(a, b) }
            }
        }
        return sets.components().filter { band in
            let leaves = band.flatMap { elements[$0].leaves }
            return leaves.contains { $0.kind == .text } && leaves.contains { $0.kind != .text && !$0.kind.isRegion }
        }.count
    }
}

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
                && (a.holdsVerticalCentre(of: b) || b.holdsVerticalCentre(of: a))
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

/// Ours: an icon on a text's line (its vertical centre within the text's extent), no taller than
/// `max_icon_height_in_text_heights` text heights and at most `max_gap_in_text_heights` text
/// heights away, joins the nearest such text: "< Back", "♥ 12". A text may take an icon on each side.
struct IconTextRule {
    var config: DescriptionConfig.IconText

    func apply(_ state: inout DescriptionState) {
        let statusBar = Float(config.statusBarFraction) * state.height
        let texts = state.elements.indices.filter { state.elements[$0].kind == .text && state.elements[$0].frame.yMax > statusBar }
        var iconsOf: [Int: [Int]] = [:]
        for i in state.elements.indices where state.elements[i].kind == .icon && state.elements[i].frame.yMax > statusBar {
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
        var sets = DisjointSets(count: eligible.count)
        for a in eligible.indices {
            for b in eligible.indices where a < b {
                let (x, y) = (state.elements[eligible[a]].frame, state.elements[eligible[b]].frame)
                if x.holdsVerticalCentre(of: y) || y.holdsVerticalCentre(of: x) { sets.union(a, b) }
            }
        }
        var rows: [[Int]] = []
        for component in sets.components() where component.count > 1 {
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
