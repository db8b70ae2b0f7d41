import Reports

/// Redraws the run page, `report.html`, at each validation: the curves of `metrics.csv` so far
/// above the latest validation's report.
final class RunPageHook: TrainingHook {
    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {
        guard let validation = record.validation else { return }
        let c = run.config, m = c.model, setup = run.setup
        let notes = ["\(setup.trainSet.count) training screens, \(setup.valImages.count) validation screens; \(m.inputWidth)x\(m.inputHeight), alpha \(m.alpha), FPN \(m.fpnDepth), "
                     + "\(setup.model.parameterCount) parameters; \(c.optimizer.name.rawValue), learning rate \(c.optimizer.learningRate), batch \(c.batchSize), \(c.steps) steps.",
                     "Validation and best use the \(setup.evaluatedWeights). Best validation mAP50 \(percent(run.state.bestScore)) at step \(run.state.bestStep.map(String.init) ?? "-")."]
        let latest = EvaluationReport(validation.summary, title: "Latest validation (step \(record.step))")
        try TrainingRunPage(title: "Run \(run.folder.name)", notes: notes, points: MetricsLog(url: run.folder.metricsFile).points(), latestValidation: latest)
            .write(to: run.folder.reportFile)
    }
}
