import FileKeys

/// The describer's switches and numbers (screen-description.md, "The steps"). Every default is the
/// spec's (the paper's) unless its comment says *ours*. Keys are snake_case; decoding needs every key,
/// so a caller lays a partial YAML file over `DescriptionConfig()` (as run configs are read) and
/// then checks `problems()`.
public struct DescriptionConfig: Codable, Equatable, Sendable {
    /// A box is inside another when at least this share of its area lies within it (the spec's; the
    /// tolerance for rounded pixels is ours in the spec).
    public var insideFraction = 0.9
    public var segmentedControls = SegmentedControls()
    public var ocrText = OCRText()
    public var content = Content()
    public var interactivity = Interactivity()
    public var headers = Headers()
    public var dialogFocus = DialogFocus()
    /// Ours: the status bar as one element outside the navigation order.
    public var statusBar = StatusBar()
    public var grouping = Grouping()
    public var selection = Selection()
    public var navigationOrder = NavigationOrder()
    /// Ours: elements with nothing to say are not spoken as their kind.
    public var emptyElements = EmptyElements()

    /// Every step and rule on, with the defaults below.
    public init() {}

    /// Only what the spec describes: the rules and cues of our own switched off.
    public static let paper: DescriptionConfig = {
        var c = DescriptionConfig()
        c.segmentedControls.fitToRow = false
        c.segmentedControls.maxGapInSegmentWidths = .greatestFiniteMagnitude
        c.ocrText.minConfidence = 0
        c.ocrText.ignoredClasses = []
        c.content.minLineConfidence = 0
        c.content.segmentLabels = false
        c.content.textFieldValues = false
        c.headers.enabled = false
        c.grouping.tabButtons.minButtons = 1
        c.grouping.tabButtons.spacingTolerance = .greatestFiniteMagnitude
        c.grouping.tabButtons.maxCardWidth = 0
        c.grouping.iconText.enabled = false
        c.grouping.labelField.enabled = false
        c.grouping.listRows.enabled = false
        c.grouping.trailingValues.enabled = false
        c.grouping.figureCaptions.enabled = false
        c.grouping.ratings.enabled = false
        c.grouping.containers.sections = false
        c.grouping.textLines.headingsApart = false
        c.grouping.textLines.maxGapGrowth = .greatestFiniteMagnitude
        c.grouping.iconCaptions.enabled = false
        c.selection.backgroundCue = false
        c.statusBar.enabled = false
        c.emptyElements.enabled = false
        return c
    }()

    /// Step 2: texts on the row of a detected segmented control become segments.
    public struct SegmentedControls: Codable, Equatable, Sendable {
        public var enabled = true
        /// Ours: the spec's "on the same row" read as "reachable along the row": a text joins when its
        /// horizontal gap to the nearest segment of the row is at most this many of that segment's
        /// widths (greatestFiniteMagnitude: anywhere on the row).
        public var maxGapInSegmentWidths = 1.0
        /// Ours: the new segment takes the row's segment height and width, centred on the text (clipped
        /// at its neighbours), as segments of one control are alike; otherwise it keeps the text's box.
        public var fitToRow = true

        enum CodingKeys: String, CodingKey {
            case enabled, maxGapInSegmentWidths = "max_gap_in_segment_widths", fitToRow = "fit_to_row"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.nonNegative(maxGapInSegmentWidths, .maxGapInSegmentWidths)
            return found.list
        }
    }

    /// Step 3: OCR lines that overlap no detection become texts.
    public struct OCRText: Codable, Equatable, Sendable {
        public var enabled = true
        /// Ours: lines the OCR is less sure of are left out (garbage read from icons and pictures).
        public var minConfidence = 0.6
        /// Ours: classes that enclose content and so do not count as overlapping a line.
        public var ignoredClasses = ["container", "dialog"]

        enum CodingKeys: String, CodingKey {
            case enabled, minConfidence = "min_confidence", ignoredClasses = "ignored_classes"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.share(minConfidence, .minConfidence)
            return found.list
        }
    }

    /// Step 4: labels and values from OCR lines and recognisers.
    public struct Content: Codable, Equatable, Sendable {
        public var enabled = true
        /// Ours: "mostly inside" is at least this share of the line's area.
        public var minLineFractionInside = 0.5
        /// Ours: lines read with less confidence are left out of labels (Tesseract's reading of a
        /// status bar's icons came at 0.14; real lines at 0.7 and more).
        public var minLineConfidence = 0.3
        /// Ours: segments are labelled with the text inside them, like texts.
        public var segmentLabels = true
        /// Ours: a text field's text (its content or placeholder) becomes its value.
        public var textFieldValues = true
        /// Ours: a text field whose text starts with "Search" is a search field.
        public var searchFields = true

        enum CodingKeys: String, CodingKey {
            case enabled, minLineFractionInside = "min_line_fraction_inside", minLineConfidence = "min_line_confidence", segmentLabels = "segment_labels"
            case textFieldValues = "text_field_values", searchFields = "search_fields"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.share(minLineFractionInside, .minLineFractionInside, allowZero: false)
            found.share(minLineConfidence, .minLineConfidence)
            return found.list
        }
    }

    /// Step 5: interactive by class, and icons by the interactivity model when one is given.
    public struct Interactivity: Codable, Equatable, Sendable {
        public var enabled = true
    }

