import Boxes
import VocabularyMaps

/// What the interactivity model sees of one icon (screen-description.md, step 5: position, size,
/// icon type, neighbours). Computed the same way for training (from ground truth) and for use.
public struct IconFeatures: Equatable, Sendable {
    /// The features in order; a model file records them and is refused if they differ.
    public static let names = [
        "center_x", "center_y", "width", "height", "area", "aspect", "text_distance",
        "in_top_bar", "in_bottom_bar", "row_neighbours", "icon_type",
    ]
    /// The top and bottom bars as shares of the screen height (ours: an iPhone's navigation bar
    /// and tab bar with their safe areas are 10-11% of it).
    public static let barFraction: Float = 0.12

    /// One value per name of `names`.
    public let values: [Double]

    /// Values given directly (e.g. from another implementation); there must be one per name.
    public init(values: [Double]) {
        precondition(values.count == Self.names.count, "\(values.count) icon features for \(Self.names.count) names")
        self.values = values
    }

    /// The features of the icon at `icon` on a screen of `screen` pixels among `neighbours` (the
    /// screen's other elements). Positions and sizes are shares of the screen's width and height;
    /// `text_distance` is the gap to the nearest text as a share of the screen's diagonal (1 with
    /// no text); `row_neighbours` counts the elements sharing the icon's row (one's vertical centre
    /// within the other's extent), containers and dialogs left out; `icon_type` is -1 when unknown.
    public init(icon: Box, screen: Size, neighbours: [(kind: ElementKind, frame: Box)], iconType: Int?) {
        let w = Double(screen.width), h = Double(screen.height)
        let diagonal = (w * w + h * h).squareRoot()
        let textDistance = neighbours.filter { $0.kind == .text }.map { Double(icon.distance($0.frame)) / diagonal }.min() ?? 1
        let rowNeighbours = neighbours.filter { !$0.kind.isRegion && ($0.frame.holdsVerticalCentre(of: icon) || icon.holdsVerticalCentre(of: $0.frame)) }.count
        let barHeight = Self.barFraction * Float(screen.height)
        self.init(values: [
            Double(icon.centerX) / w, Double(icon.centerY) / h,
            Double(icon.width) / w, Double(icon.height) / h, icon.area / (w * h),
            icon.height > 0 ? Double(icon.width / icon.height) : 0,
            min(1, textDistance),
            icon.yMax <= barHeight ? 1 : 0, icon.yMin >= Float(screen.height) - barHeight ? 1 : 0,
            Double(rowNeighbours), Double(iconType ?? -1),
        ])
    }
}

/// One labelled icon for training or validating the interactivity model.
public struct IconExample: Equatable, Sendable {
    public var features: IconFeatures
    public var interactive: Bool

    /// An example with every field given.
    public init(features: IconFeatures, interactive: Bool) {
        self.features = features
        self.interactive = interactive
    }
}

/// Step 5: `text_field`, toggles, checkboxes, `slider`, `page_control` and `segmented_control`
/// are interactive by class (tab buttons when they are formed), and so is whatever the detector's
/// vocabulary map says can be activated (a button class); ours: an icon inside a toolbar or tab
/// bar the detector boxed is an action or a tab by platform convention; other icons when the model says so.
struct InteractivityAssignment {
    var model: IconInteractivityModel?
    var insideFraction = 0.9

    func apply(_ state: inout DescriptionState) {
        let all = state.elements.map { (kind: $0.kind, frame: $0.frame) }
        let bars = state.tabBars + state.toolbars
        for i in state.elements.indices {
            let e = state.elements[i]
            if state.interactiveByClass(e) {
                state.elements[i].interactive = true
            } else if e.kind == .icon && e.frame.isInside(anyOf: bars, fraction: insideFraction) {
                state.elements[i].interactive = true
                state.iconDecided.insert(e.id)
            } else if e.kind == .icon, let model {
                var neighbours = all
                neighbours.remove(at: i)
                let features = IconFeatures(icon: e.frame, screen: state.size, neighbours: neighbours, iconType: state.iconGuesses[e.id]?.index)
                state.elements[i].interactive = model.isButton(features)
                state.iconDecided.insert(e.id)
            }
        }
    }
}
