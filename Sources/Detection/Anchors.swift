import Boxes
import Foundation

/// The anchors of ssd-model.md, in the model's output order: level, row, column, anchor index
/// (a = scale_index * ratios + ratio_index).
public struct AnchorGenerator: Sendable {
    public let config: SSDConfig

    public init(config: SSDConfig) { self.config = config }

    /// Anchors per image.
    public var count: Int {
        (config.minLevel...config.maxLevel).reduce(0) { total, l in
            total + (config.inputHeight >> l) * (config.inputWidth >> l) * config.anchorsPerLocation
        }
    }

    /// Every anchor box, in input pixels.
    public func anchors() -> [Box] {
        var out: [Box] = []
        out.reserveCapacity(count)
        let c = config
        for l in c.minLevel...c.maxLevel {
            let stride = Double(1 << l)
            let base = c.anchorScale * stride
            var shapes: [(Double, Double)] = []
            for s in 0..<c.scalesPerOctave {
                let scale = pow(2, Double(s) / Double(c.scalesPerOctave))
                for r in c.aspectRatios { shapes.append((base * scale * r.squareRoot(), base * scale / r.squareRoot())) }
            }
            for y in 0..<(c.inputHeight >> l) {
                for x in 0..<(c.inputWidth >> l) {
                    let cx = (Double(x) + 0.5) * stride, cy = (Double(y) + 0.5) * stride
                    for (w, h) in shapes {
                        out.append(Box(xMin: Float(cx - w / 2), yMin: Float(cy - h / 2), xMax: Float(cx + w / 2), yMax: Float(cy + h / 2)))
                    }
                }
            }
        }
        return out
    }
}

/// Centre-size box coding with weights (10, 10, 5, 5) (ssd-model.md, "Box coding").
public struct BoxCoder: Sendable {
    public var weights: (Float, Float, Float, Float) = (10, 10, 5, 5)
    /// Decoding clamps tw / 5 and th / 5 at log(1000 / 16).
    public static let clamp = Float(log(1000.0 / 16))

    public init() {}

    /// Deltas (tx, ty, tw, th) that move `anchor` onto `box`.
    public func encode(_ box: Box, anchor: Box) -> (Float, Float, Float, Float) {
        let (aw, ah) = (anchor.width, anchor.height)
        return (weights.0 * (box.centerX - anchor.centerX) / aw, weights.1 * (box.centerY - anchor.centerY) / ah,
                weights.2 * logf(box.width / aw), weights.3 * logf(box.height / ah))
    }

    /// The box that deltas produce from `anchor`.
    public func decode(_ d: (Float, Float, Float, Float), anchor: Box) -> Box {
        let (aw, ah) = (anchor.width, anchor.height)
        let cx = anchor.centerX + d.0 / weights.0 * aw, cy = anchor.centerY + d.1 / weights.1 * ah
        let w = aw * expf(min(d.2 / weights.2, Self.clamp)), h = ah * expf(min(d.3 / weights.3, Self.clamp))
        return Box(centerX: cx, centerY: cy, width: w, height: h)
    }
}

/// Assigns anchors to ground-truth boxes (ssd-model.md, "Matching").
public struct Matcher: Sendable {
    public var positiveIoU = 0.5
    public var negativeIoU = 0.4
    /// An anchor's assignment: the index of its box, or one of these.
    public static let negative = -1
    public static let ignored = -2

    public init() {}

    /// For each anchor, its box index, `negative` or `ignored`.
    ///
    /// Best IoU >= 0.5: positive for that box; < 0.4: negative; between: ignored. Then each box's
    /// anchors that tie for its highest IoU (if above 0) become positive too, each matched to the box
    /// with which it has its own highest IoU (torchvision's low-quality matches).
    public func match(anchors: [Box], boxes: [Box]) -> [Int] {
        match(anchors: AnchorTable(anchors), boxes: boxes)
    }

