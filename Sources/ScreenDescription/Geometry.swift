import Boxes

extension Box {
    /// The length of the overlap of the two boxes' x ranges (0 when they do not overlap).
    func xOverlap(_ other: Box) -> Float { max(0, min(xMax, other.xMax) - max(xMin, other.xMin)) }

    /// The horizontal distance between the two boxes (0 when their x ranges overlap).
    func horizontalGap(_ other: Box) -> Float { max(0, other.xMin - xMax, xMin - other.xMax) }

    /// The spec's vertical gap from this box down to `lower`: `lower.yMin - yMax`, 0 when they overlap.
    func verticalGap(to lower: Box) -> Float { max(0, lower.yMin - yMax) }

    /// The shortest distance between the two rectangles (0 when they touch or overlap).
    func distance(_ other: Box) -> Float {
        let dy = max(0, other.yMin - yMax, yMin - other.yMax)
        let dx = horizontalGap(other)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Whether `other`'s vertical centre lies within this box's vertical extent.
    func holdsVerticalCentre(of other: Box) -> Bool { yMin <= other.centerY && other.centerY <= yMax }

    /// Whether the two boxes share a horizontal band: either's vertical centre lies within the other's extent.
    func sharesBand(with other: Box) -> Bool { holdsVerticalCentre(of: other) || other.holdsVerticalCentre(of: self) }

    /// The smallest box holding both.
    func union(_ other: Box) -> Box {
        Box(xMin: min(xMin, other.xMin), yMin: min(yMin, other.yMin), xMax: max(xMax, other.xMax), yMax: max(yMax, other.yMax))
    }
}

/// The smallest box holding all of `boxes` (which must not be empty).
func enclosing(_ boxes: [Box]) -> Box {
    boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
}

/// The indices of `frames` in horizontal bands: boxes sharing a band, chained (a list row, a row of
/// figures); ordered as `DisjointSets.components()` orders sets.
func bands(_ frames: [Box]) -> [[Int]] {
    DisjointSets.chains(frames.count) { frames[$0].sharesBand(with: frames[$1]) }
}

/// Union-find over 0..<count, for rules that join pairs into groups.
struct DisjointSets {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func find(_ i: Int) -> Int {
        var root = i
        while parent[root] != root { root = parent[root] }
        var j = i
        while parent[j] != root { (parent[j], j) = (root, parent[j]) }
        return root
    }

    /// Joins the sets of `a` and `b`; the smaller root stays, so that results do not depend on pair order.
    mutating func union(_ a: Int, _ b: Int) {
        let (ra, rb) = (find(a), find(b))
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }

    /// The sets, each in increasing order, ordered by their smallest member.
    mutating func components() -> [[Int]] {
        var byRoot: [Int: [Int]] = [:]
        var roots: [Int] = []
        for i in parent.indices {
            let r = find(i)
            if byRoot[r] == nil { roots.append(r) }
            byRoot[r, default: []].append(i)
        }
        return roots.map { byRoot[$0]! }
    }

    /// 0..<count joined wherever `linked(a, b)` holds (a < b), and chained: the sets, as `components()` gives them.
    static func chains(_ count: Int, linked: (Int, Int) -> Bool) -> [[Int]] {
        var sets = DisjointSets(count: count)
        for a in 0..<count {
            for b in a + 1..<count where linked(a, b) { sets.union(a, b) }
        }
        return sets.components()
    }
}

/// `text` with every run of whitespace made one space, and trimmed: how labels are stored and compared.
func collapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}
