import Boxes
import Detection
import DetectorRuns
import Engine
import Evaluation
import Foundation
import Images
import Outputs
import Reports

/// Validates at `eval_interval` and at the end: the evaluated model (the moving average when
/// on) over the validation screens through the evaluation run `uidetect evaluate` uses, with
/// the validation loss from the same forward pass. Each validation's files go into
/// `validation/step-N/` (staged), and the latest, with its detections, into `validation/`.
final class ValidationHook: TrainingHook {
    /// Validation screens kept for pictures (TensorBoard).
    static let screensShown = 3

    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {
        let c = run.config, setup = run.setup
        guard let validation = setup.validation, (c.evalInterval > 0 && record.step % c.evalInterval == 0) || record.step == c.steps else { return }
        let start = monotonicSeconds()
        var sums = (total: 0.0, classification: 0.0, box: 0.0), batches = 0
        var source = validation.source()
        (source.step, source.weightsKind) = (record.step, setup.evaluatedWeights)
        let evaluated = try validation.score(detector: SSDDetector(model: setup.evaluatedModel), classNames: setup.classNames, batchSize: c.batchSize,
                                             source: source, observe: { logits, deltas, targets in
            let v = Autodiff.withoutTape { setup.loss.value(logits: logits, deltas: deltas, assigned: setup.loss.assigner.assign(targets)) }
            sums.total += Double(v.total.item); sums.classification += Double(v.classification.item); sums.box += Double(v.box.item)
            batches += 1
        })
        let n = Double(max(1, batches))
        let summary = evaluated.summary
        let scores = ValidationScores(map50: summary.result.map50, mapCenter: summary.result.mapCenter,
                                      loss: sums.total / n, classificationLoss: sums.classification / n, boxLoss: sums.box / n)
        try write(evaluated, of: validation, step: record.step, in: run)
        run.logger.debug("\(EvaluationTable.render(summary))")
        var rawMAP50: Double?
        if setup.ema != nil {
            // The raw weights too, so that one run shows what the average buys (log and TensorBoard).
            let raw = try validation.score(detector: SSDDetector(model: setup.model), classNames: setup.classNames, batchSize: c.batchSize, source: source)
            rawMAP50 = raw.summary.result.map50
            run.logger.info("step \(record.step): validation mAP50 of the raw weights \(percent(rawMAP50)), of their EMA \(percent(summary.result.map50))")
        }
        record.validation = ValidationResult(summary: summary, scores: scores, screens: try screens(evaluated, of: validation),
                                             seconds: monotonicSeconds() - start, rawWeightsMAP50: rawMAP50)
    }

    /// `validation/step-N/` staged (its files, no detections), then the same files and the detections as the latest in `validation/`.
    private func write(_ evaluated: EvaluationRun.Evaluated, of validation: EvaluationRun, step: Int, in run: TrainingContext) throws {
        let title = "Validation of \(run.folder.name) at step \(step) (\(run.setup.evaluatedWeights))"
        let history = try OutputFolder(run.folder.validationHistory(step: step).path, command: "train", inputs: [])
        defer { history.discard() }
        try validation.write(evaluated, title: title, files: .none, to: history.staging)
        try history.commit()
        let latest = run.folder.validation
        for name in try FileManager.default.contentsOfDirectory(atPath: history.final.path) where name != OutputFolder.markerName {
            try OutputFile.write(try Data(contentsOf: history.final.appendingPathComponent(name)), to: latest.appendingPathComponent(name))
        }
        if let (found, names) = evaluated.found {
            try DetectionsFile.write(found, classNames: names, to: latest.appendingPathComponent(DetectionsFile.fileName))
        }
    }

    /// The first validation screens with their true boxes and what was detected on them.
    private func screens(_ evaluated: EvaluationRun.Evaluated, of validation: EvaluationRun) throws -> [ValidationScreen] {
        let found = evaluated.found?.detections ?? []
        return try (0..<min(Self.screensShown, validation.images.count)).map { i in
            let r = try validation.set.record(at: i)
            let truth = validation.images[i]
            return ValidationScreen(imageID: r.imageID, image: r.image ?? RGBImage(size: Size(width: 1, height: 1)),
                                    truth: zip(truth.boxes, truth.labels).map { (box: $0.0, label: $0.1) },
                                    detections: found.filter { $0.imageID == r.imageID }.map { DetectedBox(box: $0.box, label: $0.label, score: Float($0.score)) })
        }
    }
}
