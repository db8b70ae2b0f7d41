import Boxes
import Detection
import Engine
import Evaluation
import Foundation
import Images
import Reports
import TensorBoard

/// Validates at `eval_interval` and at the end: the evaluated model (the moving average when
/// on) over the validation screens, with their loss from the same forward pass; the evaluation
/// is written to `validation/` (the latest, with its detections) and `validation/step-N/` (the
/// history), the run page `report.html` is redrawn, and the best mAP50 kept.
final class ValidationHook: TrainingHook {
    /// Validation screens kept for pictures (TensorBoard).
    static let screensShown = 3

    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws {
        let c = trainer.config
        guard let valSet = trainer.setup.valSet, (c.evalInterval > 0 && record.step % c.evalInterval == 0) || record.step == c.steps else { return }
        let start = monotonicSeconds()
        let setup = trainer.setup
        let detector = SSDDetector(model: setup.evaluatedModel)
        var sums = (total: 0.0, classification: 0.0, box: 0.0), batches = 0
        let dets = try ShardInference.detections(detector, set: valSet, indices: Array(0..<setup.valImages.count), batchSize: c.batchSize,
                                                 observe: { logits, deltas, targets in
            let v = Autodiff.withoutTape { setup.loss.value(logits: logits, deltas: deltas, assigned: setup.loss.assigner.assign(targets)) }
            sums.total += Double(v.total.item); sums.classification += Double(v.classification.item); sums.box += Double(v.box.item)
            batches += 1
        })
        let input = EvaluationInput(classNames: setup.classNames, images: setup.valImages, detections: dets)
        let source = EvaluationSource(data: valSet.readers.map(\.url.path), groundTruthBoxes: setup.valImages.reduce(0) { $0 + $1.boxes.count },
                                      step: record.step, weightsKind: setup.evaluatedWeights)
        let summary = Evaluator().summarize(input, source: source)
        let n = Double(max(1, batches))
        let scores = ValidationScores(map50: summary.result.map50, mapCenter: summary.result.mapCenter,
                                      loss: sums.total / n, classificationLoss: sums.classification / n, boxLoss: sums.box / n)
        if let m = scores.map50, m > (trainer.state.bestMAP50 ?? -1) {
            trainer.state.bestMAP50 = m
            trainer.state.bestStep = record.step
            record.isBest = true
        }
        let title = "Validation of \(trainer.folder.name) at step \(record.step) (\(setup.evaluatedWeights))"
        let report = EvaluationReport(summary, title: title,
                                      screens: try ReportScreen.first(EvaluationReport.screensShown, of: valSet, input: input, picks: summary.picks))
        for folder in [trainer.folder.validation, trainer.folder.validationHistory(step: record.step)] {
            try EvaluationFiles.write(summary, to: folder)
            try report.write(to: folder.appendingPathComponent("report.html"))
        }
        try DetectionsFile.write(dets, classNames: setup.classNames, to: trainer.folder.validation.appendingPathComponent("detections.json"))
        trainer.logger.debug("\(EvaluationTable.render(summary))")
        record.validation = scores
        if setup.ema != nil {
            // The raw weights too, so that one run shows what the average buys (log and TensorBoard).
            let raw = try ShardInference.detections(SSDDetector(model: setup.model), set: valSet, indices: Array(0..<setup.valImages.count), batchSize: c.batchSize)
            let rawSummary = Evaluator().summarize(EvaluationInput(classNames: setup.classNames, images: setup.valImages, detections: raw))
            record.rawWeightsMAP50 = rawSummary.result.map50
            trainer.logger.info("step \(record.step): validation mAP50 of the raw weights \(percent(rawSummary.result.map50)), of their EMA \(percent(summary.result.map50))")
        }
        record.validationSeconds = monotonicSeconds() - start
        trainer.latestValidation = summary
        trainer.latestValidationScreens = try (0..<min(Self.screensShown, setup.valImages.count)).map { i in
            let r = try valSet.record(at: i)
            let truth = setup.valImages[i]
            return ValidationScreen(imageID: r.imageID, image: r.image ?? RGBImage(size: Size(width: 1, height: 1)),
                                    truth: zip(truth.boxes, truth.labels).map { (box: $0.0, label: $0.1) },
                                    detections: dets.filter { $0.imageID == r.imageID }.map { DetectedBox(box: $0.box, label: $0.label, score: Float($0.score)) })
        }
    }
}

