import FileKeys

/// Step 6: every grouping rule the config switches on, in `GroupingRules.inOrder`.
struct Grouping {
    var config: DescriptionConfig.Grouping
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        for rule in GroupingRules.inOrder { rule.apply(config, insideFraction: insideFraction, to: &state) }
    }
}

/// Step 6's rules, each listed once, in the order they run: the paper's four (text lines, tab
/// buttons, containers, picture subtitles) with ours fitted in (first the controls boxed with their
/// contents; figure captions after text lines; the tab bars a detector boxed before the tab-button
/// heuristic; then ratings, icon captions, icons in text rows, a label above its field, list rows,
/// trailing values). Each acts on the top-level elements the ones before it left.
enum GroupingRules {
    static let inOrder: [any GroupingRule.Type] = [
        ControlContentsRule.self, TextLineRule.self, FigureCaptionRule.self, TabBarRule.self, TabButtonRule.self, ContainerRule.self, PictureSubtitleRule.self,
        RatingRule.self, IconCaptionRule.self, IconTextRule.self, LabelFieldRule.self, ListRowRule.self, TrailingValueRule.self,
    ]
}

/// One rule of step 6: it joins some of the top-level elements into groups.
protocol GroupingRule: Sendable {
    associatedtype Settings: GroupingRuleSettings
    /// The rule's name: its key in the config's `grouping` section (`text_lines`).
    static var key: DescriptionConfig.Grouping.CodingKeys { get }
    /// Its settings in that section.
    static var settings: KeyPath<DescriptionConfig.Grouping, Settings> { get }
    /// The rule as `grouping` sets it, with the config's `inside_fraction`. A setting it shares with
    /// another rule is read from that rule's settings here, by name.
    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double)
    /// Joins elements of `state` into groups.
    func apply(_ state: inout DescriptionState)
}

/// A grouping rule that reads nothing but its own settings: its `init` comes from them. The
/// rules that read more (`inside_fraction`, another rule's setting) write theirs, naming it.
protocol StandaloneGroupingRule: GroupingRule {
    init(config: Settings)
}

extension StandaloneGroupingRule {
    init(_ grouping: DescriptionConfig.Grouping, insideFraction: Double) {
        self.init(config: grouping[keyPath: Self.settings])
    }
}

/// What every grouping rule's settings hold: the switch, and the checks of their own numbers.
protocol GroupingRuleSettings {
    var enabled: Bool { get }
    /// Impossible values, each naming its key in the rule's section.
    func problems() -> [ConfigProblem]
}

extension GroupingRule {
    /// Runs the rule on `state` when `grouping` switches it on.
    static func apply(_ grouping: DescriptionConfig.Grouping, insideFraction: Double, to state: inout DescriptionState) {
        guard grouping[keyPath: settings].enabled else { return }
        Self(grouping, insideFraction: insideFraction).apply(&state)
    }

    /// The impossible values of the rule's settings in `grouping`.
    static func problems(in grouping: DescriptionConfig.Grouping) -> [ConfigProblem] {
        grouping[keyPath: settings].problems()
    }
}

extension DescriptionConfig.Grouping {
    /// Each rule's impossible values under its key, in the order the rules run.
    func problems() -> [ConfigProblem] {
        var found = ConfigProblems(CodingKeys.self)
        for rule in GroupingRules.inOrder { found.nest(rule.key, rule.problems(in: self)) }
        return found.list
    }
}
