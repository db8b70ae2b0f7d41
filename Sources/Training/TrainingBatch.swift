import Detection
import Engine
import Shards

/// A batch as a training step takes it: the model's input and the targets matched to its anchors.
public typealias TrainingBatch = (images: Tensor, assigned: AssignedTargets)

extension TargetAssigner {
    /// Makes a batch of screens ready for a training step. The input pipeline's worker calls it
    /// (`train` and `bench train` alike), so that matching runs beside the step, not in it.
    public func trainingBatch(_ batch: Batch) -> TrainingBatch {
        (images: ModelInput.tensor(batch.images), assigned: assign(batch.targets))
    }
}
