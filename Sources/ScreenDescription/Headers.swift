import Boxes

/// Ours: which texts are headings. A single-line text at least `min_height_ratio` times the
/// median height of the screen's texts (large titles, section titles), or a text centred in the
/// top bar (the navigation bar's title), or (ours) a single-line text inside a toolbar the detector boxed.
struct HeaderDetection {
    var config: DescriptionConfig.Headers
    var insideFraction = 0.9

    func apply(_ state: inout DescriptionState) {
        let texts = state.elements.filter { $0.kind == .text }
        let heights = texts.map(\.frame.height).sorted()
        let median: Float? = heights.count >= config.minTexts
            ? (heights.count % 2 == 1 ? heights[heights.count / 2] : (heights[heights.count / 2 - 1] + heights[heights.count / 2]) / 2) : nil
        let topBar = Float(config.topBarFraction) * state.height
        for t in texts where (state.lineCounts[t.id] ?? 1) <= 1 {
            let large = median.map { Double(t.frame.height) >= config.minHeightRatio * Double($0) } ?? false
            let title = t.frame.yMax <= topBar && Double(abs(t.frame.centerX - state.width / 2)) <= config.centreTolerance * Double(state.width)
            let inToolbar = t.frame.isInside(anyOf: state.toolbars, fraction: insideFraction)
            if large || title || inToolbar { state.headers.insert(t.id) }
        }
    }
}
