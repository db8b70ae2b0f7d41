import ArgumentParser
import Evaluation
import Foundation
import Reports
import Shards

extension Interpolation: ExpressibleByArgument {}

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Per-class AP at an IoU threshold and AP-center of detections against ground-truth shards.",
        discussion: """
        Detections come as JSON ([{"image_id", "class", "score", "box": [x_min, y_min, x_max, y_max]}]) or as a detection shard.
        Writes metrics.json, pr_curves.csv, thresholds.json (max_f1) and confusion_matrix.csv into --out.
        """)

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Ground-truth shards, folders or globs.") var data: [String]
    @Option(help: "Detections: a .json file or a detection shard (.h5).") var detections: String
    @Option(help: "Output folder.") var out: String
    @Option(help: "all_point, coco101 or voc11.") var interpolation: Interpolation = .allPoint
    @Option(help: "IoU a detection needs to match a box.") var iou: Double = 0.5
    @Option(help: "A class-map YAML to score across vocabularies.") var classMap: String?

    func validate() throws {
        guard iou > 0 && iou <= 1 else { throw ValidationError("--iou must be in (0, 1], got \(iou)") }
    }

    func run() throws {
        try reportingErrors {
            let map = try classMap.map { try ClassMap(contentsOf: URL(fileURLWithPath: $0)) }
            let set = try ShardSet(data)
            let (names, images) = EvaluationLoader.groundTruth(set, classMap: map)
            let ids = Set(images.map(\.imageID))
            let url = URL(fileURLWithPath: detections)
            let dets = url.pathExtension.lowercased() == "json"
                ? try EvaluationLoader.detectionsJSON(url, classNames: names, imageIDs: ids, classMap: map)
                : try EvaluationLoader.detectionsShard(url, classNames: names, imageIDs: ids, classMap: map)
            let input = EvaluationInput(classNames: names, images: images, detections: dets)
            let outcome = try EvaluationWriter.evaluate(input, iou: iou, interpolation: interpolation,
                                                        title: "Evaluation of \((detections as NSString).lastPathComponent)", to: URL(fileURLWithPath: out))
            print(EvaluationTable.render(outcome.result, picks: outcome.picks))
            print("wrote metrics.json, pr_curves.csv, thresholds.json, confusion_matrix.csv and report.html to \(out)")
        }
    }
}

