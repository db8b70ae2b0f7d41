import ArgumentParser
import Evaluation
import Foundation
import Outputs
import Shards

extension ThresholdStrategy: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

struct Thresholds: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pick a confidence threshold per class from an evaluation's PR curves; write thresholds.json.",
        discussion: """
        Strategies: max_f1 (default), min_precision:P (the lowest threshold keeping precision >= P),
        min_recall:R (the highest threshold keeping recall >= R). Override per class with
        --class NAME=STRATEGY, e.g. --class text=min_precision:0.95 --class slider=min_recall:0.8.
        The curves come from an evaluation folder, or are computed from --data GT_SHARDS and --detections DETS.
        """)

    @Argument(help: "An evaluation folder (written by uidetect evaluate).") var evaluation: String?
    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Ground-truth shards, folders or globs (instead of an evaluation folder).") var data: [String] = []
    @Option(help: "Detections (.json or a detection shard) to score against --data.") var detections: String?
    @Option(help: "A class-map YAML to score across vocabularies (with --data).") var classMap: String?
    @Option(help: "IoU a detection needs to match a box (with --data).") var iou: Double = 0.5
    @Option(help: "The strategy for every class without an override.") var strategy: ThresholdStrategy = .maxF1
    @Option(name: .customLong("class"), help: "A per-class override, NAME=STRATEGY (repeatable).") var overrides: [String] = []
    @Option(help: "Where to write thresholds.json (default: inside the evaluation folder).") var out: String?

    func parsedOverrides() throws -> [String: ThresholdStrategy] {
        var out: [String: ThresholdStrategy] = [:]
        for o in overrides {
            guard let eq = o.firstIndex(of: "="), let s = ThresholdStrategy(parsing: String(o[o.index(after: eq)...])) else {
                throw ValidationError("--class '\(o)' must be NAME=max_f1, NAME=min_precision:P or NAME=min_recall:R")
            }
            out[String(o[..<eq])] = s
        }
        return out
    }

    func validate() throws {
        _ = try parsedOverrides()
        guard (evaluation != nil) != (detections != nil || !data.isEmpty) else {
            throw ValidationError("give an evaluation folder, or --data GT_SHARDS with --detections DETS")
        }
        if evaluation == nil && (data.isEmpty || detections == nil) { throw ValidationError("--data and --detections go together") }
        if evaluation == nil && out == nil { throw ValidationError("--out is needed with --data and --detections") }
    }

    /// Each class's name, ground-truth count and PR curve.
    func curves() throws -> [(name: String, gtCount: Int, curve: [PRPoint])] {
        if let evaluation {
            return try EvaluationFolder(URL(fileURLWithPath: evaluation)).classes.map { ($0.name, $0.gtCount, $0.curve) }
        }
        let map = try classMap.map { try ClassMap(contentsOf: URL(fileURLWithPath: $0)) }
        let set = try ShardSet(data)
        let (names, images) = try EvaluationLoader.groundTruth(set, classMap: map)
        let ids = Set(images.map(\.imageID))
        let dets = try EvaluationLoader.detections(URL(fileURLWithPath: detections!), classNames: names, imageIDs: ids, classMap: map)
        let result = Evaluator(iouThreshold: iou).evaluate(EvaluationInput(classNames: names, images: images, detections: dets))
        return result.classes.map { ($0.name, $0.gtCount, $0.curve) }
    }

    func run() throws {
        try reportingErrors {
            let url = URL(fileURLWithPath: out ?? (evaluation! as NSString).appendingPathComponent(ThresholdsFile.fileName))
            try OutputFile.check(url.path, writes: .json, inputs: data + [detections, classMap].compactMap { $0 }
                                 + (evaluation.map { e in ["metrics.json", "pr_curves.csv"].map { (e as NSString).appendingPathComponent($0) } } ?? []))
            let classes = try curves()
            let perClass = try parsedOverrides()
            if let unknown = perClass.keys.sorted().first(where: { name in !classes.contains { $0.name == name } }) {
                throw ValidationError("--class names '\(unknown)', which is not in the vocabulary (\(classes.map(\.name).joined(separator: ", ")))")
            }
            var picked: [String: ThresholdsFile.Entry?] = [:]
            print("class                 strategy                 threshold   prec    rec     F1")
            for c in classes {
                let s = perClass[c.name] ?? strategy
                let pick = ThresholdPicker.pick(c.curve, groundTruth: c.gtCount, strategy: s)
                picked.updateValue(pick.map { ThresholdsFile.Entry($0, strategy: s) }, forKey: c.name)  // a nil pick stays as null
                let figures = pick.map { String(format: "%9.3f  %5.1f  %5.1f  %5.1f", $0.threshold, 100 * $0.precision, 100 * $0.recall, 100 * $0.f1) }
                    ?? (c.gtCount == 0 ? "        - (no ground truth)" : "        - (no point reaches it)")
                print(c.name.padding(toLength: 21, withPad: " ", startingAt: 0) + " " + s.description.padding(toLength: 24, withPad: " ", startingAt: 0) + figures)
            }
            try ThresholdsFile(strategy: strategy, classes: picked).write(to: url)
            print("wrote \(url.path)")
        }
    }
}

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Per-class AP50 and AP-center of two or more evaluations side by side, with differences from the first.")

    @Argument(help: "Evaluation folders; the first is the baseline.") var evaluations: [String]

    func validate() throws {
        guard evaluations.count >= 2 else { throw ValidationError("give two or more evaluation folders") }
    }

    func run() throws {
        try reportingErrors {
            let folders = try evaluations.map { try EvaluationFolder(URL(fileURLWithPath: $0)) }
            let names = folders[0].classes.map(\.name)
            for f in folders.dropFirst() where f.classes.map(\.name) != names {
                throw ValidationError("\(f.path) has another vocabulary than \(folders[0].path); compare evaluations of the same classes")
            }
            func pct(_ v: Double?) -> String { v.map { String(format: "%5.1f", 100 * $0) } ?? "    -" }
            func delta(_ a: Double?, _ b: Double?) -> String {
                guard let a, let b else { return "      " }
                return String(format: "%+6.1f", 100 * (b - a))
            }
            for (k, f) in folders.enumerated() { print("[\(k)] \(f.path)") }
            var header = "class               " + " AP50[0] ctr[0]"
            for k in 1..<folders.count { header += "  AP50[\(k)]  diff  ctr[\(k)]  diff" }
            print(header)
            let rows = names.indices.map { i in (names[i], folders.map { ($0.classes[i].ap50, $0.classes[i].apCenter) }) }
                + [("mean", folders.map { ($0.map50, $0.mapCenter) })]
            for (name, values) in rows {
                var line = name.padding(toLength: 20, withPad: " ", startingAt: 0) + "   " + pct(values[0].0) + "  " + pct(values[0].1)
                for k in 1..<values.count {
                    line += "    " + pct(values[k].0) + " " + delta(values[0].0, values[k].0) + "   " + pct(values[k].1) + " " + delta(values[0].1, values[k].1)
                }
                print(line)
            }
        }
    }
}
