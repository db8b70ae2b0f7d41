/// Per-channel mean and sum of squared deviations of a tensor over every axis but the last
/// (channels, as in NHWC), gathered in fixed groups of rows (one row: one pixel's channels).
///
/// Batch norm in training needs its input's statistics before it can write a single output, which
/// costs a whole extra read of the input. A convolution can instead add each group of rows it
/// writes while the group is still in cache (`gather`); `finish` adds the groups nobody gathered
/// and combines them. A group is always summed whole, by one call, in the same order, and groups
/// are combined in group order, so the result does not depend on which path, block split or thread
/// count gathered it: the same bits as gathering everything in `finish`.
public final class ChannelMoments: @unchecked Sendable {
    /// The tensor's shape.
    public let shape: [Int]
    let groups: RowGroups
    /// Rows of the (rows x channels) matrix the tensor is.
    public var rows: Int { groups.rows }
    /// Channels per row.
    public var channels: Int { groups.channels }
    /// Per group: its first row (the shift that keeps the one-pass variance accurate), the sum of
    /// the rows' deviations from it and the sum of their squares.
    private let partial: Storage

    /// Moments of a tensor of this shape, none gathered yet.
    public init(shape: [Int]) {
        self.shape = shape
        groups = RowGroups(shape: shape)
        partial = Storage(count: groups.count * 3 * groups.channels)
    }

    /// Adds every group lying wholly inside `range` of the matrix at `values` (its first row).
    /// Safe to call concurrently on disjoint ranges.
    public func gather(_ values: UnsafePointer<Float>, rows range: Range<Int>) {
        groups.forEachNew(inside: range) { sumGroup($0, values) }
    }

    /// The moments of the matrix at `values` (the one the gathered rows came from): the number of
    /// rows, and per channel the mean and the sum of squared deviations from it, in double.
    public func finish(_ values: UnsafePointer<Float>) -> (count: Int, mean: [Double], m2: [Double]) {
        groups.forEachMissing { sumGroup($0, values) }
        let c = channels
        // Every group's sums moved onto one shift (group 0's first row) in double, then added in group order.
        var shift = [Double](repeating: 0, count: c), s1 = shift, s2 = shift
        let p = partial.pointer
        for j in 0..<c { shift[j] = Double(p[j]) }
        shift.withUnsafeBufferPointer { k in
            s1.withUnsafeMutableBufferPointer { t1 in
                s2.withUnsafeMutableBufferPointer { t2 in
                    let (k, t1, t2) = (k.baseAddress!, t1.baseAddress!, t2.baseAddress!)
                    for group in 0..<groups.count {
                        let n = Double(groups.rows(of: group).count)
                        // One base pointer per row of the slot: `g[2 * c + j]` is checked arithmetic
                        // and kept this loop scalar (on the critical path, 40% of a 4 MB batch norm).
                        let (first, sum, squares) = (p + group * 3 * c, p + group * 3 * c + c, p + group * 3 * c + 2 * c)
                        for j in 0..<c {
                            let d = Double(first[j]) - k[j], a = Double(sum[j])
                            t1[j] += a + n * d
                            t2[j] += Double(squares[j]) + d * (2 * a + n * d)
                        }
                    }
                }
            }
        }
        let count = Double(rows)
        let mean = (0..<c).map { shift[$0] + s1[$0] / count }
        let m2 = (0..<c).map { max(0, s2[$0] - s1[$0] * s1[$0] / count) }
        return (rows, mean, m2)
    }

    /// Sums group `group`'s rows into its slot: deviations from its first row, in float, four rows
    /// at a time in independent chains (one chain waits on each add's latency).
    private func sumGroup(_ group: Int, _ values: UnsafePointer<Float>) {
        let c = channels
        let span = groups.rows(of: group)
        let (start, count) = (span.lowerBound, span.count)
        let x = values + start * c
        let out = partial.pointer + group * 3 * c
        out.update(from: x, count: c)
        if c % 8 == 0 {
            // 16 channels (a whole cache line of each row) per walk down the group where they fit, as
            // in `BatchNormGradientSums`; each lane does the same arithmetic, so the bits do not change.
            var j = 0
            while j + 16 <= c { sumLanes(SIMD16<Float>.self, channel: j, x: x, rows: count, into: out); j += 16 }
            while j < c { sumLanes(SIMD8<Float>.self, channel: j, x: x, rows: count, into: out); j += 8 }
        } else {
            let s1 = out + c, s2 = out + 2 * c
            s1.update(repeating: 0, count: 2 * c)
            for row in 0..<count {
                let q = x + row * c
                for j in 0..<c { let d = q[j] - out[j]; s1[j] += d; s2[j] += d * d }
            }
        }
    }

    /// Channels j..<j + lanes of a group (`rows` rows from `x`): deviations from the first row,
    /// their sum and sum of squares into `out + c` and `out + 2 * c`.
    @inline(__always)
    private func sumLanes<V: SIMD & WinogradLanes>(_: V.Type, channel j: Int, x: UnsafePointer<Float>, rows count: Int,
                                                    into out: UnsafeMutablePointer<Float>) where V.Scalar == Float {
        let c = channels
        let k = V(loading: x + j)
        var (a0, a1, a2, a3) = (V(), V(), V(), V())
        var (b0, b1, b2, b3) = (V(), V(), V(), V())
        var row = 0
        while row + 4 <= count {
            let q = x + row * c + j
            let d0 = V(loading: q) - k, d1 = V(loading: q + c) - k
            let d2 = V(loading: q + 2 * c) - k, d3 = V(loading: q + 3 * c) - k
            a0 += d0; a1 += d1; a2 += d2; a3 += d3
            b0 = b0.addingProduct(d0, d0); b1 = b1.addingProduct(d1, d1)
            b2 = b2.addingProduct(d2, d2); b3 = b3.addingProduct(d3, d3)
            row += 4
        }
        while row < count {
            let d = V(loading: x + row * c + j) - k
            a0 += d; b0 = b0.addingProduct(d, d)
            row += 1
        }
        ((a0 + a1) + (a2 + a3)).store(to: out + c + j)
        ((b0 + b1) + (b2 + b3)).store(to: out + 2 * c + j)
    }
}
