import Engine
/// Hands a `StepReport` to the caller after each step: the rate since the last step and the
/// time left at this session's pace, validations left out.
final class ProgressHook: TrainingHook {
    private let report: (StepReport) -> Void
    private var sessionStart = 0.0, lastStep = 0.0, validationSeconds = 0.0
    private var steps = 0

    init(report: @escaping (StepReport) -> Void) { self.report = report }

    func beforeTraining(_ run: TrainingContext) throws {
        sessionStart = monotonicSeconds()
        lastStep = sessionStart
    }

    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {
        let now = monotonicSeconds()
        steps += 1
        let validation = record.validation?.seconds ?? 0
        validationSeconds += validation
        let rate = Double(record.images) / max(1e-9, now - lastStep - validation)
        let perStep = (now - sessionStart - validationSeconds) / Double(steps)
        report(StepReport(step: record.step, steps: run.config.steps, loss: record.loss, classificationLoss: record.classification,
                          boxLoss: record.box, learningRate: record.learningRate, imagesPerSecond: rate,
                          secondsLeft: perStep * Double(run.config.steps - record.step)))
        lastStep = now
    }
}