/// Moves the moving average of the weights after each step (when `ema.enabled`); it runs first,
/// so that validation sees the average of this step.
final class EMAHook: TrainingHook {
    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws { trainer.setup.ema?.update() }
}

/// Counts validations without a better mAP50 and ends the run when `patience` of them have passed.
final class EarlyStoppingHook: TrainingHook {
    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws {
        guard record.validation != nil else { return }
        trainer.state.validationsSinceBest = record.isBest ? 0 : trainer.state.validationsSinceBest + 1
        if let patience = trainer.config.patience, trainer.state.validationsSinceBest >= patience, record.step < trainer.config.steps {
            trainer.state.stoppedEarly = true
        }
    }
}

/// Keeps the loss window (in the training state, so that checkpoints carry it) and, at
/// `log_interval`, at validations and at the end, writes a `metrics.csv` row and a log line.
final class MetricsHook: TrainingHook {
    private var windowStart = 0.0
    private var windowSeconds = 0.0

    func beforeTraining(_ trainer: Trainer) throws { windowStart = monotonicSeconds() }

    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws {
        var w = trainer.state.window
        w.steps += 1
        w.loss += Double(record.loss); w.classification += Double(record.classification); w.box += Double(record.box)
        windowSeconds += record.validationSeconds
        let c = trainer.config
        guard record.step % c.logInterval == 0 || record.step == c.steps || record.validation != nil else {
            trainer.state.window = w
            return
        }
        let n = Double(w.steps)
        let now = monotonicSeconds()
        let rate = Double(w.steps * c.batchSize) / max(1e-9, now - windowStart - windowSeconds)
        let log = MetricsLog(url: trainer.folder.metricsFile)
        let row = MetricsLog.Row(step: record.step, loss: w.loss / n, classification: w.classification / n, box: w.box / n,
                                 learningRate: record.learningRate, imagesPerSecond: rate, validation: record.validation)
        try log.append(row)
        record.loggedRow = row
        trainer.logger.info("\(String(format: "step %d/%d  loss %.4f (class %.4f, box %.4f)  lr %.5f  %.1f images/s", record.step, c.steps, w.loss / n, w.classification / n, w.box / n, record.learningRate, rate))")
        if let v = record.validation {
            let best = trainer.state.bestStep.map(String.init) ?? "-"
            trainer.logger.info("step \(record.step): validation loss \(String(format: "%.4f", v.loss)), mAP50 \(percent(v.map50)), mAP-center \(percent(v.mapCenter)) (best \(percent(trainer.state.bestMAP50)) at step \(best); \(trainer.setup.evaluatedWeights))")
            try trainer.writeRunPage(points: log.points())
        }
        trainer.state.window = MetricsWindow()
        windowStart = monotonicSeconds()
        windowSeconds = 0
    }
}

/// Writes `checkpoints/last` at `checkpoint_interval`, at the end and at each new best (then
/// also `best`), and on interruption if the current step is not saved yet.
final class CheckpointHook: TrainingHook {
    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws {
        let c = trainer.config
        if record.step % c.checkpointInterval == 0 || record.step == c.steps || record.isBest {
            try trainer.saveCheckpoint(isBest: record.isBest)
        }
    }

    func afterTraining(_ trainer: Trainer, interrupted: Bool) throws {
        // Interrupted or stopped early between checkpoints: `last` must hold the step the run ended at.
        if trainer.lastCheckpointStep != trainer.state.step { try trainer.saveCheckpoint(isBest: false) }
    }
}

/// A run's progress after a step, for a progress line.
public struct StepReport: Sendable {
    public var step: Int
    public var steps: Int
    public var loss: Float
    public var classificationLoss: Float
    public var boxLoss: Float
    public var learningRate: Float
    /// Over the steps since the previous report.
    public var imagesPerSecond: Double
    /// At this session's pace so far, validations left out.
    public var secondsLeft: Double
}

