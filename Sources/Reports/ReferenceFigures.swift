import Shards

/// Published figures to show beside ours: AP50 and AP-center in percent, per class and as means.
public struct ReferenceFigures: Sendable {
    /// What the report calls them, e.g. "paper".
    public var name: String
    public var perClass: [String: (ap50: Double, apCenter: Double)]
    /// The plain means over classes.
    public var mean: (ap50: Double, apCenter: Double)
    /// The mean AP50 weighted by ground-truth count.
    public var weightedAP50: Double

    /// Figures with every part given.
    public init(name: String, perClass: [String: (ap50: Double, apCenter: Double)], mean: (ap50: Double, apCenter: Double), weightedAP50: Double) {
        self.name = name
        self.perClass = perClass
        self.mean = mean
        self.weightedAP50 = weightedAP50
    }

    /// Zhang et al., CHI 2021, on their 5,002 test screens (paper-facts.md).
    public static let paper = ReferenceFigures(
        name: "paper",
        perClass: [
            "checkbox_unselected": (77.5, 79.1), "checkbox_selected": (27.4, 27.4), "container": (82.1, 83.0), "dialog": (62.9, 63.3),
            "icon": (79.7, 88.0), "page_control": (65.4, 87.3), "picture": (72.0, 76.9), "segmented_control": (55.1, 57.6),
            "slider": (55.6, 63.0), "text": (87.5, 91.7), "text_field": (79.2, 79.5), "toggle_unselected": (91.7, 91.7), "toggle_selected": (90.5, 92.0),
        ],
        mean: (71.3, 75.4), weightedAP50: 82.7)

    /// The paper's figures for an evaluation over its vocabulary (the default classes, in order); nil for any other.
    public static func paper(for classNames: [String]) -> ReferenceFigures? {
        classNames == defaultClassNames ? paper : nil
    }
}
