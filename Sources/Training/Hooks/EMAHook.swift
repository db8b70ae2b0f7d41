/// Moves the moving average of the weights after each step (when `ema.enabled`).
final class EMAHook: TrainingHook {
    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws { run.setup.ema?.update() }
}
