import Boxes
import FileKeys
import IconVocabulary

/// One screen's description metrics (screen-description.md, "Metrics"). A figure whose ground
/// truth dataset the screen lacks is nil (JSON null), and so is a selection figure for a screen
/// without a true tab button (segment) whose state is known.
public struct ScreenDescriptionMetrics: Codable, Equatable, Sendable {
    public var imageID: String
    /// The description's boxes (leaves of its elements) and its top-level elements.
    public var boxes: Int
    public var topLevelElements: Int
    /// Boxes matched to a true box (IoU >= 0.5, same class, in order of score).
    public var matchedBoxes: Int
    /// Top-level elements with two or more members.
    public var predictedGroups: Int
    @Nullable public var incorrectlyGrouped: Int?
    @Nullable public var shouldHaveGrouped: Int?
    /// Matched top-level elements with a true rank (the spec's n), and n minus the longest non-decreasing run of their ranks.
    @Nullable public var orderedElements: Int?
    @Nullable public var orderErrors: Int?
    /// Whether every true tab button is matched and gets its true state (unknown is wrong).
    @Nullable public var tabButtonsCorrect: Bool?
    /// Whether every true segment is matched and gets its true state.
    @Nullable public var segmentsCorrect: Bool?
    /// Ours: every box with a known `interactive` (any class), said interactive when its matched leaf
    /// is, or the top-level element holding it is (a tab, a row acting as its switch); a true
    /// interactive box left unmatched counts as missed.
    public var interactiveTruePositives = 0
    public var interactiveFalsePositives = 0
    public var interactiveFalseNegatives = 0
    /// Boxes whose truth says they cannot be activated (without any, precision means nothing).
    public var interactiveKnownNegatives = 0
    /// `button` on matched icons against `interactive`.
    public var iconTruePositives: Int
    public var iconFalsePositives: Int
    public var iconFalseNegatives: Int
    /// Edit distance of matched texts' labels to their true strings, and the true strings' lengths.
    public var textEditDistance: Int
    public var textTrueLength: Int
    /// Icon types on matched icons whose truth has one (icon-recognition.md): those icons, those
    /// said right (their type, or none for `other`), those of the 52 types, those of them given a
    /// type, and the types given with how many were right (a type given to an `other` icon is wrong).
    public var iconTypesTrue = 0
    public var iconTypesRight = 0
    public var iconTypesOfVocabulary = 0
    public var iconTypesCovered = 0
    public var iconTypesGiven = 0
    public var iconTypesGivenRight = 0
    /// Matched icons that are true buttons (`interactive`), and those of them with something to say
    /// (a label: their own text, or their type's): an unlabelled icon button is read as just "button".
    public var iconButtons = 0
    public var iconButtonsLabelled = 0

    /// A screen's figures; those its ground truth cannot give default to nil.
    public init(imageID: String, boxes: Int, topLevelElements: Int, matchedBoxes: Int, predictedGroups: Int,
                incorrectlyGrouped: Int? = nil, shouldHaveGrouped: Int? = nil, orderedElements: Int? = nil, orderErrors: Int? = nil,
                tabButtonsCorrect: Bool? = nil, segmentsCorrect: Bool? = nil,
                iconTruePositives: Int, iconFalsePositives: Int, iconFalseNegatives: Int, textEditDistance: Int, textTrueLength: Int) {
        self.imageID = imageID
        self.boxes = boxes
        self.topLevelElements = topLevelElements
        self.matchedBoxes = matchedBoxes
        self.predictedGroups = predictedGroups
        self.incorrectlyGrouped = incorrectlyGrouped
        self.shouldHaveGrouped = shouldHaveGrouped
        self.orderedElements = orderedElements
        self.orderErrors = orderErrors
        self.tabButtonsCorrect = tabButtonsCorrect
        self.segmentsCorrect = segmentsCorrect
        self.iconTruePositives = iconTruePositives
        self.iconFalsePositives = iconFalsePositives
        self.iconFalseNegatives = iconFalseNegatives
        self.textEditDistance = textEditDistance
        self.textTrueLength = textTrueLength
    }

