import Engine
import Foundation

/// Writes a `metrics.csv` row and a log line for each metrics window the step closed (at
/// `log_interval`, at validations and at the end), with the images per second of training
/// (validations left out), and the validation's figures when there was one.
final class MetricsHook: TrainingHook {
    private var windowStart = 0.0
    private var windowSeconds = 0.0

    func beforeTraining(_ run: TrainingContext) throws { windowStart = monotonicSeconds() }

    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {
        windowSeconds += record.validation?.seconds ?? 0
        guard let w = record.fold.closedWindow else { return }
        let c = run.config
        let n = Double(w.steps)
        let trainingSeconds = max(1e-9, monotonicSeconds() - windowStart - windowSeconds)
        let rate = Double(w.steps * c.batchSize) / trainingSeconds
        let row = MetricsLog.Row(step: record.step, loss: w.loss / n, classification: w.classification / n, box: w.box / n,
                                 learningRate: record.learningRate, imagesPerSecond: rate, validation: record.validation?.scores)
        try MetricsLog(url: run.folder.metricsFile).append(row)
        record.metricsRow = row
        // The time left at this window's rate, so that a log read later (or a run started in the
        // background) says from its first lines how long the run will take on this machine.
        let left = Double(c.steps - record.step) * trainingSeconds / n
        run.logger.info("\(String(format: "step %d/%d  loss %.4f (class %.4f, box %.4f)  lr %.5f  %.1f images/s", record.step, c.steps, w.loss / n, w.classification / n, w.box / n, record.learningRate, rate))  \(clockText(left)) left")
        if let v = record.validation?.scores {
            let best = run.state.bestStep.map(String.init) ?? "-"
            run.logger.info("step \(record.step): validation loss \(String(format: "%.4f", v.loss)), mAP50 \(percent(v.map50)), mAP-center \(percent(v.mapCenter)) (best \(percent(run.state.bestScore)) at step \(best); \(run.setup.evaluatedWeights))")
        }
        windowStart = monotonicSeconds()
        windowSeconds = 0
    }
}
