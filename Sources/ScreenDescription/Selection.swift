import Boxes
import Images

/// Step 7: toggles and checkboxes from their class; the tab buttons of the bar and the segments
/// of each control from colour and the other cues; page controls' current page from their dots.
struct SelectionState {
    var config: DescriptionConfig.Selection

    func apply(_ state: inout DescriptionState, image: RGBImage) {
        let cues = SelectionCues(image: image, config: config)
        let pixels = ControlState(image: image, quantiser: cues.quantiser)
        state.updateLeaves { e in
            switch e.kind {
            // Ours: a class that does not say the state leaves it to the pixels (nil where they do not decide).
            case .toggle: e.selected = pixels.toggle(e.frame)
            case .checkbox: e.selected = pixels.checkbox(e.frame)
            case _ where e.kind.isToggle || e.kind.isCheckbox: e.selected = e.kind == .toggleSelected || e.kind == .checkboxSelected
            default: break
            }
        }
        // The tab buttons of each bar (a row of them: a top and a bottom bar are two sets) are siblings.
        let tabs = state.elements.indices.filter { state.elements[$0].kind == .tabButton }
        for bar in bands(tabs.map { state.elements[$0].frame }) {
            let members = bar.map { tabs[$0] }
            let tabStates = cues.decide(frames: members.map { state.elements[$0].frame },
                                        hasText: members.map { state.elements[$0].leaves.contains { $0.kind == .text } })
            for (i, selected) in zip(members, tabStates) { state.elements[i].selected = selected }
        }

        var segments: [DescribedElement] = []
        state.updateLeaves { e in if e.kind == .segmentedControl { segments.append(e) } }
        var segmentStates: [Int: Bool?] = [:]
        for control in SegmentControls.cluster(segments.map(\.frame), maxGapInHeights: config.segmentGapInHeights) {
            let states = cues.decide(frames: control.map { segments[$0].frame }, hasText: control.map { !segments[$0].label.isEmpty })
            for (k, selected) in zip(control, states) { segmentStates[segments[k].id] = selected }
        }
        let quantiser = cues.quantiser
        state.updateLeaves { e in
            if e.kind == .segmentedControl, let selected = segmentStates[e.id] { e.selected = selected }
            if e.kind == .pageControl, let dots = quantiser.pageIndicator(image, frame: e.frame) { e.value = "page \(dots.page) of \(dots.count)" }
        }
    }
}

/// Decides which of a set of sibling items is selected: tint first, then an underline under one
/// item, then the only item with text, then (ours) the one background that stands apart; where
/// none decides, every state is unknown. An empty frame (outside the image) decides nothing.
struct SelectionCues {
    let image: RGBImage
    let config: DescriptionConfig.Selection
    let quantiser: ColorQuantiser

    init(image: RGBImage, config: DescriptionConfig.Selection) {
        self.image = image
        self.config = config
        quantiser = ColorQuantiser(bits: config.quantisationBits, minDifference: config.minDifference)
    }

    /// One state per item: exactly one true and the rest false, or all nil.
    func decide(frames: [Box], hasText: [Bool]) -> [Bool?] {
        let unknown = [Bool?](repeating: nil, count: frames.count)
        guard frames.count >= 2 else { return unknown }
        func only(_ k: Int) -> [Bool?] { frames.indices.map { $0 == k } }
        let colours = frames.map { quantiser.colours(image, PixelRect($0, in: image.size)) }
        // An item showing nothing unlike its background has the background as its tint (ours: the
        // spec leaves it open; an unselected tab drawn in a faint grey is such an item).
        let tints = colours.compactMap { $0.map { $0.tint ?? $0.background } }
        if tints.count == frames.count, let k = quantiser.outlier(tints.map(quantiser.colour)) { return only(k) }
        if config.underlineCue {
            let bars = frames.indices.filter { i in colours[i].map { quantiser.hasUnderline(image, frame: frames[i], background: $0.background) } ?? false }
            if bars.count == 1 { return only(bars[0]) }
        }
        if config.textCue {
            let withText = hasText.indices.filter { hasText[$0] }
            if withText.count == 1 { return only(withText[0]) }
        }
        if config.backgroundCue {
            let backgrounds = colours.compactMap { $0?.background }
            if backgrounds.count == frames.count, let k = quantiser.outlier(backgrounds.map(quantiser.colour)) { return only(k) }
        }
        return unknown
    }
}

/// Segments of one control: on one row (one's vertical centre within the other's extent) with a
/// horizontal gap of at most `maxGapInHeights` of the taller one's height, chained.
public enum SegmentControls {
    /// The controls among `frames`: indices, each control left to right, controls by their first segment.
    public static func cluster(_ frames: [Box], maxGapInHeights: Double) -> [[Int]] {
        let controls = DisjointSets.chains(frames.count) { a, b in
            let (x, y) = (frames[a], frames[b])
            return x.sharesBand(with: y) && Double(x.horizontalGap(y)) <= maxGapInHeights * Double(max(x.height, y.height))
        }
        return controls.map { $0.sorted { (frames[$0].xMin, $0) < (frames[$1].xMin, $1) } }
            .sorted { (frames[$0[0]].yMin, frames[$0[0]].xMin) < (frames[$1[0]].yMin, frames[$1[0]].xMin) }
    }
}
