import Boxes

/// The `interactive` truth a data set's classes decide (screen-description.md, "Ground truth in
/// shards"), derived at import: 1 for a box whose class the map says can be activated (a button,
/// a field, a switch, a checkbox), and for an icon inside a bar that holds controls (a toolbar's
/// actions, a tab bar's tabs, by platform convention); -1 (unknown) for every other box, since a
/// class such as `Icon` or `Text` mixes both. Never 0: no class says an element cannot be activated.
public enum InteractiveTruth {
    /// A box lies inside a bar when at least this share of its area does (the description's `inside_fraction`).
    public static let insideFraction = 0.9

    /// One value per box (1 or -1); `classNames` are the boxes' classes, every one named by `map`.
    public static func derive(boxes: [Box], classNames: [String], map: VocabularyMap) -> [Int8] {
        let entries = classNames.map { map.entry($0) }
        let bars = boxes.indices.filter { entries[$0]?.kind.holdsControls == true }.map { boxes[$0] }
        return boxes.indices.map { i in
            guard let e = entries[i] else { return -1 }
            if e.interactive { return 1 }
            let b = boxes[i]
            if e.kind == .icon, b.area > 0, b.isInside(anyOf: bars, fraction: insideFraction) { return 1 }
            return -1
        }
    }
}
