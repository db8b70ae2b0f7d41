import Boxes

/// Step 2: a text whose vertical centre lies within the vertical extent of a detected segmented
/// control, on its row and not inside any segment, becomes a segment (the detector missed it
/// and saw only its text). Segments are boxed one per segment.
struct SegmentCompletion {
    var config: DescriptionConfig.SegmentedControls
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        let detected = state.elements.filter { $0.kind == .segmentedControl }.map(\.frame)
        guard !detected.isEmpty else { return }
        // Converted texts extend the row's reach, so that two missed segments in a row are both found.
        var segments = detected
        var changed = true
        while changed {
            changed = false
            for i in state.elements.indices where state.elements[i].kind == .text {
                let text = state.elements[i].frame
                guard !text.isInside(anyOf: segments, fraction: insideFraction) else { continue }
                let row = detected.filter { $0.holdsVerticalCentre(of: text) }
                guard let anchor = row.min(by: { $0.horizontalGap(text) < $1.horizontalGap(text) }) else { continue }
                let reach = segments.filter { $0.holdsVerticalCentre(of: text) }
                    .map { Double($0.horizontalGap(text)) / Double(max($0.width, 1)) }.min() ?? .infinity
                guard reach <= config.maxGapInSegmentWidths else { continue }
                let frame = config.fitToRow ? fitted(text, like: anchor, between: segments) : text
                state.elements[i].kind = .segmentedControl
                state.elements[i].frame = frame
                segments.append(frame)
                changed = true
            }
        }
    }

    /// A segment the size of `anchor` centred on `text`, cut back where it would overlap a
    /// segment of the row, and never narrower than the text.
    func fitted(_ text: Box, like anchor: Box, between segments: [Box]) -> Box {
        var xMin = text.centerX - anchor.width / 2, xMax = text.centerX + anchor.width / 2
        for s in segments where s.yMax > anchor.yMin && s.yMin < anchor.yMax {
            if s.centerX < text.centerX { xMin = max(xMin, s.xMax) } else { xMax = min(xMax, s.xMin) }
        }
        return Box(xMin: min(xMin, text.xMin), yMin: anchor.yMin, xMax: max(xMax, text.xMax), yMax: anchor.yMax)
    }
}
