/// Fixed groups of rows of a (rows x channels) tensor (one row: one pixel's channels, as in NHWC)
/// that a writer sums while they are in cache, and which of them have been summed.
///
/// A kernel tells the groups which rows it has finished (`forEachNew(inside:)`); each group lying
/// wholly inside is summed then by that one call, and whatever no writer covered is summed at the
/// end (`forEachMissing`). A group is always summed whole, and the owner combines groups in group
/// order, so its result does not depend on which kernel, block split or thread count summed them.
/// The bookkeeping of `ChannelMoments` and `BatchNormGradientSums`.
final class RowGroups: @unchecked Sendable {
    let rows, channels, groupRows, count: Int
    /// Per group: 1 once summed. Each group is written by the one call that covers it.
    private let summed: UnsafeMutablePointer<UInt8>

    init(shape: [Int]) {
        channels = shape.last ?? 1
        rows = shape.dropLast().reduce(1, *)
        precondition(rows > 0 && channels > 0, "RowGroups: empty tensor \(shape)")
        groupRows = Self.groupRows(channels: channels, lineRows: shape.count >= 2 ? shape[shape.count - 2] : 1)
        count = (rows + groupRows - 1) / groupRows
        summed = .allocate(capacity: count)
        summed.initialize(repeating: 0, count: count)
    }

    deinit { summed.deallocate() }

    /// Rows per group: a power of two from 16 to 256, about 4K floats, and where it can be, a
    /// divisor of 4 lines (`lineRows` rows each: an image row of an NHWC tensor) and of 256 rows, the
    /// blocks the kernels that gather write in (4-line direct kernels, 256-row GEMM blocks). A
    /// function of the shape alone; a group split between two blocks is left to `forEachMissing`.
    static func groupRows(channels c: Int, lineRows: Int) -> Int {
        var g = 16
        while g < 256 && g * c < 4096 { g *= 2 }
        let fourLines = 4 * max(1, lineRows)
        let aligned = min(256, fourLines & -fourLines)  // the largest power of two dividing 4 lines
        return aligned >= 16 ? min(g, aligned) : g
    }

    /// The rows of group `group`.
    func rows(of group: Int) -> Range<Int> { (group * groupRows)..<min(rows, (group + 1) * groupRows) }

    /// Calls `sum(group)` on every group lying wholly inside `range` and marks it summed. Safe to
    /// call concurrently on disjoint ranges.
    func forEachNew(inside range: Range<Int>, _ sum: (Int) -> Void) {
        var group = (range.lowerBound + groupRows - 1) / groupRows
        while group < count, rows(of: group).upperBound <= range.upperBound {
            sum(group)
            summed[group] = 1
            group += 1
        }
    }

    /// Calls `sum(group)` on every group not summed yet, in parallel, and marks them; returns how
    /// many had been summed before.
    @discardableResult
    func forEachMissing(_ sum: (Int) -> Void) -> Int {
        let missing = (0..<count).filter { summed[$0] == 0 }
        Parallel.forEachBlock(count: missing.count, blockSize: 8) { _, r in
            for i in r { sum(missing[i]) }
        }
        for group in missing { summed[group] = 1 }
        return count - missing.count
    }

    /// Groups summed so far.
    var summedCount: Int { (0..<count).reduce(0) { $0 + Int(summed[$1]) } }

    /// Forgets what was summed (a new buffer to sum).
    func clear() { summed.update(repeating: 0, count: count) }
}
