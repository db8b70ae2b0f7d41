import ArgumentParser
import DetectorRuns
import Evaluation
import Foundation
import Interchange
import Outputs
import Reports
import Shards
import Training

extension Interpolation: ExpressibleByArgument {}

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Per-class AP at an IoU threshold and AP-center of detections against ground-truth shards.",
        discussion: """
        Detections come as JSON ([{"image_id", "class", "score", "box": [x_min, y_min, x_max, y_max]}]) or as a detection shard,
        or as COCO results ([{"image_id": int, "category_id": int, "bbox": [x, y, w, h], "score"}], told apart by the first
        record's keys) with --coco-instances naming the instances JSON their ids refer to (e.g. from export-data coco).
        Or --checkpoint runs a trained detector (a weights file, a checkpoint folder, or a run folder meaning its best)
        over the ground-truth screens and also writes detections.json, so that they can be evaluated again without the model,
        and detections.coco.json with the ids of --coco-ids, or else those export-data coco gives the --data shards.
        Writes metrics.json, pr_curves.csv, thresholds.json (max_f1), confusion_matrix.csv and report.html into --out.
        """)

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Ground-truth shards, folders or globs.") var data: [String]
    @Option(help: "Detections: a .json file or a detection shard (.h5).") var detections: String?
    @Option(help: "A trained detector to run instead: weights file, checkpoint folder or run folder (its best).") var checkpoint: String?
    @Option(help: "Screens per batch when running --checkpoint.") var batchSize = 8
    @OptionGroup var threads: ThreadOptions
    @Option(help: "Output folder.") var out: String
    @Option(help: "all_point, coco101 or voc11.") var interpolation: Interpolation = .allPoint
    @Option(help: "IoU a detection needs to match a box.") var iou: Double = 0.5
    @Option(help: "A class-map YAML to score across vocabularies.") var classMap: String?
    @Option(help: "With COCO results as --detections: the COCO instances JSON their image and category ids refer to.") var cocoInstances: String?
    @Option(help: "With --checkpoint: a COCO instances JSON whose ids detections.coco.json uses (default: export-data coco's numbering of --data).") var cocoIds: String?

    func validate() throws {
        guard iou > 0 && iou <= 1 else { throw ValidationError("--iou must be in (0, 1], got \(iou)") }
        guard (detections == nil) != (checkpoint == nil) else { throw ValidationError("give either --detections or --checkpoint") }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
        if cocoInstances != nil && detections == nil { throw ValidationError("--coco-instances applies to --detections only") }
        if cocoIds != nil && checkpoint == nil { throw ValidationError("--coco-ids applies to --checkpoint only") }
    }

    func run() throws {
        try reportingErrors {
            let set = try ShardSet(data)
            let folder = try OutputFolder(out, command: "evaluate", inputs: set.readers.map(\.url.path)
                                          + [detections, checkpoint, classMap, cocoInstances, cocoIds].compactMap { $0 })
            defer { folder.discard() }
            let run = try EvaluationRun(set: set, classMap: classMap, evaluator: Evaluator(iouThreshold: iou, interpolation: interpolation))
            let evaluated: EvaluationRun.Evaluated, title: String, files: EvaluationRun.DetectionFiles
            if let detections {
                evaluated = try run.score(file: detections, cocoInstances: cocoInstances)
                (title, files) = ("Evaluation of \((detections as NSString).lastPathComponent)", .none)
            } else {
                let trained = try TrainedDetector(checkpoint!)
                let progress = ProgressLine()
                evaluated = try threads.scope {
                    try run.score(detector: trained.detector, classNames: trained.classNames, batchSize: batchSize, source: trained.source(run.source())) { done, all in
                        progress.update("detecting: \(done)/\(all) screens", fractionDone: Double(done) / Double(all))
                    }
                }
                progress.finish()
                title = "Evaluation of \(trained.title)"
                files = .jsonAndCOCO(try cocoIds.map { try COCOIDMap(contentsOf: URL(fileURLWithPath: $0)) } ?? run.exportNumbering)
            }
            let left = try run.write(evaluated, title: title, files: files, to: folder.staging)
            try folder.commit()
            if let found = evaluated.found {
                print("\(found.detections.count) detections on \(set.count) screens (detections.json)")
                if let left {
                    print("COCO results: \(COCOResultsFile.fileName)" + (left.unknownClass + left.unknownImage == 0 ? "" :
                          " (left out: \(left.unknownClass) of classes without a COCO category, \(left.unknownImage) on screens without a COCO image id)"))
                }
            }
            print(EvaluationTable.render(evaluated.summary))
            print("wrote metrics.json, pr_curves.csv, thresholds.json, confusion_matrix.csv and errors.json to \(out)")
            print("report: \(folder.final.appendingPathComponent(EvaluationReport.fileName).path)")
        }
    }
}
