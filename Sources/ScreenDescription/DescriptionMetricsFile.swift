import FileKeys
import Foundation

/// The description metrics of a data set (metrics.json of `uidetect evaluate-description`): each
/// figure with the paper's beside it, the counts behind them, and every screen's own figures.
/// Shares are fractions (0.737, not 73.7); a figure with nothing to measure is null.
public struct DescriptionMetricsFile: Codable, Equatable, Sendable {
    /// A figure and the paper's value for it (nil where the paper has none).
    public struct Figure: Codable, Equatable, Sendable {
        @Nullable public var value: Double?
        @Nullable public var paper: Double?

        /// A figure with both values given.
        public init(value: Double?, paper: Double?) {
            self.value = value
            self.paper = paper
        }
    }

    /// The sums the figures are made of, over the screens that had each dataset.
    public struct Counts: Codable, Equatable, Sendable {
        public var boxes = 0
        public var topLevelElements = 0
        public var screensWithGrouping = 0
        public var predictedGroups = 0
        public var incorrectlyGrouped = 0
        public var shouldHaveGrouped = 0
        public var screensWithOrder = 0
        public var orderErrors = 0
        public var screensWithTabButtons = 0
        public var screensWithSegments = 0
        public var iconTruePositives = 0
        public var iconFalsePositives = 0
        public var iconFalseNegatives = 0
        public var textEditDistance = 0
        public var textTrueLength = 0
        public var iconTypesTrue = 0
        public var iconTypesRight = 0
        public var iconTypesOfVocabulary = 0
        public var iconTypesCovered = 0
        public var iconTypesGiven = 0
        public var iconTypesGivenRight = 0
        public var iconButtons = 0
        public var iconButtonsLabelled = 0
        public var interactiveTruePositives = 0
        public var interactiveFalsePositives = 0
        public var interactiveFalseNegatives = 0
        public var interactiveKnownNegatives = 0

        enum CodingKeys: String, CodingKey {
            case boxes, topLevelElements = "top_level_elements", screensWithGrouping = "screens_with_grouping", predictedGroups = "predicted_groups"
            case incorrectlyGrouped = "incorrectly_grouped", shouldHaveGrouped = "should_have_grouped", screensWithOrder = "screens_with_order"
            case orderErrors = "order_errors", screensWithTabButtons = "screens_with_tab_buttons", screensWithSegments = "screens_with_segments"
            case iconTruePositives = "icon_true_positives", iconFalsePositives = "icon_false_positives", iconFalseNegatives = "icon_false_negatives"
            case textEditDistance = "text_edit_distance", textTrueLength = "text_true_length"
            case iconTypesTrue = "icon_types_true", iconTypesRight = "icon_types_right", iconTypesOfVocabulary = "icon_types_of_vocabulary"
            case iconTypesCovered = "icon_types_covered", iconTypesGiven = "icon_types_given", iconTypesGivenRight = "icon_types_given_right"
            case iconButtons = "icon_buttons", iconButtonsLabelled = "icon_buttons_labelled"
            case interactiveTruePositives = "interactive_true_positives", interactiveFalsePositives = "interactive_false_positives"
            case interactiveFalseNegatives = "interactive_false_negatives", interactiveKnownNegatives = "interactive_known_negatives"
        }
    }

    /// The file's name in an evaluation folder.
    public static let fileName = "metrics.json"

    public var screens: Int
    /// Incorrectly grouped plus should-have-grouped errors, per screen with `group_index` (paper: 0.62).
    public var groupingErrorsPerScreen: Figure
    /// Incorrectly grouped over predicted groups (paper: 5.6%).
    public var incorrectlyGroupedShare: Figure
    /// 1 - top-level elements / boxes, pooled over screens (paper: 48.5%).
    public var elementReduction: Figure
    /// Screens in perfect order (paper: 73.7%); a screen with n = 0 is perfect.
    public var orderPerfectShare: Figure
    /// Screens with fewer than n / 10 order errors (paper: 90.8%); a perfect screen counts, n = 0 included.
    public var orderWithinTenthShare: Figure
    /// Order errors per screen (paper: 0.67).
    public var orderMeanErrors: Figure
    /// Screens with tab buttons whose every tab button gets its state (paper: 90.5%).
    public var tabButtonSelection: Figure
    /// Screens with segments whose every segment gets its state (paper: 73.6%).
    public var segmentSelection: Figure
    /// Precision and recall of `button` on matched icons (paper: 90.0% / 73.6%).
    public var iconButtonPrecision: Figure
    public var iconButtonRecall: Figure
    /// Sum of edit distances over the sum of true lengths (the paper has none).
    public var textCharacterErrorRate: Figure
    /// On matched icons whose truth has a type (icon-recognition.md): the share said right (their
    /// type; none for `other`), the share of the 52 types' icons given a type (coverage), and the
    /// share of types given that are right (label precision).
    public var iconTypeAccuracy: Figure
    public var iconTypeCoverage: Figure
    public var iconLabelPrecision: Figure
    /// The share of matched true icon buttons with a label to speak.
    public var iconButtonsLabelled: Figure
    /// Ours: recall of interactivity over every box whose truth says it can be activated (matched
    /// leaf or its top-level element interactive; unmatched ones missed), and precision over the
    /// boxes with a known `interactive`, null where the truth knows no box that cannot be (real
    /// screens: the classes only ever say "can").
    public var interactiveRecall: Figure
    public var interactivePrecision: Figure
    public var counts: Counts
    public var perScreen: [ScreenDescriptionMetrics]

