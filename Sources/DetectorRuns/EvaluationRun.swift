import Detection
import Engine
import Evaluation
import Foundation
import Interchange
import Reports
import Shards
import Workers

/// Ground-truth shards loaded once, against which detections are scored and the evaluation
/// written as `uidetect evaluate` writes it: the one path of `evaluate --detections`, `evaluate
/// --checkpoint` and each validation of a training run.
public struct EvaluationRun {
    public let set: ShardSet
    /// The evaluation's vocabulary: the shards', or a class map's common classes.
    public let classNames: [String]
    /// The screens scored: the set's first ones, in order (all unless a limit was given).
    public let images: [GroundTruthImage]
    public let classMap: ClassMap?
    public let classMapPath: String?
    public let evaluator: Evaluator

    /// `set`'s ground truth (the first `limit` screens), renamed through the class map at `classMap` if given.
    public init(set: ShardSet, classMap path: String? = nil, limit: Int? = nil, evaluator: Evaluator = Evaluator()) throws {
        self.set = set
        classMapPath = path
        classMap = try path.map { try ClassMap(contentsOf: URL(fileURLWithPath: $0)) }
        let truth = try EvaluationLoader.groundTruth(set, classMap: classMap)
        classNames = truth.classNames
        images = limit.map { Array(truth.images.prefix($0)) } ?? truth.images
        self.evaluator = evaluator
    }

    /// An evaluation, with what it scored.
    public struct Evaluated {
        public var summary: EvaluationSummary
        public var input: EvaluationInput
        /// A detector's detections in its own vocabulary (`classNames`), as detections.json holds them; nil for a detections file.
        public var found: (detections: [ScoredDetection], classNames: [String])?
    }

    /// The ground truth's part of `source` (shards and boxes), for the caller to complete.
    public func source() -> EvaluationSource {
        EvaluationSource(data: set.readers.map(\.url.path), groundTruthBoxes: images.reduce(0) { $0 + $1.boxes.count }, classMap: classMapPath)
    }

    /// The detections of a file (detections JSON, a detection shard, or COCO results whose ids
    /// `cocoInstances` gives) scored.
    public func score(file: String, cocoInstances: String? = nil) throws -> Evaluated {
        var source = source()
        source.detections = file
        let cocoIDs = try cocoInstances.map { try COCOIDMap(contentsOf: URL(fileURLWithPath: $0)) }
        let detections = try EvaluationLoader.detections(URL(fileURLWithPath: file), classNames: classNames, imageIDs: imageIDs,
                                                         classMap: classMap, cocoIDs: cocoIDs)
        return evaluate(detections, source: source, found: nil)
    }

    /// `detector` (whose vocabulary is `detectorClasses`) run over the screens in batches of
    /// `batchSize`, and what it found scored; `source` says which checkpoint it is. `observe` sees
    /// each batch's raw outputs with its targets (a validation's loss comes from them).
    public func score(detector: SSDDetector, classNames detectorClasses: [String], batchSize: Int, source: EvaluationSource,
                      progress: (Int, Int) -> Void = { _, _ in },
                      observe: ((_ logits: Tensor, _ deltas: Tensor, _ targets: [ImageTargets]) -> Void)? = nil) throws -> Evaluated {
        let found = try ShardInference.detections(detector, set: set, indices: Array(images.indices), batchSize: batchSize, progress: progress, observe: observe)
        let scored: [Evaluation.Detection]
        if classMap == nil && detectorClasses == classNames {
            scored = found
        } else {
            // Through the evaluator's own reader, as a detections file would go: the class map and vocabulary checks apply.
            let path = DetectionsFile.fileName
            let data = try DetectionsFile.encode(found, classNames: detectorClasses, path: path)
            scored = try EvaluationLoader.detectionsJSON(data, path: path, classNames: classNames, imageIDs: imageIDs, classMap: classMap)
        }
        return evaluate(scored, source: source, found: (found, detectorClasses))
    }

    private var imageIDs: Set<String> { Set(images.map(\.imageID)) }

    /// The evaluation of `detections` with its errors at the picked thresholds.
    private func evaluate(_ detections: [Evaluation.Detection], source: EvaluationSource, found: (detections: [ScoredDetection], classNames: [String])?) -> Evaluated {
        let input = EvaluationInput(classNames: classNames, images: images, detections: detections)
        var summary = evaluator.summarize(input, source: source)
        summary.errors = evaluator.errors(input, picks: summary.picks)
        return Evaluated(summary: summary, input: input, found: found)
    }

    /// Which of a detector's detections files an evaluation folder gets.
    public enum DetectionFiles {
        case none
        /// detections.json
        case json
        /// detections.json and detections.coco.json with these ids
        case jsonAndCOCO(COCOIDMap)
    }

    /// Writes `evaluated` into `folder` (a staging folder): metrics.json, pr_curves.csv,
    /// thresholds.json, confusion_matrix.csv, errors.json, report.html titled `title` (with its error
    /// gallery), and the detector's detections as `files` says. Returns what the COCO results left out, if written.
    @discardableResult
    public func write(_ evaluated: Evaluated, title: String, files: DetectionFiles, to folder: URL) throws -> COCOResultsFile.LeftOut? {
        var left: COCOResultsFile.LeftOut?
        if let (found, names) = evaluated.found {
            switch files {
            case .none: break
            case .json:
                try DetectionsFile.write(found, classNames: names, to: folder.appendingPathComponent(DetectionsFile.fileName))
            case .jsonAndCOCO(let ids):
                try DetectionsFile.write(found, classNames: names, to: folder.appendingPathComponent(DetectionsFile.fileName))
                left = try COCOResultsFile.write(found, classNames: names, ids: ids, to: folder.appendingPathComponent(COCOResultsFile.fileName))
            }
        }
        // Two steps, each of two halves that do not depend on each other, run side by side on both
        // cores: the tables and the report's first screens beside the error gallery's crops; then the
        // page (made from both) beside errors.json, the largest file.
        let summary = evaluated.summary
        let made = parallelMap(count: 2, workers: 2) { _, half in
            Result { () -> (screens: [ReportScreen], gallery: ErrorGallery?) in
                if half == 1 { return ([], try summary.errors.map { try ErrorGallery.make($0, classCount: classNames.count, set: set) }) }
                try EvaluationFiles.writeTables(summary, to: folder)
                return (try ReportScreen.first(EvaluationReport.screensShown, of: set, input: evaluated.input, picks: summary.picks), nil)
            }
        }
        let (screens, gallery) = (try made[0].get().screens, try made[1].get().gallery)
        let written = parallelMap(count: 2, workers: 2) { _, half in
            Result {
                if half == 1 { return try EvaluationFiles.writeErrors(summary, to: folder) }
                try EvaluationReport(summary, title: title, screens: screens, gallery: gallery)
                    .write(to: folder.appendingPathComponent(EvaluationReport.fileName))
            }
        }
        for result in written { try result.get() }
        return left
    }

    /// The COCO ids `export-data coco` gives these shards (what detections.coco.json uses without `--coco-ids`).
    public var exportNumbering: COCOIDMap { COCOIDMap(numbering: set.readers.flatMap(\.imageIDs), classNames: set.classNames) }
}
