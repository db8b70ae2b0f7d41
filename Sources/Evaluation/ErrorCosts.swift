import Foundation

/// What each kind of error costs a class in AP50, TIDE's way (Bolya et al., ECCV 2020, section 2.2):
/// fix every error of one kind with an oracle, recompute the AP, and take the difference. Unlike the
/// records, this looks at every detection of the class's curve, as AP50 does, not only those kept at
/// the threshold. Each AP is computed by this evaluator (`averagePrecision(falsePositivesBefore:groundTruth:)`,
/// the evaluation's interpolation) from the detections' true and false positives in evaluation.md's
/// order, so that with nothing fixed it is the class's `ap50`, bit for bit.
///
/// The oracles, each applied alone:
/// - background, duplicate: those false positives are removed;
/// - poor localisation: such a detection becomes a true positive of the box it overlaps, if no
///   detection took that box (the highest-scoring of several claiming one box; the others removed), else it is removed;
/// - wrong class: such a detection leaves its class and becomes a true positive of the true box's
///   class, if no detection took that box (the highest-scoring of several), else it is removed;
/// - missed: true boxes no detection takes and no poorly localised or wrong-class detection overlaps
///   (those the two fixes above could recover) are taken out of the class's count of boxes.
///   A class left without boxes has AP 0, as in TIDE.
extension ClassMatching {
    /// A class's AP50 with nothing fixed and with each kind fixed.
    struct FixedAP {
        var base, background, wrongClass, poorLocalization, duplicate, missed: Double
    }

    /// Per class (nil without ground truth) and, per kind, the mean gain over classes with ground truth.
    func fixedAP(_ evaluator: Evaluator) -> (perClass: [FixedAP?], meanGains: APGains?) {
        let dets = input.detections, k = input.classNames.count
        var truthCount = [Int](repeating: 0, count: k)
        for l in boxLabels { truthCount[l] += 1 }
        // The first claimant of each free box, among the detections of one fixable kind in a given order.
        func winners(_ kind: ErrorKind, in candidates: [Int]) -> [Int: Int] {
            var out: [Int: Int] = [:]
            for d in candidates where self.kind[d] == kind && matchedBy[related[d]] < 0 && out[related[d]] == nil { out[related[d]] = d }
            return out
        }
        let localized = winners(.poorLocalization, in: order.flatMap { $0 })
        // Wrong-class detections of every class claim boxes of other classes: highest score first, then input order.
        let relabelled = winners(.wrongClass, in: dets.indices.filter { kind[$0] == .wrongClass }.sorted(by: precedes))
        var gained = [[Int]](repeating: [], count: k)
        for d in relabelled.values { gained[boxLabels[related[d]]].append(d) }
        // Boxes nothing took that no fix above could recover.
        var recoverable = [Bool](repeating: false, count: boxes.count)
        for d in dets.indices where kind[d] == .poorLocalization || kind[d] == .wrongClass { recoverable[related[d]] = true }
        var unrecoverable = [Int](repeating: 0, count: k)
        for j in boxes.indices where matchedBy[j] < 0 && !recoverable[j] { unrecoverable[boxLabels[j]] += 1 }

        func ap(_ truePositives: some Sequence<Bool>, boxes g: Int) -> Double {
            var steps: [Int] = [], falseBefore = 0
            for isTrue in truePositives { if isTrue { steps.append(falseBefore) } else { falseBefore += 1 } }
            return g > 0 ? evaluator.averagePrecision(falsePositivesBefore: steps, groundTruth: g) : 0
        }
        let perClass: [FixedAP?] = (0..<k).map { c in
            let g = truthCount[c]
            guard g > 0 else { return nil }
            let ranked = order[c]
            func isTrue(_ d: Int) -> Bool { kind[d] == .truePositive }
            let base = ap(ranked.lazy.map(isTrue), boxes: g)
            let withoutBackground = ap(ranked.lazy.filter { self.kind[$0] != .background }.map(isTrue), boxes: g)
            let withoutDuplicates = ap(ranked.lazy.filter { self.kind[$0] != .duplicate }.map(isTrue), boxes: g)
            let relocated = ap(ranked.lazy.compactMap { d -> Bool? in
                self.kind[d] == .poorLocalization ? (localized[self.related[d]] == d ? true : nil) : isTrue(d)
            }, boxes: g)
            // The class's own detections without its wrong-class ones, merged with those relabelled into it.
            let own = ranked.filter { kind[$0] != .wrongClass }, incoming = gained[c].sorted(by: precedes)
            var merged: [Bool] = [], (a, b) = (0, 0)
            merged.reserveCapacity(own.count + incoming.count)
            while a < own.count || b < incoming.count {
                if b == incoming.count || (a < own.count && precedes(own[a], incoming[b])) { merged.append(isTrue(own[a])); a += 1 } else { merged.append(true); b += 1 }
            }
            let reclassified = ap(merged, boxes: g)
            let found = ap(ranked.lazy.map(isTrue), boxes: g - unrecoverable[c])
            return FixedAP(base: base, background: withoutBackground, wrongClass: reclassified, poorLocalization: relocated,
                           duplicate: withoutDuplicates, missed: found)
        }
        let scored = perClass.compactMap { $0 }
        guard !scored.isEmpty else { return (perClass, nil) }
        func meanGain(_ key: KeyPath<FixedAP, Double>) -> Double {
            scored.reduce(0) { $0 + $1[keyPath: key] } / Double(scored.count) - scored.reduce(0) { $0 + $1.base } / Double(scored.count)
        }
        return (perClass, APGains(background: meanGain(\.background), wrongClass: meanGain(\.wrongClass), poorLocalization: meanGain(\.poorLocalization),
                                  duplicate: meanGain(\.duplicate), missed: meanGain(\.missed)))
    }

    /// evaluation.md's order between two detections: the higher score first, equal scores in input order.
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let (x, y) = (input.detections[a].score, input.detections[b].score)
        return x != y ? x > y : a < b
    }
}
