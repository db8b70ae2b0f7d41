import Boxes
import Images

/// Step 4: texts (and, ours, segments) take the OCR lines lying mostly inside them as their
/// label, text fields as their value; icons say their type's label where the icon classifier named one,
/// pictures a describer's words when one is given.
struct ContentAssignment {
    var config: DescriptionConfig.Content
    var pictureDescriber: (any PictureDescriber)?
    var insideFraction = 0.9

    func apply(_ state: inout DescriptionState, lines: [TextLine], image: RGBImage) {
        let frames = state.elements.map { (id: $0.id, frame: $0.frame, region: $0.kind.isRegion) }
        for i in state.elements.indices {
            let e = state.elements[i]
            switch e.kind {
            case _ where e.kind.holdsItsLabel:
                // Ours: a button, or a switch or checkbox of a detector that boxes it with its label, says
                // the words in its box, unless it holds elements of its own (the grouping step's
                // control-contents rule makes it speak theirs).
                let holds = frames.contains { $0.id != e.id && !$0.region && $0.frame.fractionInside(e.frame) >= insideFraction }
                if !holds { state.elements[i].label = readingRows(of: lines, inside: e.frame).joined(separator: " ") }
            case .text where e.source == .detector:
                let rows = readingRows(of: lines, inside: e.frame)
                state.elements[i].label = rows.joined(separator: " ")
                state.lineCounts[e.id] = rows.count
            case .segmentedControl where config.segmentLabels:
                state.elements[i].label = readingRows(of: lines, inside: e.frame).joined(separator: " ")
            case .textField where config.textFieldValues:
                let text = readingRows(of: lines, inside: e.frame).joined(separator: " ")
                state.elements[i].value = text.isEmpty ? nil : text
                if config.searchFields && text.lowercased().hasPrefix("search") { state.searchFields.insert(e.id) }
            case .icon:
                // An icon has no text of its own: the type's label is what a screen reader says (icon-recognition.md).
                if let label = e.iconType?.label { state.elements[i].label = label }
            case .picture:
                if let text = pictureDescriber?.describePicture(in: image, frame: e.frame) { state.elements[i].label = collapsingWhitespace(text) }
            default:
                break
            }
        }
    }

    /// The text of the (confident enough) lines lying mostly inside `frame`, one string per row in reading order:
    /// rows top to bottom (a line joins a row when its vertical centre lies within the row's first
    /// line), lines within a row left to right.
    func readingRows(of lines: [TextLine], inside frame: Box) -> [String] {
        let inside = lines.filter { Double($0.confidence) >= config.minLineConfidence && $0.box.fractionInside(frame) >= config.minLineFractionInside }
            .sorted { ($0.box.centerY, $0.box.xMin) < ($1.box.centerY, $1.box.xMin) }
        var rows: [[TextLine]] = []
        for line in inside {
            if let first = rows.last?.first, first.box.holdsVerticalCentre(of: line.box) { rows[rows.count - 1].append(line) } else { rows.append([line]) }
        }
        return rows.map { row in
            collapsingWhitespace(row.sorted { $0.box.xMin < $1.box.xMin }.map(\.text).joined(separator: " "))
        }.filter { !$0.isEmpty }
    }
}