    /// The data set's figures from its screens'.
    public init(_ screens: [ScreenDescriptionMetrics]) {
        var c = Counts()
        var perfect = 0, withinTenth = 0, tabsRight = 0, segmentsRight = 0, groupingErrors = 0
        for s in screens {
            c.boxes += s.boxes
            c.topLevelElements += s.topLevelElements
            if let incorrectly = s.incorrectlyGrouped, let should = s.shouldHaveGrouped {
                c.screensWithGrouping += 1
                c.predictedGroups += s.predictedGroups
                c.incorrectlyGrouped += incorrectly
                c.shouldHaveGrouped += should
                groupingErrors += incorrectly + should
            }
            if let n = s.orderedElements, let errors = s.orderErrors {
                c.screensWithOrder += 1
                c.orderErrors += errors
                if errors == 0 { perfect += 1 }
                if errors == 0 || Double(errors) < Double(n) / 10 { withinTenth += 1 }
            }
            if let right = s.tabButtonsCorrect { c.screensWithTabButtons += 1; if right { tabsRight += 1 } }
            if let right = s.segmentsCorrect { c.screensWithSegments += 1; if right { segmentsRight += 1 } }
            c.iconTruePositives += s.iconTruePositives
            c.iconFalsePositives += s.iconFalsePositives
            c.iconFalseNegatives += s.iconFalseNegatives
            c.textEditDistance += s.textEditDistance
            c.textTrueLength += s.textTrueLength
            c.iconTypesTrue += s.iconTypesTrue
            c.iconTypesRight += s.iconTypesRight
            c.iconTypesOfVocabulary += s.iconTypesOfVocabulary
            c.iconTypesCovered += s.iconTypesCovered
            c.iconTypesGiven += s.iconTypesGiven
            c.iconTypesGivenRight += s.iconTypesGivenRight
            c.iconButtons += s.iconButtons
            c.iconButtonsLabelled += s.iconButtonsLabelled
            c.interactiveTruePositives += s.interactiveTruePositives
            c.interactiveFalsePositives += s.interactiveFalsePositives
            c.interactiveFalseNegatives += s.interactiveFalseNegatives
            c.interactiveKnownNegatives += s.interactiveKnownNegatives
        }
        func ratio(_ a: Int, _ b: Int) -> Double? { b > 0 ? Double(a) / Double(b) : nil }
        self.screens = screens.count
        groupingErrorsPerScreen = Figure(value: ratio(groupingErrors, c.screensWithGrouping), paper: Paper.groupingErrorsPerScreen)
        incorrectlyGroupedShare = Figure(value: ratio(c.incorrectlyGrouped, c.predictedGroups), paper: Paper.incorrectlyGroupedShare)
        elementReduction = Figure(value: ratio(c.topLevelElements, c.boxes).map { 1 - $0 }, paper: Paper.elementReduction)
        orderPerfectShare = Figure(value: ratio(perfect, c.screensWithOrder), paper: Paper.orderPerfectShare)
        orderWithinTenthShare = Figure(value: ratio(withinTenth, c.screensWithOrder), paper: Paper.orderWithinTenthShare)
        orderMeanErrors = Figure(value: ratio(c.orderErrors, c.screensWithOrder), paper: Paper.orderMeanErrors)
        tabButtonSelection = Figure(value: ratio(tabsRight, c.screensWithTabButtons), paper: Paper.tabButtonSelection)
        segmentSelection = Figure(value: ratio(segmentsRight, c.screensWithSegments), paper: Paper.segmentSelection)
        iconButtonPrecision = Figure(value: ratio(c.iconTruePositives, c.iconTruePositives + c.iconFalsePositives), paper: Paper.iconButtonPrecision)
        iconButtonRecall = Figure(value: ratio(c.iconTruePositives, c.iconTruePositives + c.iconFalseNegatives), paper: Paper.iconButtonRecall)
        textCharacterErrorRate = Figure(value: ratio(c.textEditDistance, c.textTrueLength), paper: nil)
        iconTypeAccuracy = Figure(value: ratio(c.iconTypesRight, c.iconTypesTrue), paper: nil)
        iconTypeCoverage = Figure(value: ratio(c.iconTypesCovered, c.iconTypesOfVocabulary), paper: nil)
        iconLabelPrecision = Figure(value: ratio(c.iconTypesGivenRight, c.iconTypesGiven), paper: nil)
        iconButtonsLabelled = Figure(value: ratio(c.iconButtonsLabelled, c.iconButtons), paper: nil)
        interactiveRecall = Figure(value: ratio(c.interactiveTruePositives, c.interactiveTruePositives + c.interactiveFalseNegatives), paper: nil)
        interactivePrecision = Figure(value: c.interactiveKnownNegatives == 0 ? nil
                                          : ratio(c.interactiveTruePositives, c.interactiveTruePositives + c.interactiveFalsePositives), paper: nil)
        counts = c
        perScreen = screens
    }

