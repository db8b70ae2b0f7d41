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
        let rate = Double(w.steps * c.batchSize) / max(1e-9, monotonicSeconds() - windowStart - windowSeconds)
        let row = MetricsLog.Row(step: record.step, loss: w.loss / n, classification: w.classification / n, box: w.box / n,
                                 learningRate: record.learningRate, imagesPerSecond: rate, validation: record.validation?.scores)
        try MetricsLog(url: run.folder.metricsFile).append(row)
        record.metricsRow = row
        // The time left at this window's rate, so that a log read later (or a run started in the
        // background) says from its first lines how long the run will take on this machine.
        let left = Double((c.steps - record.step) * c.batchSize) / rate
        run.logger.info("\(String(format: "step %d/%d  loss %.4f (class %.4f, box %.4f)  lr %.5f  %.1f images/s", record.step, c.steps, w.loss / n, w.classification / n, w.box / n, record.learningRate, rate))  \(Self.clock(left)) left")
        if let v = record.validation?.scores {
            let best = run.state.bestStep.map(String.init) ?? "-"
            run.logger.info("step \(record.step): validation loss \(String(format: "%.4f", v.loss)), mAP50 \(percent(v.map50)), mAP-center \(percent(v.mapCenter)) (best \(percent(run.state.bestScore)) at step \(best); \(run.setup.evaluatedWeights))")
        }
        windowStart = monotonicSeconds()
        windowSeconds = 0
    }

    /// `seconds` as h:mm:ss or m:ss.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return "-" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
