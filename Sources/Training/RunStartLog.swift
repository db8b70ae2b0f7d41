import Detection
import Engine
import Logging

/// What a run says when it starts: its data, the weights it started from, what is frozen,
/// the model, the class weights, the optimizer and the OpenBLAS kernels.
enum RunStartLog {
    static func write(_ setup: TrainingSetup, folder: RunFolder, resumedAt: Int?, ranks: Int?, to logger: Logger) {
        let c = setup.config
        if let step = resumedAt {
            logger.info("resumed at step \(step) of \(c.steps) from \(folder.checkpoints.last.path)")
        } else {
            let val = setup.valSet.map { "\(setup.valImages.count) of \($0.count)" } ?? "no"
            logger.info("run \(folder.path): \(setup.trainSet.count) training screens, \(val) validation screens")
            if let t = setup.transfer {
                logger.info("init_from \(t.source): \(t.loaded.count) tensors loaded, \(t.reinitialised.count) started afresh, \(t.dropped.count) dropped")
                if !t.reinitialised.isEmpty {
                    let kept = t.keptClasses.isEmpty ? "no class name is in both, so no row is kept"
                        : "keeping the rows of \(t.keptClasses.count) shared classes (\(t.keptClasses.joined(separator: ", ")))"
                    logger.info("  the vocabularies differ: \(t.reinitialised.joined(separator: ", ")) re-initialised, \(kept)")
                }
                if !t.dropped.isEmpty { logger.info("  dropped: \(t.dropped.joined(separator: ", "))") }
            }
        }
        if !c.freeze.isEmpty {
            let fixed = setup.model.parameters.filter { !$0.requiresGrad }.reduce(0) { $0 + $1.count }
            logger.info("frozen: \(c.freeze.joined(separator: ", ")) (\(fixed) parameters kept fixed, batch norm there on running statistics)")
        }
        if setup.ema != nil { logger.info("validation and best use the \(setup.evaluatedWeights), warm-up \(c.ema.warmupSteps) steps") }
        if let ranks {
            let norm = c.distributed.syncBatchNorm ? "batch norm over the global batch" : "batch norm per rank (rank 0's running statistics kept)"
            logger.info("data-parallel over \(ranks) ranks: \(c.batchSize / ranks) screens of each batch of \(c.batchSize) per rank, gradients summed in rank order, \(norm)")
        }
        let m = c.model
        logger.info("model: \(m.inputWidth)x\(m.inputHeight), alpha \(m.alpha), FPN \(m.fpnDepth), \(m.headLayers) head layers, levels \(m.minLevel)-\(m.maxLevel): \(setup.model.parameterCount) parameters, \(setup.loss.assigner.anchors.count) anchors per image")
        logger.info("class weights (\(c.loss.classBalance.rawValue)) from the training shards' box counts:")
        for (k, name) in setup.classNames.enumerated() {
            logger.info("\("  " + name.padding(toLength: 20, withPad: " ", startingAt: 0))\(String(format: "%8d boxes   weight %.4f", setup.boxCounts[k], setup.loss.assigner.classWeights[k]))")
        }
        let threads = setup.threads
        logger.info("optimizer \(c.optimizer.name.rawValue), learning rate \(c.optimizer.learningRate) (\(c.schedule.name.rawValue)), batch \(c.batchSize), \(c.steps) steps, \(threads) thread\(threads == 1 ? "" : "s"), OpenBLAS \(BLASKernels.current) kernels")
        if let advice = BLASKernels.advice() { logger.info("note: \(advice)") }
    }
}
