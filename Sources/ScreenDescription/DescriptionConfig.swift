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
    public var grouping = Grouping()
    public var selection = Selection()
    public var navigationOrder = NavigationOrder()

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
    }

    /// Step 8's dialog rule: when a dialog is shown only it and what lies inside it are described.
    public struct DialogFocus: Codable, Equatable, Sendable {
        public var enabled = true
    }

    /// Step 6: the paper's four rules and three of ours.
    public struct Grouping: Codable, Equatable, Sendable {
        public var textLines = TextLines()
        /// Ours: figures with their captions centred under them, side by side ("1,234 / Followers").
        public var figureCaptions = FigureCaptions()
        public var tabButtons = TabButtons()
        public var containers = Containers()
        public var pictureSubtitles = PictureSubtitles()
        /// Ours: a run of like icons and the figure after it (a star rating: "4.5 (120)").
        public var ratings = Ratings()
        /// Ours: an icon with its caption centred under it (a shortcut in a grid).
        public var iconCaptions = IconCaptions()
        /// Ours: an icon beside a text on its line ("< Back", "♥ 12").
        public var iconText = IconText()
        /// Ours: a text label with a text field right below it.
        public var labelField = LabelField()
        /// Ours: an icon, picture, toggle or checkbox and texts sharing a horizontal band (a list row).
        public var listRows = ListRows()
        /// Ours: a text at a row's end beside a title (and its subtitle): a date, a count, a size.
        public var trailingValues = TrailingValues()

        enum CodingKeys: String, CodingKey {
            case textLines = "text_lines", figureCaptions = "figure_captions", tabButtons = "tab_buttons", containers, pictureSubtitles = "picture_subtitles", ratings, iconCaptions = "icon_captions"
            case iconText = "icon_text", labelField = "label_field", listRows = "list_rows", trailingValues = "trailing_values"
        }
    }

    /// A rule with nothing to set but whether it runs.
    public struct Rule: Codable, Equatable, Sendable {
        public var enabled = true
    }

    /// The tab-bar rule, in shares of the screen height H.
    public struct TabButtons: Codable, Equatable, Sendable {
        public var enabled = true
        /// An item lies in the bottom `bottomFraction` of the screen...
        public var bottomFraction = 0.2
        /// ...and its top is less than this far above the bottom-most detection's bottom.
        public var maxDistanceFromBottom = 0.08
        /// Ours: fewer tab buttons than this are not a tab bar (a lone button at the bottom is not one).
        public var minButtons = 2
        /// Ours: a tab bar's buttons sit in equal slots across the screen: the gaps between neighbouring
        /// buttons' horizontal centres, and twice the margins at the screen's edges, lie within this share
        /// of their mean, or the items are no tab bar (a list row or a rating at the bottom of a screen
        /// without one). When the items are not, the highest are left out, row by row (a row above the
        /// bar). greatestFiniteMagnitude: any spacing.
        public var spacingTolerance = 0.25
        /// Ours: an item inside a container narrower than this share of W is a card's (a shelf of
        /// cards at the bottom of a screen is no tab bar); 0 lets cards' items be tab items.
        public var maxCardWidth = 0.5

        enum CodingKeys: String, CodingKey {
            case enabled, bottomFraction = "bottom_fraction", maxDistanceFromBottom = "max_distance_from_bottom", minButtons = "min_buttons"
            case spacingTolerance = "spacing_tolerance", maxCardWidth = "max_card_width"
        }
    }

    /// The text-line rule.
    public struct TextLines: Codable, Equatable, Sendable {
        public var enabled = true
        /// Ours: a heading (as `headers` finds them) joins no line: VoiceOver users move by headings,
        /// and "Create account" is not the first line of the paragraph under it.
        public var headingsApart = true
        /// Ours: a line joins the one below it only if their gap is at most this many times the gap
        /// from that line to the next it joins (plus a tenth of its height): a title set apart from
        /// its paragraph by more space than the paragraph's lines is not its first line.
        /// greatestFiniteMagnitude: the paper's rule.
        public var maxGapGrowth = 1.5

        enum CodingKeys: String, CodingKey {
            case enabled, headingsApart = "headings_apart", maxGapGrowth = "max_gap_growth"
        }
    }

    /// Ours: a row of figures, each with a caption centred under it.
    public struct FigureCaptions: Codable, Equatable, Sendable {
        public var enabled = true
        /// The caption's horizontal centre lies within this share of the wider one's width of the figure's.
        public var maxCentreOffset = 0.25
        /// The gap from figure to caption is at most this many figure heights.
        public var maxGapInFigureHeights = 1.5
        /// Pairs side by side (figures sharing a band): fewer than this are not a row of figures.
        public var minColumns = 2

        enum CodingKeys: String, CodingKey {
            case enabled, maxCentreOffset = "max_centre_offset", maxGapInFigureHeights = "max_gap_in_figure_heights", minColumns = "min_columns"
        }
    }

    /// Ours: a star rating.
    public struct Ratings: Codable, Equatable, Sendable {
        public var enabled = true
        /// At least this many icons of one size (within 20%) on one line, each at most half an icon's
        /// width from the next, then a text at most one icon's width after the last.
        public var minIcons = 3

        enum CodingKeys: String, CodingKey {
            case enabled, minIcons = "min_icons"
        }
    }

    /// The container rule.
    public struct Containers: Codable, Equatable, Sendable {
        public var enabled = true
        /// Ours: a container holding `min_section_rows` rows or more (bands of elements side by side,
        /// with a text and something that is not text) is a section of a grouped table: its rows are
        /// the elements, so it groups nothing and the list-row rule finds them.
        public var sections = true
        public var minSectionRows = 2

        enum CodingKeys: String, CodingKey {
            case enabled, sections, minSectionRows = "min_section_rows"
        }
    }

    /// Ours: a text centred under an icon (its centre within the icon's x extent) at a gap of less
    /// than `max_gap_in_icon_heights` icon heights and less than `max_gap` x H, nearer than anything
    /// else below the icon, is the icon's caption: a shortcut tile of a grid, which list rows then
    /// leave whole. (A large illustration above a heading is far more than 0.02 H away.)
    public struct IconCaptions: Codable, Equatable, Sendable {
        public var enabled = true
        public var maxGapInIconHeights = 0.5
        public var maxGap = 0.02

        enum CodingKeys: String, CodingKey {
            case enabled, maxGapInIconHeights = "max_gap_in_icon_heights", maxGap = "max_gap"
        }
    }

    /// The picture-subtitle rule.
    public struct PictureSubtitles: Codable, Equatable, Sendable {
        public var enabled = true
        /// The vertical gap to the picture is less than this share of H.
        public var maxGap = 0.03
        /// The text overlaps the picture in x by at least this share of the text's width.
        public var minXOverlap = 0.5
        /// A second line may join under the same conditions relative to the first.
        public var secondLine = true

        enum CodingKeys: String, CodingKey {
            case enabled, maxGap = "max_gap", minXOverlap = "min_x_overlap", secondLine = "second_line"
        }
    }

    /// Ours: icons inside text rows.
    public struct IconText: Codable, Equatable, Sendable {
        public var enabled = true
        /// The icon's horizontal gap to the text is at most this many text heights.
        public var maxGapInTextHeights = 1.0
        /// The icon is at most this many text heights tall (taller ones lead a list row instead).
        public var maxIconHeightInTextHeights = 2.0
        /// Icons and texts lying wholly in this top share of H are the status bar's, each its own
        /// element (the time beside the signal glyph is not "< Back"); 0 leaves the status bar alone.
        public var statusBarFraction = 0.06

        enum CodingKeys: String, CodingKey {
            case enabled, maxGapInTextHeights = "max_gap_in_text_heights", maxIconHeightInTextHeights = "max_icon_height_in_text_heights"
            case statusBarFraction = "status_bar_fraction"
        }
    }

    /// Ours: a label with its text field right below.
    public struct LabelField: Codable, Equatable, Sendable {
        public var enabled = true
        /// The vertical gap from label to field is at most this many field heights.
        public var maxGapInFieldHeights = 0.5
        /// The label overlaps the field in x by at least this share of the label's width.
        public var minXOverlap = 0.5
        /// A heading (as `headers` finds them: "Sign in", "Create account") labels no field.
        public var headingsApart = true

        enum CodingKeys: String, CodingKey {
            case enabled, maxGapInFieldHeights = "max_gap_in_field_heights", minXOverlap = "min_x_overlap", headingsApart = "headings_apart"
        }
    }

    /// Ours: list rows.
    public struct ListRows: Codable, Equatable, Sendable {
        public var enabled = true
        /// Elements in the top bar (this share of H) are a navigation bar, not a row.
        public var topBarFraction = 0.12
        /// A row is one thing to activate: at most this many interactive members.
        public var maxInteractive = 1
        /// A row has one leading icon: a band holding more members than this that are an icon with a
        /// text after it ("☆ Favourites") is a row of chips or buttons, each its own element.
        public var maxLeadingIconGroups = 1
        /// A row centres its pictures (thumbnail, avatar) on its text: each picture's vertical centre lies
        /// within `max_picture_offset` x the height of the texts' extent of the texts' centre. A chat
        /// avatar at the foot of a bubble is no part of the message.
        public var centredPictures = true
        public var maxPictureOffset = 0.3
        /// A row holds a title (with its subtitle) and perhaps a value: a band with more members holding
        /// text than this is a row of chips or a table's columns, each its own element.
        public var maxTextMembers = 2
        /// An icon leading the row is its picture, not one of its controls, whatever the icon-interactivity
        /// model makes of it (a settings row's glyph before its title and switch).
        public var leadingIconIsPicture = true

        enum CodingKeys: String, CodingKey {
            case enabled, topBarFraction = "top_bar_fraction", maxInteractive = "max_interactive"
            case maxLeadingIconGroups = "max_leading_icon_groups", centredPictures = "centred_pictures", maxPictureOffset = "max_picture_offset"
            case maxTextMembers = "max_text_members", leadingIconIsPicture = "leading_icon_is_picture"
        }
    }

    /// Ours: a text at the end of a row beside the row's title, as a mail list puts the date.
    public struct TrailingValues: Codable, Equatable, Sendable {
        public var enabled = true
        /// The value ends within this share of W of the screen's right edge.
        public var maxRightMargin = 0.1
        /// A one-line title: the value's vertical centre lies at least this many title heights above
        /// the title's (top-aligned with it, as a date beside a sender). A link centred on a heading
        /// ("See all") is no value of it.
        public var minRaiseInTitleHeights = 0.2

        enum CodingKeys: String, CodingKey {
            case enabled, maxRightMargin = "max_right_margin", minRaiseInTitleHeights = "min_raise_in_title_heights"
        }
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
    }

    /// Step 8: recursive XY-cut.
    public struct NavigationOrder: Codable, Equatable, Sendable {
        public var enabled = true
    }

    /// Problems that make the config impossible, each naming its dotted key.
    public func problems() -> [(key: String, problem: String)] {
        var out: [(String, String)] = []
        func share(_ v: Double, _ key: String, allowZero: Bool = true) {
            if !(v.isFinite && (allowZero ? v >= 0 : v > 0) && v <= 1) { out.append((key, "\(v) is not a share in \(allowZero ? "0" : "(0")...1")) }
        }
        func nonNegative(_ v: Double, _ key: String) {
            if !(v >= 0) { out.append((key, "\(v) must be 0 or more")) }
        }
        share(insideFraction, "inside_fraction", allowZero: false)
        nonNegative(segmentedControls.maxGapInSegmentWidths, "segmented_controls.max_gap_in_segment_widths")
        share(ocrText.minConfidence, "ocr_text.min_confidence")
        share(content.minLineFractionInside, "content.min_line_fraction_inside", allowZero: false)
        share(content.minLineConfidence, "content.min_line_confidence")
        if !(headers.minHeightRatio > 1) { out.append(("headers.min_height_ratio", "\(headers.minHeightRatio) must be above 1")) }
        if headers.minTexts < 1 { out.append(("headers.min_texts", "must be at least 1")) }
        share(headers.topBarFraction, "headers.top_bar_fraction")
        share(headers.centreTolerance, "headers.centre_tolerance")
        share(grouping.tabButtons.bottomFraction, "grouping.tab_buttons.bottom_fraction")
        share(grouping.tabButtons.maxDistanceFromBottom, "grouping.tab_buttons.max_distance_from_bottom")
        nonNegative(grouping.tabButtons.spacingTolerance, "grouping.tab_buttons.spacing_tolerance")
        share(grouping.tabButtons.maxCardWidth, "grouping.tab_buttons.max_card_width")
        if grouping.tabButtons.minButtons < 1 { out.append(("grouping.tab_buttons.min_buttons", "must be at least 1")) }
        if grouping.containers.minSectionRows < 2 { out.append(("grouping.containers.min_section_rows", "must be at least 2")) }
        nonNegative(grouping.iconCaptions.maxGapInIconHeights, "grouping.icon_captions.max_gap_in_icon_heights")
        share(grouping.iconCaptions.maxGap, "grouping.icon_captions.max_gap")
        share(grouping.iconText.statusBarFraction, "grouping.icon_text.status_bar_fraction")
        share(grouping.pictureSubtitles.maxGap, "grouping.picture_subtitles.max_gap")
        share(grouping.pictureSubtitles.minXOverlap, "grouping.picture_subtitles.min_x_overlap")
        nonNegative(grouping.iconText.maxGapInTextHeights, "grouping.icon_text.max_gap_in_text_heights")
        nonNegative(grouping.iconText.maxIconHeightInTextHeights, "grouping.icon_text.max_icon_height_in_text_heights")
        nonNegative(grouping.labelField.maxGapInFieldHeights, "grouping.label_field.max_gap_in_field_heights")
        share(grouping.labelField.minXOverlap, "grouping.label_field.min_x_overlap")
        share(grouping.listRows.topBarFraction, "grouping.list_rows.top_bar_fraction")
        if grouping.listRows.maxTextMembers < 1 { out.append(("grouping.list_rows.max_text_members", "must be at least 1")) }
        if grouping.listRows.maxLeadingIconGroups < 1 { out.append(("grouping.list_rows.max_leading_icon_groups", "must be at least 1")) }
        nonNegative(grouping.listRows.maxPictureOffset, "grouping.list_rows.max_picture_offset")
        if !(grouping.textLines.maxGapGrowth >= 1) { out.append(("grouping.text_lines.max_gap_growth", "\(grouping.textLines.maxGapGrowth) must be at least 1")) }
        if grouping.ratings.minIcons < 2 { out.append(("grouping.ratings.min_icons", "must be at least 2")) }
        nonNegative(grouping.figureCaptions.maxCentreOffset, "grouping.figure_captions.max_centre_offset")
        nonNegative(grouping.figureCaptions.maxGapInFigureHeights, "grouping.figure_captions.max_gap_in_figure_heights")
        if grouping.figureCaptions.minColumns < 1 { out.append(("grouping.figure_captions.min_columns", "must be at least 1")) }
        share(grouping.trailingValues.maxRightMargin, "grouping.trailing_values.max_right_margin")
        nonNegative(grouping.trailingValues.minRaiseInTitleHeights, "grouping.trailing_values.min_raise_in_title_heights")
        if grouping.listRows.maxInteractive < 0 { out.append(("grouping.list_rows.max_interactive", "must be 0 or more")) }
        if !(1...8).contains(selection.quantisationBits) { out.append(("selection.quantisation_bits", "\(selection.quantisationBits) is not in 1...8")) }
        if !(0...255).contains(selection.minDifference) { out.append(("selection.min_difference", "\(selection.minDifference) is not in 0...255")) }
        nonNegative(selection.segmentGapInHeights, "selection.segment_gap_in_heights")
        return out
    }

    enum CodingKeys: String, CodingKey {
        case insideFraction = "inside_fraction", segmentedControls = "segmented_controls", ocrText = "ocr_text", content, interactivity
        case headers, dialogFocus = "dialog_focus", grouping, selection, navigationOrder = "navigation_order"
    }
}
