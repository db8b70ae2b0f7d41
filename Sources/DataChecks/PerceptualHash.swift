import Images

/// A perceptual hash of a screenshot: a difference hash (dHash) in both directions with a dead band.
///
/// The image is averaged down to 8 x 16 grey cells (taller than wide, as phone screens are).
/// Each pair of neighbours, left-right and top-bottom, gives two bits: "first brighter" and
/// "second brighter", each only when the difference exceeds `margin` grey levels. So
/// 2 x (7 x 16 + 8 x 15) = 464 bits. Re-encoding, resizing and small edits flip few of them,
/// while different screens differ in many.
///
/// Why not the classic 64-bit dHash (9 x 8 cells, left-right only, no dead band): screens are
/// mostly flat areas and horizontal bands (list rows, bars), where left-right neighbours are
/// equal; their bits then follow noise of a fraction of a grey level, and the few bits left
/// cannot tell two list screens of one app style apart (on 1,000 synthetic screens, different
/// screens came within 7 of 64 bits while a faintly retouched copy was 20 away).
public struct PerceptualHash: Hashable, Sendable {
    static let columns = 8
    static let rows = 16
    /// Grey levels (0-255) by which one cell must outshine its neighbour to set a bit.
    static let margin = 2.0
    /// Neighbour pairs: left-right in every row, top-bottom in every column.
    static let comparisons = (columns - 1) * rows + columns * (rows - 1)
    /// Bits in a hash: two per comparison.
    public static let bitCount = 2 * comparisons
    /// 64-bit words in a hash.
    public static let wordCount = (bitCount + 63) / 64

    /// `bitCount` bits, comparison k at bits 2k (first brighter) and 2k + 1 (second brighter).
    public let words: [UInt64]

    public init(words: [UInt64]) {
        precondition(words.count == Self.wordCount, "\(words.count) words, a hash has \(Self.wordCount)")
        self.words = words
    }

    /// The hash of `image`, read in one pass over its pixels (no resized copy is made).
    public init(_ image: RGBImage) {
        let cells = Self.greyCells(image)
        var words = [UInt64](repeating: 0, count: Self.wordCount)
        var k = 0
        func compare(_ a: Double, _ b: Double) {
            if a > b + Self.margin { words[(2 * k) / 64] |= 1 << UInt64((2 * k) % 64) }
            if b > a + Self.margin { words[(2 * k + 1) / 64] |= 1 << UInt64((2 * k + 1) % 64) }
            k += 1
        }
        for r in 0..<Self.rows {
            for c in 0..<(Self.columns - 1) { compare(cells[r * Self.columns + c], cells[r * Self.columns + c + 1]) }
        }
        for r in 0..<(Self.rows - 1) {
            for c in 0..<Self.columns { compare(cells[r * Self.columns + c], cells[(r + 1) * Self.columns + c]) }
        }
        self.words = words
    }

    /// Bits in which the two hashes differ (0 ... `bitCount`).
    public func distance(to other: PerceptualHash) -> Int {
        zip(words, other.words).reduce(0) { $0 + ($1.0 ^ $1.1).nonzeroBitCount }
    }

    /// Mean grey level (0-255) of each cell, row by row.
    static func greyCells(_ image: RGBImage) -> [Double] {
        let (w, h) = (image.width, image.height)
        var sums = [Int](repeating: 0, count: columns * rows)
        // Area averaging by cell membership: every pixel counts once, so a 1-pixel line still
        // moves its cell (a strided sample would miss it). Integer sums over raw pointers:
        // this loop is the whole cost of hashing thousands of screens.
        let cellOfColumn = (0..<w).map { $0 * columns / max(1, w) }
        image.pixels.withUnsafeBufferPointer { p in
            sums.withUnsafeMutableBufferPointer { sums in
                cellOfColumn.withUnsafeBufferPointer { cellOfColumn in
                    for y in 0..<h {
                        let row = y * rows / max(1, h) * columns
                        var i = y * w * 3
                        for x in 0..<w {
                            // ITU-R BT.601 luma in integers (x 1000): grey as the eye weighs the channels.
                            sums[row &+ cellOfColumn[x]] &+= 299 &* Int(p[i]) &+ 587 &* Int(p[i &+ 1]) &+ 114 &* Int(p[i &+ 2])
                            i &+= 3
                        }
                    }
                }
            }
        }
        // Pixels per cell: the cell's share of columns times its share of rows.
        var columnsOfCell = [Int](repeating: 0, count: columns), rowsOfCell = [Int](repeating: 0, count: rows)
        for c in cellOfColumn { columnsOfCell[c] += 1 }
        for y in 0..<h { rowsOfCell[y * rows / max(1, h)] += 1 }
        var cells = (0..<(columns * rows)).map { k -> Double in
            let n = rowsOfCell[k / columns] * columnsOfCell[k % columns]
            return n > 0 ? Double(sums[k]) / Double(n) / 1000 : -1
        }
        // An image narrower or lower than the grid leaves cells empty: they copy a filled neighbour.
        for k in cells.indices where cells[k] < 0 { cells[k] = k > 0 ? cells[k - 1] : 0 }
        return cells
    }
}
