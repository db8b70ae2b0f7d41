import FileKeys

extension DescriptionConfig {
    /// Step 6: the paper's four rules and nine of ours, in the order they run (`GroupingRules`).
    public struct Grouping: Codable, Equatable, Sendable {
        /// Ours: a button, switch or checkbox boxed with what it shows is one element with it.
        public var controlContents = ControlContents()
        public var textLines = TextLines()
        /// Ours: figures with their captions centred under them, side by side ("1,234 / Followers").
        public var figureCaptions = FigureCaptions()
        /// Ours: the tab bars a detector boxes hold tab buttons (and the tab-button heuristic is not run).
        public var tabBars = TabBars()
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
            case controlContents = "control_contents", tabBars = "tab_bars"
            case textLines = "text_lines", figureCaptions = "figure_captions", tabButtons = "tab_buttons", containers, pictureSubtitles = "picture_subtitles", ratings, iconCaptions = "icon_captions"
            case iconText = "icon_text", labelField = "label_field", listRows = "list_rows", trailingValues = "trailing_values"
        }
    }

    /// Ours: a control boxed with its contents (`ControlContentsRule`); nothing to set but the switch.
    public struct ControlContents: Codable, Equatable, Sendable, GroupingRuleSettings {
        public var enabled = true
        func problems() -> [ConfigProblem] { [] }
    }

    /// Ours: tab bars the detector boxes (`TabBarRule`); nothing to set but the switch.
    public struct TabBars: Codable, Equatable, Sendable, GroupingRuleSettings {
        public var enabled = true
        func problems() -> [ConfigProblem] { [] }
    }

    /// The tab-bar rule, in shares of the screen height H.
    public struct TabButtons: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.share(bottomFraction, .bottomFraction)
            found.share(maxDistanceFromBottom, .maxDistanceFromBottom)
            found.atLeast(minButtons, 1, .minButtons)
            found.nonNegative(spacingTolerance, .spacingTolerance)
            found.share(maxCardWidth, .maxCardWidth)
            return found.list
        }
    }

    /// The text-line rule.
    public struct TextLines: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            if !(maxGapGrowth >= 1) { found.add(.maxGapGrowth, "\(maxGapGrowth) must be at least 1") }
            return found.list
        }
    }

    /// Ours: a row of figures, each with a caption centred under it.
    public struct FigureCaptions: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.nonNegative(maxCentreOffset, .maxCentreOffset)
            found.nonNegative(maxGapInFigureHeights, .maxGapInFigureHeights)
            found.atLeast(minColumns, 1, .minColumns)
            return found.list
        }
    }

    /// Ours: a star rating.
    public struct Ratings: Codable, Equatable, Sendable, GroupingRuleSettings {
        public var enabled = true
        /// At least this many icons of one size (within 20%) on one line, each at most half an icon's
        /// width from the next, then a text at most one icon's width after the last.
        public var minIcons = 3

        enum CodingKeys: String, CodingKey {
            case enabled, minIcons = "min_icons"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.atLeast(minIcons, 2, .minIcons)
            return found.list
        }
    }

    /// The container rule.
    public struct Containers: Codable, Equatable, Sendable, GroupingRuleSettings {
        public var enabled = true
        /// Ours: a container holding `min_section_rows` rows or more (bands of elements side by side,
        /// with a text and something that is not text) is a section of a grouped table: its rows are
        /// the elements, so it groups nothing and the list-row rule finds them.
        public var sections = true
        public var minSectionRows = 2

        enum CodingKeys: String, CodingKey {
            case enabled, sections, minSectionRows = "min_section_rows"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.atLeast(minSectionRows, 2, .minSectionRows)
            return found.list
        }
    }

    /// Ours: a text centred under an icon (its centre within the icon's x extent) at a gap of less
    /// than `max_gap_in_icon_heights` icon heights and less than `max_gap` x H, nearer than anything
    /// else below the icon, is the icon's caption: a shortcut tile of a grid, which list rows then
    /// leave whole. (A large illustration above a heading is far more than 0.02 H away.)
    public struct IconCaptions: Codable, Equatable, Sendable, GroupingRuleSettings {
        public var enabled = true
        public var maxGapInIconHeights = 0.5
        public var maxGap = 0.02

        enum CodingKeys: String, CodingKey {
            case enabled, maxGapInIconHeights = "max_gap_in_icon_heights", maxGap = "max_gap"
        }

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.nonNegative(maxGapInIconHeights, .maxGapInIconHeights)
            found.share(maxGap, .maxGap)
            return found.list
        }
    }

    /// The picture-subtitle rule.
    public struct PictureSubtitles: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.share(maxGap, .maxGap)
            found.share(minXOverlap, .minXOverlap)
            return found.list
        }
    }

    /// Ours: icons inside text rows.
    public struct IconText: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.nonNegative(maxGapInTextHeights, .maxGapInTextHeights)
            found.nonNegative(maxIconHeightInTextHeights, .maxIconHeightInTextHeights)
            found.share(statusBarFraction, .statusBarFraction)
            return found.list
        }
    }

    /// Ours: a label with its text field right below.
    public struct LabelField: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.nonNegative(maxGapInFieldHeights, .maxGapInFieldHeights)
            found.share(minXOverlap, .minXOverlap)
            return found.list
        }
    }

    /// Ours: list rows.
    public struct ListRows: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.share(topBarFraction, .topBarFraction)
            if maxInteractive < 0 { found.add(.maxInteractive, "must be 0 or more") }
            found.atLeast(maxLeadingIconGroups, 1, .maxLeadingIconGroups)
            found.nonNegative(maxPictureOffset, .maxPictureOffset)
            found.atLeast(maxTextMembers, 1, .maxTextMembers)
            return found.list
        }
    }

    /// Ours: a text at the end of a row beside the row's title, as a mail list puts the date.
    public struct TrailingValues: Codable, Equatable, Sendable, GroupingRuleSettings {
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

        /// Impossible values, each naming its key in the section.
        func problems() -> [ConfigProblem] {
            var found = ConfigProblems(CodingKeys.self)
            found.share(maxRightMargin, .maxRightMargin)
            found.nonNegative(minRaiseInTitleHeights, .minRaiseInTitleHeights)
            return found.list
        }
    }
}
