import Boxes

/// Step 8: the order a swipe visits elements in, by recursive XY-cut: split a region into
/// horizontal bands at every y that no element crosses, each band into columns at every x that
/// no element crosses, recurse into each; a region that no longer splits is ordered top to
/// bottom, ties left to right.
///
/// An element enclosing others (a dialog, a container no rule grouped) would let no cut through
/// and flatten everything inside it into one region; so each element is first placed under the
/// smallest element that encloses it, the cut orders the elements of each level, and an
/// enclosing element is followed by what it encloses (ours: the spec is silent on enclosures).
public enum NavigationOrder {
    /// The indices of `frames` in navigation order; `insideFraction` as in the config.
    public static func order(_ frames: [Box], insideFraction: Double = DescriptionConfig().insideFraction) -> [Int] {
        // The smallest element enclosing each; equal areas enclose by index, so that nothing encloses itself twice over.
        let parent: [Int?] = frames.indices.map { i in
            frames.indices.filter { j in
                j != i && frames[i].fractionInside(frames[j]) >= insideFraction
                    && (frames[j].area > frames[i].area || (frames[j].area == frames[i].area && j < i))
            }.min { (frames[$0].area, $0) < (frames[$1].area, $1) }
        }
        var children = [[Int]](repeating: [], count: frames.count)
        var roots: [Int] = []
        for i in frames.indices {
            if let p = parent[i] { children[p].append(i) } else { roots.append(i) }
        }
        func visit(_ level: [Int]) -> [Int] {
            xyCut(level, frames).flatMap { [$0] + visit(children[$0]) }
        }
        return visit(roots)
    }

    /// `indices` in recursive XY-cut order.
    static func xyCut(_ indices: [Int], _ frames: [Box]) -> [Int] {
        guard indices.count > 1 else { return indices }
        let bands = split(indices) { (frames[$0].yMin, frames[$0].yMax) }
        if bands.count > 1 { return bands.flatMap { xyCut($0, frames) } }
        let columns = split(indices) { (frames[$0].xMin, frames[$0].xMax) }
        if columns.count > 1 { return columns.flatMap { xyCut($0, frames) } }
        return indices.sorted { (frames[$0].yMin, frames[$0].xMin, $0) < (frames[$1].yMin, frames[$1].xMin, $1) }
    }

    /// `indices` cut at every coordinate no element's open interval (low, high) crosses, in increasing order.
    static func split(_ indices: [Int], _ extent: (Int) -> (low: Float, high: Float)) -> [[Int]] {
        let sorted = indices.sorted { (extent($0).low, $0) < (extent($1).low, $1) }
        var parts: [[Int]] = []
        var reach = -Float.infinity
        for i in sorted {
            let (low, high) = extent(i)
            if parts.isEmpty || low >= reach { parts.append([i]) } else { parts[parts.count - 1].append(i) }
            reach = parts[parts.count - 1].count == 1 ? high : max(reach, high)
        }
        return parts
    }

    /// Orders the top-level elements and, the same way, the members of every group.
    static func apply(_ state: inout DescriptionState, insideFraction: Double) {
        func ordered(_ elements: [DescribedElement]) -> [DescribedElement] {
            order(elements.map(\.frame), insideFraction: insideFraction).map { i in
                var e = elements[i]
                e.children = ordered(e.children)
                return e
            }
        }
        state.elements = ordered(state.elements)
    }
}
