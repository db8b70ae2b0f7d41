import Boxes
import Images
import VocabularyMaps

/// Turns one screen's detections (already through the deployment filter), its image and its OCR
/// lines into accessibility elements, running screen-description.md's steps 2-8 in order, each
/// as the config switches it.
public struct ScreenDescriber: Sendable {
    public var config: DescriptionConfig
    /// Step 5's icon model; without one no icon is marked a button (its interactivity is unknown).
    public var iconModel: IconInteractivityModel?
    public var pictureDescriber: (any PictureDescriber)?
    /// What the detector's classes become (README, "Vocabulary maps"); a class it lacks keeps its name as its kind.
    public var vocabulary: VocabularyMap

    /// A describer with `config` and the models given. Icons come named by the icon classifier
    /// (`ElementDetection.iconType`), which runs on the screenshot's pixels before the heuristics.
    public init(config: DescriptionConfig = DescriptionConfig(), iconModel: IconInteractivityModel? = nil, pictureDescriber: (any PictureDescriber)? = nil,
                vocabulary: VocabularyMap = .defaultVocabulary) {
        self.config = config
        self.iconModel = iconModel
        self.pictureDescriber = pictureDescriber
        self.vocabulary = vocabulary
    }

    /// The description of `screen`: its top-level elements in navigation order.
    public func describe(_ screen: ScreenInput) -> DescribedScreen {
        let c = config
        var state = DescriptionState(size: screen.image.size, detections: screen.detections, vocabulary: vocabulary)
        if c.segmentedControls.enabled { SegmentCompletion(config: c.segmentedControls, insideFraction: c.insideFraction).apply(&state) }
        if c.ocrText.enabled, let lines = screen.textLines { OCRTextAddition(config: c.ocrText).apply(&state, lines: lines) }
        if c.content.enabled {
            ContentAssignment(config: c.content, pictureDescriber: pictureDescriber, insideFraction: c.insideFraction)
                .apply(&state, lines: screen.textLines ?? [], image: screen.image)
        }
        if c.interactivity.enabled { InteractivityAssignment(model: iconModel, insideFraction: c.insideFraction).apply(&state) }
        if c.headers.enabled { HeaderDetection(config: c.headers, insideFraction: c.insideFraction).apply(&state) }
        // After the headings (whose median text height counts the status bar's time, as before it stood
        // apart) and before the dialog rule (a dialog does not hide the status bar).
        if c.statusBar.enabled {
            StatusBarRecognition(config: c.statusBar, insideFraction: c.insideFraction, minLineFractionInside: c.content.minLineFractionInside)
                .apply(&state, lines: screen.textLines)
        }
        if c.dialogFocus.enabled { DialogFocus(insideFraction: c.insideFraction).apply(&state) }
        Grouping(config: c.grouping, insideFraction: c.insideFraction).apply(&state)
        if c.selection.enabled { SelectionState(config: c.selection).apply(&state, image: screen.image) }
        if c.navigationOrder.enabled { NavigationOrder.apply(&state, insideFraction: c.insideFraction) }
        Roles().apply(&state)
        if c.emptyElements.enabled { EmptyElements(textsRead: screen.textLines != nil, iconsNamed: screen.iconsNamed).apply(&state) }
        return DescribedScreen(imageID: screen.imageID, width: screen.image.width, height: screen.image.height, elements: state.elements,
                               statusBar: state.statusBar)
    }
}