    /// `match(anchors:boxes:)` on anchors laid out once for many images.
    ///
    /// It runs on the input pipeline's thread for every training image (tens of boxes against
    /// 20,000+ anchors), beside the training threads on the same cores. A box overlaps few
    /// anchors, so blocks of consecutive anchors whose bounds miss the box are skipped (their
    /// IoUs are exactly 0, which changes no best match and ties no box's highest IoU above 0);
    /// the rest are computed over contiguous anchor columns in the double precision of `Box.iou`
    /// and with its exact results.
    public func match(anchors table: AnchorTable, boxes: [Box]) -> [Int] {
        let n = table.count
        var result = [Int](repeating: Self.negative, count: n)
        guard !boxes.isEmpty else { return result }
        var bestIoU = [Double](repeating: 0, count: n)
        var bestBox = [Int32](repeating: 0, count: n)
        var iou = [Double](repeating: 0, count: n)
        // Each box's anchors that reach its highest IoU, box after box.
        var ties: [Int32] = [], tieEnds: [Int] = [], boxBest: [Double] = []
        var visited: [Range<Int>] = []
        bestIoU.withUnsafeMutableBufferPointer { best in
        bestBox.withUnsafeMutableBufferPointer { bestIndex in
        iou.withUnsafeMutableBufferPointer { scratch in
        table.columns.withUnsafeBufferPointer { columns in
            let x0 = columns.baseAddress!, y0 = x0 + n, x1 = y0 + n, y1 = x1 + n, area = y1 + n
            for (b, box) in boxes.enumerated() {
                let (bx0, by0, bx1, by1, barea) = (Double(box.xMin), Double(box.yMin), Double(box.xMax), Double(box.yMax), box.area)
                var most = 0.0
                visited.removeAll(keepingCapacity: true)
                for k in 0..<table.blockCount where table.blockMayOverlap(k, x0: bx0, y0: by0, x1: bx1, y1: by1) {
                    let anchors = table.block(k)
                    visited.append(anchors)
                    for a in anchors {
                        let iw = max(min(x1[a], bx1) - max(x0[a], bx0), 0)
                        let ih = max(min(y1[a], by1) - max(y0[a], by0), 0)
                        let inter = iw * ih
                        let v = inter > 0 ? inter / (area[a] + barea - inter) : 0
                        scratch[a] = v
                        most = max(most, v)
                    }
                }
                for anchors in visited {
                    for a in anchors where scratch[a] > best[a] { best[a] = scratch[a]; bestIndex[a] = Int32(b) }
                }
                if most > 0 {
                    for anchors in visited { for a in anchors where scratch[a] == most { ties.append(Int32(a)) } }
                }
                tieEnds.append(ties.count)
                boxBest.append(most)
            }
        }
        }
        }
        }
        for a in 0..<n {
            result[a] = bestIoU[a] >= positiveIoU ? Int(bestBox[a]) : (bestIoU[a] < negativeIoU ? Self.negative : Self.ignored)
        }
        var start = 0
        for (b, end) in tieEnds.enumerated() {
            defer { start = end }
            guard boxBest[b] > 0 else { continue }
            for t in start..<end where result[Int(ties[t])] < 0 { result[Int(ties[t])] = Int(bestBox[Int(ties[t])]) }
        }
        return result
    }
}

/// Anchors as columns of double-precision coordinates and areas, for `Matcher`.
public struct AnchorTable: Sendable {
    /// xMin, yMin, xMax, yMax and area columns, `count` values each, one after another.
    let columns: [Double]
    public let count: Int

    /// Per block of `blockSize` consecutive anchors: the least xMin and yMin, the greatest xMax and yMax.
    private let blockBounds: [Double]
    /// Anchors per block: generators lay anchors out row by row, so a block spans a short strip.
    static let blockSize = 64

    public init(_ anchors: [Box]) {
        count = anchors.count
        columns = anchors.map { Double($0.xMin) } + anchors.map { Double($0.yMin) } + anchors.map { Double($0.xMax) }
            + anchors.map { Double($0.yMax) } + anchors.map(\.area)
        blockBounds = stride(from: 0, to: anchors.count, by: Self.blockSize).flatMap { start in
            let block = anchors[start..<min(anchors.count, start + Self.blockSize)]
            // Folds that pass over NaN: an anchor with a NaN coordinate has IoU 0 with every box, and
            // must not hide its block's other anchors (Sequence.min keeps a leading NaN).
            func least(_ v: [Float]) -> Double { Double(v.reduce(Float.infinity) { $1 < $0 ? $1 : $0 }) }
            func most(_ v: [Float]) -> Double { Double(v.reduce(-Float.infinity) { $1 > $0 ? $1 : $0 }) }
            return [least(block.map(\.xMin)), least(block.map(\.yMin)), most(block.map(\.xMax)), most(block.map(\.yMax))]
        }
    }

    var blockCount: Int { blockBounds.count / 4 }

    /// The anchors of block `k`.
    func block(_ k: Int) -> Range<Int> { (k * Self.blockSize)..<min(count, (k + 1) * Self.blockSize) }

    /// False when no anchor of block `k` can overlap the box (x0, y0)-(x1, y1) with a positive area.
    @inline(__always)
    func blockMayOverlap(_ k: Int, x0: Double, y0: Double, x1: Double, y1: Double) -> Bool {
        blockBounds.withUnsafeBufferPointer { b in
            min(b[4 * k + 2], x1) - max(b[4 * k], x0) > 0 && min(b[4 * k + 3], y1) - max(b[4 * k + 1], y0) > 0
        }
    }
}
