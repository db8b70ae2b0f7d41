import Boxes

/// The spec's dialog rule, applied before grouping (ours: so that no group straddles the
/// dialog's edge): when a dialog is shown (the highest-scored one), only it and what lies inside
/// it are described; what lies behind it is not reachable.
struct DialogFocus {
    var insideFraction: Double

    func apply(_ state: inout DescriptionState) {
        let dialogs = state.elements.filter { $0.kind == .dialog }
        guard let dialog = dialogs.max(by: { ($0.score ?? -.infinity) < ($1.score ?? -.infinity) }) else { return }
        state.elements = state.elements.filter { $0.id == dialog.id || $0.frame.fractionInside(dialog.frame) >= insideFraction }
    }
}