    /// The screen's grouping errors: incorrectly grouped plus should have grouped.
    public var groupingErrors: Int? {
        guard let incorrectlyGrouped, let shouldHaveGrouped else { return nil }
        return incorrectlyGrouped + shouldHaveGrouped
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case imageID = "image_id", boxes, topLevelElements = "top_level_elements", matchedBoxes = "matched_boxes"
        case predictedGroups = "predicted_groups", incorrectlyGrouped = "incorrectly_grouped", shouldHaveGrouped = "should_have_grouped"
        case orderedElements = "ordered_elements", orderErrors = "order_errors"
        case tabButtonsCorrect = "tab_buttons_correct", segmentsCorrect = "segments_correct"
        case iconTruePositives = "icon_true_positives", iconFalsePositives = "icon_false_positives", iconFalseNegatives = "icon_false_negatives"
        case textEditDistance = "text_edit_distance", textTrueLength = "text_true_length"
        case iconTypesTrue = "icon_types_true", iconTypesRight = "icon_types_right", iconTypesOfVocabulary = "icon_types_of_vocabulary"
        case iconTypesCovered = "icon_types_covered", iconTypesGiven = "icon_types_given", iconTypesGivenRight = "icon_types_given_right"
        case iconButtons = "icon_buttons", iconButtonsLabelled = "icon_buttons_labelled"
        case interactiveTruePositives = "interactive_true_positives", interactiveFalsePositives = "interactive_false_positives"
        case interactiveFalseNegatives = "interactive_false_negatives", interactiveKnownNegatives = "interactive_known_negatives"
    }
}

/// Scores descriptions against ground truth. Description frames are mapped to stored pixels by
/// the truth's uniform scale; every box of the description (the leaves of its elements, nested
/// groups flattened) is matched to a true box as evaluation.md matches detections: highest score
/// first (boxes without a score last, in description order), each taking the untaken true box of
/// its class with the highest IoU, a match when that IoU is >= 0.5.
public enum DescriptionMetrics {
    /// The IoU a box needs to match a true box.
    public static let iouThreshold = 0.5

    /// Pairs each description with its screen's truth by image id. A description without truth, or
    /// a screen described twice, is an error; truths without a description are left out (a subset was described).
    public static func pair(descriptions: [DescribedScreen], truths: [ScreenTruth]) throws -> [(description: DescribedScreen, truth: ScreenTruth)] {
        var byID: [String: ScreenTruth] = [:]
        for t in truths {
            guard byID.updateValue(t, forKey: t.imageID) == nil else { throw ScreenTruthError(imageID: t.imageID, field: "image_id", problem: "two ground truths") }
        }
        var seen = Set<String>()
        return try descriptions.map { d in
            guard seen.insert(d.imageID).inserted else { throw ScreenTruthError(imageID: d.imageID, field: "image_id", problem: "described twice") }
            guard let t = byID[d.imageID] else { throw ScreenTruthError(imageID: d.imageID, field: "image_id", problem: "no ground truth for this described screen") }
            return (d, t)
        }
    }

    /// The metrics of one screen; the description's size must be the truth's original size.
    public static func evaluate(_ description: DescribedScreen, against truth: ScreenTruth) throws -> ScreenDescriptionMetrics {
        evaluate(try match(description, against: truth))
    }

    /// The described screen's leaves matched to its truth's boxes once, for every figure that needs them
    /// (metrics, errors, icons); the description's size must be the truth's original size.
    public static func match(_ description: DescribedScreen, against truth: ScreenTruth) throws -> MatchedScreen {
        guard description.size == truth.originalSize else {
            throw ScreenTruthError(imageID: truth.imageID, field: "original size", problem: "the description is \(description.size), the ground truth's screenshot \(truth.originalSize)")
        }
        return MatchedScreen(description: description, truth: truth, leaves: matchLeaves(description, truth))
    }

