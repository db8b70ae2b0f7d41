import Boxes

/// The grouping and order errors of one described screen, one by one with the boxes that show them,
/// in the truth's stored pixels: exactly those `DescriptionMetrics.evaluate` counts (README, "Screen
/// descriptions"), found by the same rules, for `evaluate-description`'s report to outline.
public struct ScreenDescriptionErrors: Equatable, Sendable {
    /// A grouping error: a predicted group that mixes true elements, or a true group split over
    /// top-level elements. `frame` is the predicted group's frame, or the true group's boxes' union;
    /// `parts` are the frames of the true elements it mixes, or of the elements holding the group's parts.
    public struct Grouping: Equatable, Sendable {
        public var frame: Box
        public var parts: [Box]

        /// A grouping error shown by `frame` and its `parts`.
        public init(frame: Box, parts: [Box]) { (self.frame, self.parts) = (frame, parts) }
    }

    /// A top-level element outside the longest run of non-decreasing true ranks.
    public struct OutOfOrder: Equatable, Sendable {
        public var frame: Box
        /// Its place in the description's navigation order, from 1, among all top-level elements.
        public var position: Int
        /// Its true rank: the smallest `nav_order` of its members (the spec's rank).
        public var rank: Int

        /// The element at `frame`, visited `position`th, of true rank `rank`.
        public init(frame: Box, position: Int, rank: Int) { (self.frame, self.position, self.rank) = (frame, position, rank) }
    }

    public var imageID: String
    /// Predicted groups mixing true elements (the metrics' `incorrectly_grouped`).
    public var mixedGroups: [Grouping]
    /// True groups split across elements (`should_have_grouped`).
    public var splitGroups: [Grouping]
    /// Elements out of order (`order_errors` of them).
    public var outOfOrder: [OutOfOrder]

    /// The errors of screen `imageID`.
    public init(imageID: String, mixedGroups: [Grouping], splitGroups: [Grouping], outOfOrder: [OutOfOrder]) {
        (self.imageID, self.mixedGroups, self.splitGroups, self.outOfOrder) = (imageID, mixedGroups, splitGroups, outOfOrder)
    }

    /// Grouping errors plus order errors.
    public var count: Int { mixedGroups.count + splitGroups.count + outOfOrder.count }
}

extension DescriptionMetrics {
    /// The errors behind `evaluate(description, against: truth)`'s grouping and order figures; none of a
    /// kind where the truth lacks its dataset. The description's size must be the truth's original size.
    public static func errors(_ description: DescribedScreen, against truth: ScreenTruth) throws -> ScreenDescriptionErrors {
        errors(try match(description, against: truth))
    }

    /// The grouping and order errors of one matched screen.
    public static func errors(_ screen: MatchedScreen) -> ScreenDescriptionErrors {
        let (description, truth, leaves) = (screen.description, screen.truth, screen.leaves)
        let tops = description.elements
        let scale = truth.scale
        func stored(_ t: Int) -> Box { tops[t].frame.transformed(scaleX: scale, scaleY: scale) }
        var truthOf = [[Int]](repeating: [], count: tops.count)
        for l in leaves { if let j = l.truth, let t = l.top { truthOf[t].append(j) } }

        var errors = ScreenDescriptionErrors(imageID: description.imageID, mixedGroups: [], splitGroups: [], outOfOrder: [])
        if truth.groupIndex != nil {
            errors.mixedGroups = mixingGroups(tops, truthOf, truth).map { t -> ScreenDescriptionErrors.Grouping in
                // The true elements in their first member's order, each as the union of its boxes matched here.
                var parts: [TrueElement: [Box]] = [:], order: [TrueElement] = []
                for j in truthOf[t] {
                    let e = truth.element(of: j)
                    if parts[e] == nil { order.append(e) }
                    parts[e, default: []].append(truth.boxes[j])
                }
                return .init(frame: stored(t), parts: order.map { enclosing(parts[$0]!) })
            }
            errors.splitGroups = splitGroups(leaves, truth).map { g -> ScreenDescriptionErrors.Grouping in
                let members = truth.boxes.indices.filter { truth.groupIndex?[$0] == g.group }.map { truth.boxes[$0] }
                return .init(frame: enclosing(members), parts: g.tops.map(stored))
            }
        }
        if let ranked = rankedElements(truthOf, truth) {
            let inOrder = Set(longestNonDecreasingRun(ranked.map(\.rank)))
            errors.outOfOrder = ranked.indices.filter { !inOrder.contains($0) }.map { i -> ScreenDescriptionErrors.OutOfOrder in
                .init(frame: stored(ranked[i].top), position: ranked[i].top + 1, rank: ranked[i].rank)
            }
        }
        return errors
    }
}
