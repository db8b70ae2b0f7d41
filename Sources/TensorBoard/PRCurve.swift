/// A precision-recall curve as TensorBoard's pr_curves plugin stores it: six rows of
/// `thresholdCount` float32 values, column i at threshold i / (thresholdCount - 1), from 0 to 1.
public struct PRCurve: Sendable, Equatable {
    /// The plugin's default number of thresholds.
    public static let defaultThresholdCount = 201

    public let truePositives: [Float]
    public let falsePositives: [Float]
    public let trueNegatives: [Float]
    public let falseNegatives: [Float]
    public let precision: [Float]
    public let recall: [Float]

    /// The number of thresholds (columns).
    public var thresholdCount: Int { truePositives.count }

    /// The rows in the plugin's order: TP, FP, TN, FN, precision, recall (its tensor of shape [6, thresholdCount]).
    public var rows: [[Float]] { [truePositives, falsePositives, trueNegatives, falseNegatives, precision, recall] }

    /// A curve from counts computed elsewhere (the plugin's `raw_data_pb`); all rows as long, at least 2.
    public init(truePositives: [Float], falsePositives: [Float], trueNegatives: [Float], falseNegatives: [Float],
                precision: [Float], recall: [Float]) throws(TensorBoardError) {
        let counts = [truePositives, falsePositives, trueNegatives, falseNegatives, precision, recall].map(\.count)
        guard counts.allSatisfy({ $0 == truePositives.count }) else {
            throw .invalidPRCurve(reason: "rows of different lengths \(counts) (TP, FP, TN, FN, precision, recall)")
        }
        guard truePositives.count >= 2 else { throw .invalidPRCurve(reason: "\(truePositives.count) thresholds; at least 2 are needed") }
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.trueNegatives = trueNegatives
        self.falseNegatives = falseNegatives
        self.precision = precision
        self.recall = recall
    }

    /// The curve of scored detections, counted as the plugin's `pr_curve` op counts (summary.py):
    /// a score, clamped to [0, 1], falls in bucket floor(score * (thresholdCount - 1)) (float32
    /// product), and counts at every threshold up to its bucket's; TN = FP at threshold 0 - FP.
    /// Unlike the plugin, FN = `groundTruthCount` - TP, so ground truth no detection found counts as
    /// missed; with `groundTruthCount` equal to the number of true positives the rows are the plugin's.
    public init(detections: [(score: Float, isTruePositive: Bool)], groundTruthCount: Int,
                thresholdCount: Int = PRCurve.defaultThresholdCount) throws(TensorBoardError) {
        guard thresholdCount >= 2 else { throw .invalidPRCurve(reason: "\(thresholdCount) thresholds; at least 2 are needed") }
        var tpBuckets = [Int](repeating: 0, count: thresholdCount)
        var fpBuckets = [Int](repeating: 0, count: thresholdCount)
        for (i, d) in detections.enumerated() {
            guard !d.score.isNaN else { throw .invalidPRCurve(reason: "detection \(i) has a NaN score") }
            let bucket = Int((min(1, max(0, d.score)) * Float(thresholdCount - 1)).rounded(.down))
            if d.isTruePositive { tpBuckets[bucket] += 1 } else { fpBuckets[bucket] += 1 }
        }
        let tp = Self.countsAtOrAbove(tpBuckets), fp = Self.countsAtOrAbove(fpBuckets)
        guard groundTruthCount >= tp[0] else {
            throw .invalidPRCurve(reason: "\(tp[0]) true positives but only \(groundTruthCount) ground-truth objects")
        }
        // The plugin divides by max(1e-7, ·) so an empty denominator gives 0, not NaN; in Double, then
        // rounded once to float32, as its numpy path does (exactly the float32 quotient for counts).
        func ratio(_ a: Int, _ b: Int) -> Float { Float(Double(a) / max(1e-7, Double(b))) }
        try self.init(truePositives: tp.map(Float.init), falsePositives: fp.map(Float.init),
                      trueNegatives: fp.map { Float(fp[0] - $0) }, falseNegatives: tp.map { Float(groundTruthCount - $0) },
                      precision: zip(tp, fp).map { ratio($0, $0 + $1) }, recall: tp.map { ratio($0, groundTruthCount) })
    }

    /// Reverse cumulative sums: at threshold i, everything in bucket i or above.
    private static func countsAtOrAbove(_ buckets: [Int]) -> [Int] {
        var out = buckets
        for i in stride(from: out.count - 2, through: 0, by: -1) { out[i] += out[i + 1] }
        return out
    }
}
