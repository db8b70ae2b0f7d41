import Checkpoints
import Foundation

/// Owns the run's checkpoints: writes `checkpoints/last` at `checkpoint_interval`, at the end and
/// at each new best (then also `best`), and when the session ends between them (interrupted or
/// stopped early). With an EMA the model file holds the average and the state the raw weights.
final class CheckpointHook: TrainingHook {
    /// The step of the checkpoint `last` holds, if any.
    private var savedStep: Int?

    func beforeTraining(_ run: TrainingContext) throws {
        // A session that resumed starts from `last`, which holds its step.
        savedStep = run.state.step > 0 ? run.state.step : nil
    }

    func afterStep(_ record: inout StepRecord, _ run: TrainingContext) throws {
        let c = run.config
        if record.step % c.checkpointInterval == 0 || record.step == c.steps || record.fold.isBest {
            try save(run, isBest: record.fold.isBest)
        }
    }

    func afterTraining(_ run: TrainingContext, interrupted: Bool) throws {
        if savedStep != run.state.step { try save(run, isBest: false) }
    }

    private func save(_ run: TrainingContext, isBest: Bool) throws {
        let setup = run.setup
        var state = run.state
        state.optimizer = setup.optimizer.state()
        if let ema = setup.ema {
            state.rawWeights = setup.model.namedState().map { NamedTensor(name: $0.name, shape: $0.tensor.shape, values: $0.tensor.scalars) }
            state.emaUpdates = ema.updates
        }
        try run.folder.checkpoints.save(model: setup.evaluatedModel, classNames: setup.classNames, state: state, isBest: isBest,
                                        weights: setup.ema.map { "ema (decay \($0.decay), \($0.updates) updates)" } ?? "raw")
        savedStep = state.step
    }
}
