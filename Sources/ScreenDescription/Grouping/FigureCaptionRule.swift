import Boxes

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
        let rows = bands(pairs.map { frames[$0.figure] }).filter { $0.count >= config.minColumns }
        let groups = rows.flatMap { $0.map { [pairs[$0].figure, pairs[$0].caption].sorted() } }.sorted { $0[0] < $1[0] }
        state.replace(groups) { $0.group(.group, $1) }
    }
}

extension FigureCaptionRule: StandaloneGroupingRule {
    static var key: DescriptionConfig.Grouping.CodingKeys { .figureCaptions }
    static var settings: KeyPath<DescriptionConfig.Grouping, DescriptionConfig.FigureCaptions> { \.figureCaptions }
}