    /// The metrics of one matched screen.
    public static func evaluate(_ screen: MatchedScreen) -> ScreenDescriptionMetrics {
        let (description, truth, matched) = (screen.description, screen.truth, screen.leaves)
        // The status bar (outside the navigation order) is matched for boxes, texts and icons, not for groups and order.
        let leaves = matched.filter { $0.top != nil }
        let tops = description.elements
        var m = ScreenDescriptionMetrics(
            imageID: description.imageID, boxes: matched.count, topLevelElements: tops.count + (description.statusBar == nil ? 0 : 1),
            matchedBoxes: matched.filter { $0.truth != nil }.count,
            predictedGroups: tops.filter { $0.leaves.count >= 2 }.count, iconTruePositives: 0, iconFalsePositives: 0, iconFalseNegatives: 0,
            textEditDistance: 0, textTrueLength: 0)
        // The matched true boxes of each top-level element.
        var truthOf = [[Int]](repeating: [], count: tops.count)
        for l in leaves { if let j = l.truth, let t = l.top { truthOf[t].append(j) } }

        if truth.groupIndex != nil {
            m.incorrectlyGrouped = mixingGroups(tops, truthOf, truth).count
            m.shouldHaveGrouped = splitGroups(leaves, truth).count
        }
        if let ranked = rankedElements(truthOf, truth) {
            m.orderedElements = ranked.count
            m.orderErrors = ranked.count - longestNonDecreasingSubsequence(ranked.map(\.rank))
        }
        m.tabButtonsCorrect = tabButtonsCorrect(tops, truthOf, truth)
        m.segmentsCorrect = segmentsCorrect(matched, truth)
        if let interactive = truth.interactive {
            var said = [Bool?](repeating: nil, count: truth.boxes.count)
            for l in matched { if let j = l.truth { said[j] = l.leaf.interactive || (l.top.map { tops[$0].interactive } ?? false) } }
            for (j, value) in interactive.enumerated() {
                guard let value else { continue }
                switch (said[j] ?? false, value) {
                case (true, true): m.interactiveTruePositives += 1
                case (true, false): m.interactiveFalsePositives += 1
                case (false, true): m.interactiveFalseNegatives += 1
                case (false, false): break
                }
                if !value { m.interactiveKnownNegatives += 1 }
            }
            for l in matched where l.leaf.kind == .icon {
                guard let j = l.truth, let truthValue = interactive[j] else { continue }
                if truthValue {
                    m.iconButtons += 1
                    if !l.leaf.label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { m.iconButtonsLabelled += 1 }
                }
                switch (l.leaf.interactive, truthValue) {
                case (true, true): m.iconTruePositives += 1
                case (true, false): m.iconFalsePositives += 1
                case (false, true): m.iconFalseNegatives += 1
                case (false, false): break
                }
            }
        }
        for icon in matchedIcons(matched, truth) {
            guard let t = icon.truth else { continue }
            m.iconTypesTrue += 1
            if icon.said == t || (t.isOther && icon.said == nil) { m.iconTypesRight += 1 }
            if !t.isOther {
                m.iconTypesOfVocabulary += 1
                if icon.said != nil { m.iconTypesCovered += 1 }
            }
            if let said = icon.said {
                m.iconTypesGiven += 1
                if said == t { m.iconTypesGivenRight += 1 }
            }
        }
        if let texts = truth.texts {
            for l in matched where l.leaf.kind == .text {
                guard let j = l.truth else { continue }
                let (said, shown) = (collapsingWhitespace(l.leaf.label), collapsingWhitespace(texts[j]))
                m.textEditDistance += editDistance(said, shown)
                m.textTrueLength += shown.count
            }
        }
        return m
    }

    /// The description's icons matched to a true box: the true box (stored pixels), its true type
    /// (nil where the truth has none) and the type the description gives (nil for none).
    public static func matchedIcons(_ screen: MatchedScreen) -> [(box: Box, truth: IconType?, said: IconType?)] {
        matchedIcons(screen.leaves, screen.truth)
    }

    static func matchedIcons(_ leaves: [MatchedLeaf], _ truth: ScreenTruth) -> [(box: Box, truth: IconType?, said: IconType?)] {
        leaves.compactMap { l in
            guard l.leaf.kind == .icon, let j = l.truth else { return nil }
            return (truth.boxes[j], truth.iconTypes?[j] ?? nil, l.leaf.iconType)
        }
    }

    /// A described screen with each of its leaves' true box (`DescriptionMetrics.match`).
    public struct MatchedScreen {
        public let description: DescribedScreen
        public let truth: ScreenTruth
        let leaves: [MatchedLeaf]
    }

    /// One described box: the top-level element it belongs to (nil: the status bar's) and the true box it matched.
    struct MatchedLeaf {
        let top: Int?
        let leaf: DescribedElement
        let truth: Int?
    }

