import Foundation
import IconVocabulary

/// How well icon predictions name their icons (icon-recognition.md, "How it is scored"): top-1
/// accuracy over crops whose true type is in the vocabulary (the threshold ignored); at the
/// threshold, label precision (right labels over labels given, `other` crops included, where any
/// label is wrong) and coverage (labels given on vocabulary crops over vocabulary crops); and
/// per type and between types, where the errors are.
public struct IconEvaluation: Sendable {
    public let threshold: Float
    public let crops: Int
    /// Crops whose true type is one of the 52 (not `other`).
    public let vocabularyCrops: Int
    public let top1Correct: Int
    public let labelsGiven: Int
    public let labelsRight: Int
    /// Labels given on vocabulary crops (right or wrong): coverage's numerator.
    public let labelsOnVocabulary: Int
    /// `confusion[truth][top-1]`, in vocabulary order.
    public let confusion: [[Int]]

    public init(predictions: [IconPrediction], truths: [IconType], threshold: Float) {
        precondition(predictions.count == truths.count, "\(predictions.count) predictions for \(truths.count) truths")
        self.threshold = threshold
        let k = IconVocabulary.types.count
        var confusion = [[Int]](repeating: [Int](repeating: 0, count: k), count: k)
        var (vocabulary, correct, given, right, onVocabulary) = (0, 0, 0, 0, 0)
        for (p, truth) in zip(predictions, truths) {
            let top = p.top[0].type
            confusion[truth.index][top.index] += 1
            if !truth.isOther {
                vocabulary += 1
                if top == truth { correct += 1 }
            }
            if p.score >= threshold && !top.isOther {
                given += 1
                if top == truth { right += 1 }
                if !truth.isOther { onVocabulary += 1 }
            }
        }
        (crops, vocabularyCrops, top1Correct, labelsGiven, labelsRight, labelsOnVocabulary) = (predictions.count, vocabulary, correct, given, right, onVocabulary)
        self.confusion = confusion
    }

    public var top1Accuracy: Double? { vocabularyCrops > 0 ? Double(top1Correct) / Double(vocabularyCrops) : nil }
    public var labelPrecision: Double? { labelsGiven > 0 ? Double(labelsRight) / Double(labelsGiven) : nil }
    public var coverage: Double? { vocabularyCrops > 0 ? Double(labelsOnVocabulary) / Double(vocabularyCrops) : nil }

    /// Each type's crops and how many were named right at top-1, in vocabulary order.
    public var perType: [(type: IconType, crops: Int, correct: Int)] {
        IconVocabulary.types.map { t in (t, confusion[t.index].reduce(0, +), confusion[t.index][t.index]) }
    }

    /// The most frequent confusions (true type named as another), most first.
    public func worstConfusions(_ count: Int) -> [(truth: IconType, named: IconType, times: Int)] {
        var out: [(IconType, IconType, Int)] = []
        for t in IconVocabulary.types { for n in IconVocabulary.types where n != t && confusion[t.index][n.index] > 0 { out.append((t, n, confusion[t.index][n.index])) } }
        return Array(out.sorted { $0.2 != $1.2 ? $0.2 > $1.2 : ($0.0.index, $0.1.index) < ($1.0.index, $1.1.index) }.prefix(count))
    }

    /// The lowest threshold whose label precision reaches `target` (the most coverage that keeps
    /// it), over the top scores of the predictions that would give a label; 1 when none does.
    ///
    /// With `confidence` above 0.5 the precision must reach `target` with that one-sided confidence:
    /// its Wilson lower bound, not the share itself. Taking the most coverage at which a noisy share
    /// still reaches the target picks, on average, a threshold whose true precision is below it; the
    /// bound pays for that noise (at 1,000 labels and 95% confidence, about a point of precision).
    public static func threshold(predictions: [IconPrediction], truths: [IconType], precision target: Double, confidence: Double = 0.5) -> Float {
        let candidates = zip(predictions, truths).filter { !$0.0.top[0].type.isOther }
            .map { (score: $0.0.score, right: $0.0.top[0].type == $0.1) }
            .sorted { $0.score > $1.score }
        let z = normalQuantile(confidence)
        var (given, right) = (0, 0)
        var best: Float = 1
        var k = 0
        while k < candidates.count {
            // Every prediction of one score is in or out together.
            let score = candidates[k].score
            while k < candidates.count && candidates[k].score == score {
                given += 1
                if candidates[k].right { right += 1 }
                k += 1
            }
            if wilsonLowerBound(right: right, of: given, z: z) >= target { best = score }
        }
        return best
    }

    /// The Wilson score interval's lower end for `right` successes in `n` trials at `z` standard
    /// deviations (z = 0: the share itself).
    public static func wilsonLowerBound(right: Int, of n: Int, z: Double) -> Double {
        guard n > 0 else { return 0 }
        let (p, n, z2) = (Double(right) / Double(n), Double(n), z * z)
        guard z > 0 else { return p }
        return (p + z2 / (2 * n) - z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()) / (1 + z2 / n)
    }

    /// The standard normal quantile of `p` in [0.5, 1), by bisection on erf (exact to 1e-12; called once per pick).
    static func normalQuantile(_ p: Double) -> Double {
        guard p > 0.5 else { return 0 }
        var (lo, hi) = (0.0, 40.0)
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if 0.5 * (1 + erf(mid / 2.0.squareRoot())) < p { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}
