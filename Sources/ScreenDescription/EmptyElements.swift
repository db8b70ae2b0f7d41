/// Ours: an element with nothing to say is not spoken as its kind (README, "Screen descriptions",
/// what is left unsaid). A top-level text (or group of texts) that OCR read no word in, and an
/// icon the interactivity model decided is no button and the icon classifier named nothing, are
/// left out: VoiceOver would say "text" or "image" and nothing a person can use. Only where the
/// recogniser that would have given the words ran: without OCR a text's words are unknown, not
/// absent. Inside a group such members stay (they shape its frame) and say nothing; a picture
/// stays ("image": there is something to look at); a control stays ("button": something to do).
struct EmptyElements {
    /// Whether OCR ran on the screen, and whether the icon classifier did.
    var textsRead: Bool
    var iconsNamed: Bool

    func apply(_ state: inout DescriptionState) {
        state.elements.removeAll(where: isEmpty)
    }

    func isEmpty(_ e: DescribedElement) -> Bool {
        guard e.label.isEmpty, !e.interactive, e.actions.isEmpty, e.value == nil else { return false }
        if textsRead && e.isTextLike { return true }
        return iconsNamed && e.kind == .icon && e.traits == [.image]
    }
}