    /// Every leaf of `description` (its status bar's last) with the true box it matched.
    static func matchLeaves(_ description: DescribedScreen, _ truth: ScreenTruth) -> [MatchedLeaf] {
        let inOrder: [(top: Int?, leaf: DescribedElement)] = description.elements.enumerated().flatMap { t, e in e.leaves.map { (top: Optional(t), leaf: $0) } }
        let leaves = inOrder + (description.statusBar?.leaves ?? []).map { (top: nil, leaf: $0) }
        let scale = truth.scale
        let order = leaves.indices.sorted { a, b in
            switch (leaves[a].leaf.score, leaves[b].leaf.score) {
            case let (x?, y?): return x != y ? x > y : a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
        var taken = [Bool](repeating: false, count: truth.boxes.count)
        var matched = [Int?](repeating: nil, count: leaves.count)
        for i in order {
            let box = leaves[i].leaf.frame.transformed(scaleX: scale, scaleY: scale)
            var best: (j: Int, iou: Double)?
            for j in truth.boxes.indices where !taken[j] && truth.classNames[j] == leaves[i].leaf.kind.rawValue {
                let iou = box.iou(truth.boxes[j])
                if iou > (best?.iou ?? -1) { best = (j, iou) }
            }
            if let best, best.iou >= iouThreshold {
                taken[best.j] = true
                matched[i] = best.j
            }
        }
        return leaves.indices.map { MatchedLeaf(top: leaves[$0].top, leaf: leaves[$0].leaf, truth: matched[$0]) }
    }

    /// True tab buttons are the true elements whose boxes say `tab_button`; each one's state is
    /// selected when a member is, not selected when a member is not; one without a known state is
    /// not counted. Its predicted state is that of the top-level element(s) holding its matched boxes.
    static func tabButtonsCorrect(_ tops: [DescribedElement], _ truthOf: [[Int]], _ truth: ScreenTruth) -> Bool? {
        guard let kinds = truth.groupKinds, let selected = truth.selected else { return nil }
        var members: [TrueElement: [Int]] = [:]
        for j in truth.boxes.indices where kinds[j] == .tabButton { members[truth.element(of: j), default: []].append(j) }
        var topOf: [Int: Int] = [:]
        for (t, boxes) in truthOf.enumerated() { for j in boxes { topOf[j] = t } }
        var any = false
        for boxes in members.values {
            let states = boxes.compactMap { selected[$0] }
            guard !states.isEmpty else { continue }
            any = true
            let want = states.contains(true)
            let said = Set(boxes.compactMap { topOf[$0] }.map { tops[$0].selected })
            guard said.count == 1, let only = said.first, only == want else { return false }
        }
        return any ? true : nil
    }

    /// Every true segment with a known state is matched and its box gets that state.
    static func segmentsCorrect(_ leaves: [MatchedLeaf], _ truth: ScreenTruth) -> Bool? {
        guard let selected = truth.selected else { return nil }
        var said: [Int: Bool?] = [:]
        for l in leaves { if let j = l.truth { said[j] = l.leaf.selected } }
        let segments = truth.boxes.indices.filter { truth.classNames[$0] == ElementKind.segmentedControl.rawValue && selected[$0] != nil }
        guard !segments.isEmpty else { return nil }
        return segments.allSatisfy { j in said[j].flatMap { $0 } == selected[j] }
    }

    /// Top-level elements (indices into `tops`) of two or more boxes whose matched boxes belong to two or more true elements.
    static func mixingGroups(_ tops: [DescribedElement], _ truthOf: [[Int]], _ truth: ScreenTruth) -> [Int] {
        tops.indices.filter { t in tops[t].leaves.count >= 2 && Set(truthOf[t].map(truth.element)).count >= 2 }
    }

    /// True groups whose matched boxes lie in two or more top-level elements: each group's index and those elements, in order.
    static func splitGroups(_ leaves: [MatchedLeaf], _ truth: ScreenTruth) -> [(group: Int, tops: [Int])] {
        var topsOfGroup: [Int: Set<Int>] = [:]
        for l in leaves { if let j = l.truth, let t = l.top, case .group(let g) = truth.element(of: j) { topsOfGroup[g, default: []].insert(t) } }
        return topsOfGroup.filter { $0.value.count >= 2 }.map { (group: $0.key, tops: $0.value.sorted()) }.sorted { $0.group < $1.group }
    }

    /// The matched top-level elements with a true rank (the spec's n), in the description's order, each with
    /// its rank: the smallest of its members'. nil where the truth has no order.
    static func rankedElements(_ truthOf: [[Int]], _ truth: ScreenTruth) -> [(top: Int, rank: Int)]? {
        guard let navOrder = truth.navOrder else { return nil }
        return truthOf.enumerated().compactMap { t, members -> (top: Int, rank: Int)? in
            guard !members.isEmpty else { return nil }
            // A member outside the order (nil, the spec's -1) is the smallest rank and leaves the element out.
            let rank = members.map { navOrder[$0] ?? -1 }.min()!
            return rank == -1 ? nil : (t, rank)
        }
    }

    /// The length of the longest non-decreasing subsequence (equal ranks may follow each other).
    static func longestNonDecreasingSubsequence(_ xs: [Int]) -> Int { longestNonDecreasingRun(xs).count }

    /// The positions in `xs` of one longest non-decreasing subsequence; the others are the elements out of order.
    static func longestNonDecreasingRun(_ xs: [Int]) -> [Int] {
        // tails[k]: the position of the smallest last value of such a run of length k + 1; a value
        // replaces the first tail greater than it, so equal values extend runs. before[i]: the
        // position preceding i in its run, to read one run back from the end.
        var tails: [Int] = [], before = [Int](repeating: -1, count: xs.count)
        for (i, x) in xs.enumerated() {
            var (lo, hi) = (0, tails.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if xs[tails[mid]] <= x { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { before[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var run: [Int] = [], i = tails.last ?? -1
        while i >= 0 { run.append(i); i = before[i] }
        return run.reversed()
    }

    /// Levenshtein distance between two strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (s, t) = (Array(a), Array(b))
        guard !s.isEmpty else { return t.count }
        guard !t.isEmpty else { return s.count }
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            for j in 1...t.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (s[i - 1] == t[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[t.count]
    }
}
