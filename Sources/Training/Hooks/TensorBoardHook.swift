import Boxes
import Detection
import Images
import TensorBoard

/// TensorBoard event files in the run's `tensorboard/` (written by our own encoder): the logged
/// losses, learning rate and speed; at each validation its loss, mAP50, AP-center, AP50 per
/// class, a PR curve per class and a few screens with true (green) and detected boxes.
/// mAP and AP are fractions, as TensorBoard users expect.
final class TensorBoardHook: TrainingHook {
    private var writer: EventFileWriter?
    private var font: Font?

    func beforeTraining(_ run: TrainingContext) throws {
        let w = try EventFileWriter(folder: run.folder.tensorboard)
        // A resumed run redoes the steps after its checkpoint: earlier files' later events are dropped.
        if run.state.step > 0 { try w.addSessionStart(step: run.state.step) }
        writer = w
        font = try? Font()
    }

    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {
        guard let writer, let row = record.metricsRow else { return }
        var values: [SummaryValue] = [
            .scalar(tag: "train/loss", value: Float(row.loss)), .scalar(tag: "train/classification_loss", value: Float(row.classification)),
            .scalar(tag: "train/box_loss", value: Float(row.box)), .scalar(tag: "train/learning_rate", value: row.learningRate),
            .scalar(tag: "train/images_per_second", value: Float(row.imagesPerSecond)),
        ]
        if let validation = record.validation {
            let (v, summary) = (validation.scores, validation.summary)
            values += [.scalar(tag: "val/loss", value: Float(v.loss)), .scalar(tag: "val/classification_loss", value: Float(v.classificationLoss)),
                       .scalar(tag: "val/box_loss", value: Float(v.boxLoss))]
            if let m = v.map50 { values.append(.scalar(tag: "val/map50", value: Float(m))) }
            if let m = v.mapCenter { values.append(.scalar(tag: "val/map_center", value: Float(m))) }
            if let m = validation.rawWeightsMAP50 { values.append(.scalar(tag: "val/map50_raw_weights", value: Float(m))) }
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
                let overlay = DetectionOverlay(classNames: run.setup.classNames, font: font)
                for (k, screen) in validation.screens.enumerated() {
                    var image = screen.image
                    for t in screen.truth { image.stroke(t.box, color: RGB(0, 200, 0), thickness: 2) }
                    values.append(try .image(tag: "val_screens/\(k)", image: overlay.draw(screen.detections, on: image)))
                }
            }
        }
        try writer.add(values, step: record.step)
    }

    func afterTraining(_ run: TrainingContext, interrupted: Bool) throws {
        try writer?.close()
        writer = nil
    }
}