    /// Ours: which texts are headings (the spec's output has the trait but no rule for it).
    public struct Headers: Codable, Equatable, Sendable {
        public var enabled = true
        /// A single-line text at least this many times the median text height is a heading.
        public var minHeightRatio = 1.4
        /// The median means something only with this many texts on the screen.
        public var minTexts = 3
        /// A text centred in the top bar (this share of the height) is the screen's title.
        public var topBarFraction = 0.12
        /// "Centred": its centre within this share of the width of the screen's centre.
        public var centreTolerance = 0.05

        enum CodingKeys: String, CodingKey {
            case enabled, minHeightRatio = "min_height_ratio", minTexts = "min_texts", topBarFraction = "top_bar_fraction"
            case centreTolerance = "centre_tolerance"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            if !(minHeightRatio > 1) { found.add(.minHeightRatio, "\(minHeightRatio) must be above 1") }
            found.atLeast(minTexts, 1, .minTexts)
            found.share(topBarFraction, .topBarFraction)
            found.share(centreTolerance, .centreTolerance)
            return found.list
        }
    }

    /// Step 8's dialog rule: when a dialog is shown only it and what lies inside it are described.
    public struct DialogFocus: Codable, Equatable, Sendable {
        public var enabled = true
    }


    /// Ours: the status bar as one element outside the navigation order: the detector's box (a class
    /// its vocabulary map makes `status_bar`) or the top strip recognised from its layout.
    public struct StatusBar: Codable, Equatable, Sendable {
        public var enabled = true
        /// Without a detected status bar, recognise the top strip from its layout (icons and texts on one row, one at the right).
        public var fromLayout = true
        /// The strip lies within this share of the screen height (an iPhone's with a notch: 5.6%; Android's: 3-4%).
        public var maxHeightFraction = 0.06
        /// OCR lines read with less confidence are left out of its label (its glyphs read as "wT %").
        public var minLineConfidence = 0.6

        enum CodingKeys: String, CodingKey {
            case enabled, fromLayout = "from_layout", maxHeightFraction = "max_height_fraction", minLineConfidence = "min_line_confidence"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.share(maxHeightFraction, .maxHeightFraction, allowZero: false)
            found.share(minLineConfidence, .minLineConfidence)
            return found.list
        }
    }

    /// Ours: a top-level text with no words read, or an icon decided no button with no name, is left out (`EmptyElements`).
    public struct EmptyElements: Codable, Equatable, Sendable {
        public var enabled = true
    }

    /// Step 7: selection state from class and from colour.
    public struct Selection: Codable, Equatable, Sendable {
        public var enabled = true
        /// Bits kept per channel before colours are counted (ours in the spec: value >> 3).
        public var quantisationBits = 5
        /// Two colours differ when some channel differs by more than this (0-255 units).
        public var minDifference = 24
        /// A thin bar under exactly one item selects it.
        public var underlineCue = true
        /// The only item with text is the selected one.
        public var textCue = true
        /// Ours: where tint does not decide, the one item whose background stands apart (the same
        /// rule as for tint), as an iOS 13 segmented control draws its selected segment.
        public var backgroundCue = true
        /// Ours: segments are of one control when on one row with gaps of at most this many heights.
        public var segmentGapInHeights = 0.5

        enum CodingKeys: String, CodingKey {
            case enabled, quantisationBits = "quantisation_bits", minDifference = "min_difference", underlineCue = "underline_cue"
            case textCue = "text_cue", backgroundCue = "background_cue", segmentGapInHeights = "segment_gap_in_heights"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            if !(1...8).contains(quantisationBits) { found.add(.quantisationBits, "\(quantisationBits) is not in 1...8") }
            if !(0...255).contains(minDifference) { found.add(.minDifference, "\(minDifference) is not in 0...255") }
            found.nonNegative(segmentGapInHeights, .segmentGapInHeights)
            return found.list
        }
    }

    /// Step 8: recursive XY-cut.
    public struct NavigationOrder: Codable, Equatable, Sendable {
        public var enabled = true
    }

    /// Problems that make the config impossible, each naming its dotted key: each section checks its
    /// own values, named by its own keys.
    public func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        found.share(insideFraction, .insideFraction, allowZero: false)
        found.nest(.segmentedControls, segmentedControls.problems())
        found.nest(.ocrText, ocrText.problems())
        found.nest(.content, content.problems())
        found.nest(.headers, headers.problems())
        found.nest(.statusBar, statusBar.problems())
        found.nest(.grouping, grouping.problems())
        found.nest(.selection, selection.problems())
        return found.list
    }

    enum CodingKeys: String, CodingKey {
        case insideFraction = "inside_fraction", segmentedControls = "segmented_controls", ocrText = "ocr_text", content, interactivity
        case headers, dialogFocus = "dialog_focus", statusBar = "status_bar", grouping, selection, navigationOrder = "navigation_order"
        case emptyElements = "empty_elements"
    }
}

extension ConfigProblems {
    /// The description config's checks, in the words every section uses: unless `value` is a share
    /// in 0...1 ((0...1] without `allowZero`), a problem at `key`.
    mutating func share(_ value: Double, _ key: Key, allowZero: Bool = true) {
        if !(value.isFinite && (allowZero ? value >= 0 : value > 0) && value <= 1) { add(key, "\(value) is not a share in \(allowZero ? "0" : "(0")...1") }
    }

    /// Unless `value` is 0 or more, a problem at `key`.
    mutating func nonNegative(_ value: Double, _ key: Key) {
        if !(value >= 0) { add(key, "\(value) must be 0 or more") }
    }

    /// Unless `value` is at least `minimum`, a problem at `key`.
    mutating func atLeast(_ value: Int, _ minimum: Int, _ key: Key) {
        if value < minimum { add(key, "must be at least \(minimum)") }
    }
}
