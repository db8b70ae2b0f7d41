import Boxes
import Images

/// Step 3: OCR lines that overlap no detection become texts (source `ocr`), carrying their own text.
struct OCRTextAddition {
    var config: DescriptionConfig.OCRText

    func apply(_ state: inout DescriptionState, lines: [TextLine]) {
        let ignored = Set(config.ignoredClasses)
        let detections = state.elements.filter { !ignored.contains($0.kind.rawValue) }.map(\.frame)
        for line in lines where Double(line.confidence) >= config.minConfidence && line.box.isValid {
            let text = collapsingWhitespace(line.text)
            guard !text.isEmpty, !detections.contains(where: { $0.intersectionArea(line.box) > 0 }) else { continue }
            state.elements.append(DescribedElement(id: state.takeID(), kind: .text, frame: line.box, label: text, score: nil, source: .ocr))
        }
    }
}
