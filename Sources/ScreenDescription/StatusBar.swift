import Boxes
import Foundation
import Images

/// Ours: the status bar as one element outside the navigation order (VoiceOver reaches it apart
/// from the app's elements). It is the box the detector gives it (a class the vocabulary map makes
/// `status_bar`) or, without one, the top strip recognised from its layout: at least two icons and
/// texts on one row within the top `max_height_fraction` of the screen, one of them in its right
/// quarter (the battery), nothing else reaching into the strip but backgrounds. What lies inside
/// becomes its members (none of them a button); its label is the time OCR reads there and the
/// battery's charge, from lines read with at least `min_line_confidence`.
struct StatusBarRecognition {
    var config: DescriptionConfig.StatusBar
    var insideFraction: Double
    /// A line is in the bar when at least this share of its area is (the content step's rule).
    var minLineFractionInside: Double

    func apply(_ state: inout DescriptionState, lines: [TextLine]?) {
        let detected = state.elements.filter { $0.kind == .statusBar }
        let own = detected.max { ($0.score ?? 0, -$0.id) < ($1.score ?? 0, -$1.id) }
        guard let frame = own?.frame ?? (config.fromLayout ? strip(state) : nil) else { return }
        // Other status-bar boxes are the same bar found twice.
        state.elements.removeAll { $0.kind == .statusBar }
        let inside = state.elements.filter { !$0.kind.isRegion && $0.frame.fractionInside(frame) >= insideFraction }
        let ids = Set(inside.map(\.id))
        state.elements.removeAll { ids.contains($0.id) }
        let members = inside.map { m -> DescribedElement in
            var m = m
            m.interactive = false
            return m
        }
        var bar: DescribedElement
        if let own, members.isEmpty {
            bar = own
        } else {
            bar = state.group(.statusBar, (own.map { [$0] } ?? []) + members, frame: frame)
            bar.interactive = false
        }
        bar.kind = .statusBar
        bar.label = label(lines ?? [], frame: frame)
        bar.traits = [.staticText]
        state.statusBar = bar
    }

    /// The top strip holding a status bar's glyphs, full width; nil when the top of the screen does not look like one.
    func strip(_ state: DescriptionState) -> Box? {
        let limit = Float(config.maxHeightFraction) * state.height
        let glyphs = state.elements.filter { ($0.kind == .icon || $0.kind == .text) && $0.frame.yMax <= limit }
        guard glyphs.count >= 2, glyphs.contains(where: { $0.frame.xMax >= 0.75 * state.width }) else { return nil }
        let band = enclosing(glyphs.map(\.frame))
        let centres = glyphs.map(\.frame.centerY)
        let heights = glyphs.map(\.frame.height).sorted()
        guard centres.max()! - centres.min()! <= 0.5 * heights[heights.count / 2] else { return nil }
        let ids = Set(glyphs.map(\.id))
        // Anything else reaching into the strip (a title, a button) means the top is the app's, not a status bar;
        // a region or a picture reaching far below it is a background (a photo behind a transparent status bar).
        let intruder = state.elements.contains { e in
            !ids.contains(e.id) && e.frame.yMin < band.yMax && !e.kind.isRegion && !(e.kind == .picture && e.frame.yMax > 2 * limit)
        }
        guard !intruder else { return nil }
        return Box(xMin: 0, yMin: 0, xMax: state.width, yMax: min(limit, band.yMax + band.yMin))
    }

    /// The time (what a person looks at the status bar for), then the battery's charge, as OCR reads
    /// them in the bar, joined by ", ". Nothing else: the rest of what OCR reads there is its glyphs
    /// misread ("wT %", "G@"), which is noise to a listener.
    func label(_ lines: [TextLine], frame: Box) -> String {
        let text = lines.filter { Double($0.confidence) >= config.minLineConfidence && $0.box.fractionInside(frame) >= minLineFractionInside }
            .sorted { $0.box.xMin < $1.box.xMin }.map { collapsingWhitespace($0.text) }.joined(separator: " ")
        return [Self.time, Self.charge].compactMap { pattern in text.range(of: pattern, options: .regularExpression).map { String(text[$0]) } }
            .joined(separator: ", ")
    }

    /// A clock time ("9:41", "10:05 AM") and a battery charge ("85%").
    static let time = #"(?<![\d:])\d{1,2}:\d{2}(\s?[AaPp]\.?[Mm]\.?)?(?![\d:])"#
    static let charge = #"(?<!\d)\d{1,3}\s?%"#
}