    /// The paper's figures (Zhang et al., CHI 2021, section 5), as fractions.
    public enum Paper {
        public static let groupingErrorsPerScreen = 0.62
        public static let incorrectlyGroupedShare = 0.056
        public static let elementReduction = 0.485
        public static let orderPerfectShare = 0.737
        public static let orderWithinTenthShare = 0.908
        public static let orderMeanErrors = 0.67
        public static let tabButtonSelection = 0.905
        public static let segmentSelection = 0.736
        public static let iconButtonPrecision = 0.900
        public static let iconButtonRecall = 0.736
    }

    /// Every figure with its key, in the file's order: what reports list.
    public var figures: [(key: String, figure: Figure)] {
        [("grouping_errors_per_screen", groupingErrorsPerScreen), ("incorrectly_grouped_share", incorrectlyGroupedShare),
         ("element_reduction", elementReduction), ("order_perfect_share", orderPerfectShare),
         ("order_within_tenth_share", orderWithinTenthShare), ("order_mean_errors", orderMeanErrors),
         ("tab_button_selection", tabButtonSelection), ("segment_selection", segmentSelection),
         ("icon_button_precision", iconButtonPrecision), ("icon_button_recall", iconButtonRecall),
         ("text_character_error_rate", textCharacterErrorRate), ("icon_type_accuracy", iconTypeAccuracy),
         ("icon_type_coverage", iconTypeCoverage), ("icon_label_precision", iconLabelPrecision), ("icon_buttons_labelled", iconButtonsLabelled),
         ("interactive_recall", interactiveRecall), ("interactive_precision", interactivePrecision)]
    }

    /// Reads a description metrics file.
    public init(contentsOf url: URL) throws {
        self = try JSONCoding.decode(Self.self, from: try JSONCoding.read(url), path: url.path)
    }

    /// Writes the file atomically.
    public func write(to url: URL) throws {
        try JSONCoding.write(self, to: url)
    }

    enum CodingKeys: String, CodingKey {
        case screens, groupingErrorsPerScreen = "grouping_errors_per_screen", incorrectlyGroupedShare = "incorrectly_grouped_share"
        case elementReduction = "element_reduction", orderPerfectShare = "order_perfect_share", orderWithinTenthShare = "order_within_tenth_share"
        case orderMeanErrors = "order_mean_errors", tabButtonSelection = "tab_button_selection", segmentSelection = "segment_selection"
        case iconButtonPrecision = "icon_button_precision", iconButtonRecall = "icon_button_recall"
        case textCharacterErrorRate = "text_character_error_rate", iconTypeAccuracy = "icon_type_accuracy", iconTypeCoverage = "icon_type_coverage"
        case iconLabelPrecision = "icon_label_precision", iconButtonsLabelled = "icon_buttons_labelled"
        case interactiveRecall = "interactive_recall", interactivePrecision = "interactive_precision"
        case counts, perScreen = "per_screen"
    }
}