/// Hands a `StepReport` to the caller after each step.
final class ProgressHook: TrainingHook {
    private let report: (StepReport) -> Void
    private var sessionStart = 0.0, lastStep = 0.0, validationSeconds = 0.0
    private var steps = 0

    init(report: @escaping (StepReport) -> Void) { self.report = report }

    func beforeTraining(_ trainer: Trainer) throws {
        sessionStart = monotonicSeconds()
        lastStep = sessionStart
    }

    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws {
        let now = monotonicSeconds()
        steps += 1
        validationSeconds += record.validationSeconds
        let rate = Double(record.images) / max(1e-9, now - lastStep - record.validationSeconds)
        let perStep = (now - sessionStart - validationSeconds) / Double(steps)
        report(StepReport(step: record.step, steps: trainer.config.steps, loss: record.loss, classificationLoss: record.classification,
                          boxLoss: record.box, learningRate: record.learningRate, imagesPerSecond: rate,
                          secondsLeft: perStep * Double(trainer.config.steps - record.step)))
        lastStep = now
    }
}

/// TensorBoard event files in the run's `tensorboard/` (written by our own encoder): the logged
/// losses, learning rate and speed; at each validation its loss, mAP50, AP-center, AP50 per
/// class, a PR curve per class and a few screens with true (green) and detected boxes.
/// mAP and AP are fractions, as TensorBoard users expect.
final class TensorBoardHook: TrainingHook {
    private var writer: EventFileWriter?
    private var font: Font?

    func beforeTraining(_ trainer: Trainer) throws {
        let w = try EventFileWriter(folder: trainer.folder.tensorboard)
        // A resumed run redoes the steps after its checkpoint: earlier files' later events are dropped.
        if trainer.state.step > 0 { try w.addSessionStart(step: trainer.state.step) }
        writer = w
        font = try? Font()
    }

    func afterStep(_ trainer: Trainer, _ record: inout StepRecord) throws {
        guard let writer, let row = record.loggedRow else { return }
        var values: [SummaryValue] = [
            .scalar(tag: "train/loss", value: Float(row.loss)), .scalar(tag: "train/classification_loss", value: Float(row.classification)),
            .scalar(tag: "train/box_loss", value: Float(row.box)), .scalar(tag: "train/learning_rate", value: row.learningRate),
            .scalar(tag: "train/images_per_second", value: Float(row.imagesPerSecond)),
        ]
        if let v = record.validation, let summary = trainer.latestValidation {
            values += [.scalar(tag: "val/loss", value: Float(v.loss)), .scalar(tag: "val/classification_loss", value: Float(v.classificationLoss)),
                       .scalar(tag: "val/box_loss", value: Float(v.boxLoss))]
            if let m = v.map50 { values.append(.scalar(tag: "val/map50", value: Float(m))) }
            if let m = v.mapCenter { values.append(.scalar(tag: "val/map_center", value: Float(m))) }
            if let m = record.rawWeightsMAP50 { values.append(.scalar(tag: "val/map50_raw_weights", value: Float(m))) }
            for c in summary.result.classes where c.gtCount > 0 {
                if let ap = c.ap50 { values.append(.scalar(tag: "val_ap50/\(c.name)", value: Float(ap))) }
                // Each point of the curve is one detection in score order: a rise in TP marks a true positive.
                var previous = 0
                let detections = c.curve.map { p -> (score: Float, isTruePositive: Bool) in
                    defer { previous = p.tp }
                    return (Float(p.threshold), p.tp > previous)
                }
                values.append(.prCurve(tag: "pr_curves/\(c.name)", curve: try PRCurve(detections: detections, groundTruthCount: c.gtCount)))
            }
            if let font {
                let overlay = DetectionOverlay(classNames: trainer.setup.classNames, font: font)
                for (k, screen) in trainer.latestValidationScreens.enumerated() {
                    var image = screen.image
                    for t in screen.truth { image.stroke(t.box, color: RGB(0, 200, 0), thickness: 2) }
                    values.append(try .image(tag: "val_screens/\(k)", image: overlay.draw(screen.detections, on: image)))
                }
            }
        }
        try writer.add(values, step: record.step)
    }

    func afterTraining(_ trainer: Trainer, interrupted: Bool) throws {
        try writer?.close()
        writer = nil
    }
}
