import Boxes
import IconVocabulary
import VocabularyMaps

/// One screen on its way through the steps: the top-level elements and what the steps learned
/// about them that the output has no field for (read by later steps, then dropped).
struct DescriptionState {
    let size: Size
    var elements: [DescribedElement]
    private(set) var nextID: Int
    /// The icon classifier's most probable type of each icon, by element id (the interactivity model's feature).
    var iconGuesses: [Int: IconType] = [:]
    /// Icons whose interactivity a model decided (the rest are unknown, so not called images).
    var iconDecided: Set<Int> = []
    var headers: Set<Int> = []
    /// Groups that are a tile of a grid (an icon and its caption): complete, no row takes them.
    var tiles: Set<Int> = []
    var searchFields: Set<Int> = []
    /// How many OCR rows a detected text holds (a heading is one line).
    var lineCounts: [Int: Int] = [:]
    /// What each detection's class says of its interactivity (the vocabulary map's `interactive`), by
    /// id, with the kind it was given: a step that changes the kind (a text made a segment) changes it.
    var classInteractivity: [Int: (kind: ElementKind, interactive: Bool)] = [:]
    /// Bars the detector boxed (vocabulary kinds `tab_bar` and `toolbar`): no elements themselves.
    var tabBars: [Box] = []
    var toolbars: [Box] = []
    /// Whether the detector's vocabulary boxes tab bars (then the tab-button heuristic is not needed).
    var vocabularyHasTabBars = false
    /// Groups of a control with what the detector boxed inside it: activated as that control.
    var controlGroups: Set<Int> = []
    /// The status bar once found (step "status bar"), kept apart from the navigation order.
    var statusBar: DescribedElement?

    /// The detections as elements, each with its input index as id and the kind `vocabulary` gives
    /// its class (a class the map lacks keeps its own name as its kind). Bars are kept as bars, lists
    /// and backgrounds left out (what lies inside them stays).
    init(size: Size, detections: [ElementDetection], vocabulary: VocabularyMap = .defaultVocabulary) {
        self.size = size
        elements = []
        for (i, d) in detections.enumerated() {
            let entry = vocabulary.entry(d.className)
            switch entry?.kind {
            case .tabBar?: tabBars.append(d.box)
            case .toolbar?: toolbars.append(d.box)
            case .list?, .background?: break
            default:
                let kind = entry.map { ElementKind(rawValue: $0.kind.rawValue) } ?? ElementKind(rawValue: d.className)
                elements.append(DescribedElement(id: i, kind: kind, frame: d.box, score: d.score, source: .detector, iconType: d.iconType))
                if let entry { classInteractivity[i] = (kind, entry.interactive) }
            }
            if let guess = d.iconGuess { iconGuesses[i] = guess }
        }
        vocabularyHasTabBars = vocabulary.has(.tabBar)
        nextID = detections.count
    }

    var width: Float { Float(size.width) }
    var height: Float { Float(size.height) }

    /// Whether `e` can be activated by its class: as the vocabulary map says for its detection's
    /// class, or, for an element the steps made or changed, as its kind is by default.
    func interactiveByClass(_ e: DescribedElement) -> Bool {
        if let known = classInteractivity[e.id], known.kind == e.kind { return known.interactive }
        return DescriptionKind(rawValue: e.kind.rawValue)?.interactiveByDefault ?? false
    }

    /// A fresh element id.
    mutating func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// A group of `members` with plain groups among them flattened into their members, framed by
    /// `frame` or else by the members' union. Its score is the mean of its leaves' scores.
    mutating func group(_ kind: ElementKind, _ members: [DescribedElement], frame: Box? = nil) -> DescribedElement {
        let children = members.flatMap { $0.kind == .group ? $0.children : [$0] }
        let scores = children.flatMap(\.leaves).compactMap(\.score)
        let score = scores.isEmpty ? nil : scores.reduce(0, +) / Float(scores.count)
        return DescribedElement(id: takeID(), kind: kind, frame: frame ?? enclosing(children.map(\.frame)),
                                interactive: kind == .tabButton, score: score, source: .group, children: children)
    }

    /// Replaces each set of top-level indices (disjoint, each in increasing order) by what `make`
    /// builds of its members, standing where its first member stood.
    mutating func replace(_ sets: [[Int]], with make: (inout DescriptionState, [DescribedElement]) -> DescribedElement) {
        guard !sets.isEmpty else { return }
        var built: [Int: DescribedElement] = [:]
        var absorbed = Set<Int>()
        for set in sets {
            built[set[0]] = make(&self, set.map { elements[$0] })
            absorbed.formUnion(set)
        }
        elements = elements.indices.compactMap { i in built[i] ?? (absorbed.contains(i) ? nil : elements[i]) }
    }

    /// Runs `body` on every leaf, at any depth.
    mutating func updateLeaves(_ body: (inout DescribedElement) -> Void) {
        func visit(_ e: inout DescribedElement) {
            if e.children.isEmpty { body(&e) } else { for i in e.children.indices { visit(&e.children[i]) } }
        }
        for i in elements.indices { visit(&elements[i]) }
    }
}

extension DescribedElement {
    /// A text, or a group of nothing but texts.
    var isTextLike: Bool {
        kind == .text || (kind == .group && leaves.allSatisfy { $0.kind == .text })
    }
}
