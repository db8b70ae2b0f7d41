import Foundation

extension ThresholdStrategy {
    /// Parses `max_f1`, `min_precision:P` or `min_recall:R` (`=` also separates).
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "=" }).map(String.init)
        switch (parts.first, parts.count) {
        case ("max_f1", 1): self = .maxF1
        case ("min_precision", 2): guard let v = Double(parts[1]), (0...1).contains(v) else { return nil }; self = .minPrecision(v)
        case ("min_recall", 2): guard let v = Double(parts[1]), (0...1).contains(v) else { return nil }; self = .minRecall(v)
        default: return nil
        }
    }
}

/// A finished evaluation read back from its folder: per class, the ground-truth
/// count and the PR curve (enough to pick thresholds or compare runs).
public struct EvaluationFolder {
    public struct ClassEntry {
        public var name: String
        public var gtCount: Int
        public var ap50: Double?
        public var apCenter: Double?
        public var curve: [PRPoint]
    }
    public var path: String
    public var classes: [ClassEntry]
    public var map50: Double?
    public var mapCenter: Double?

    public init(_ folder: URL) throws {
        path = folder.path
        let metricsURL = folder.appendingPathComponent("metrics.json")
        guard let data = try? Data(contentsOf: metricsURL),
              let metrics = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let classes = metrics["classes"] as? [[String: Any]] else {
            throw EvaluationInputError(path: metricsURL.path, position: "file", problem: "missing or not an evaluation's metrics.json")
        }
        var entries: [ClassEntry] = []
        for (i, c) in classes.enumerated() {
            guard let name = c["name"] as? String, let g = c["gt_count"] as? Int else {
                throw EvaluationInputError(path: metricsURL.path, position: "classes[\(i)]", problem: "needs 'name' and 'gt_count'")
            }
            entries.append(ClassEntry(name: name, gtCount: g, ap50: c["ap50"] as? Double, apCenter: c["ap_center"] as? Double, curve: []))
        }
        map50 = metrics["map50"] as? Double
        mapCenter = metrics["map_center"] as? Double
        let curvesURL = folder.appendingPathComponent("pr_curves.csv")
        if let text = try? String(contentsOf: curvesURL, encoding: .utf8) {
            let index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.name, $0) })
            for (n, line) in text.split(separator: "\n").enumerated().dropFirst() {
                let f = line.split(separator: ",").map(String.init)
                guard f.count == 6, let k = index[f[0]], let t = Double(f[1]), let p = Double(f[2]), let r = Double(f[3]), let tp = Int(f[4]), let fp = Int(f[5]) else {
                    throw EvaluationInputError(path: curvesURL.path, position: "line \(n + 1)", problem: "expected class,threshold,precision,recall,tp,fp with a known class")
                }
                entries[k].curve.append(PRPoint(threshold: t, precision: p, recall: r, tp: tp, fp: fp))
            }
        }
        self.classes = entries
    }
}
