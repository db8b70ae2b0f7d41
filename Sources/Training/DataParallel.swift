import Distributed
import Engine
import Foundation
import Logging

/// Data-parallel training over MPI (README, "Data-parallel runs over MPI"): what the training
/// loop asks of the other ranks at each step. Each rank trains on its slice of the same batch;
/// the ranks agree on the batch's positives and on stopping, their gradients (and loss parts)
/// are summed in rank order, and unless batch norm is synchronised every rank takes rank 0's
/// running statistics.
final class DataParallel {
    let group: ProcessGroup
    let syncBatchNorm: Bool

    init(group: ProcessGroup, syncBatchNorm: Bool) {
        self.group = group
        self.syncBatchNorm = syncBatchNorm
    }

    /// One small sum per step: the whole batch's positives (the loss's normaliser) and whether any rank must stop.
    func agree(positives: Int, stop: Bool, step: Int) throws -> (positives: Int, stop: Bool) {
        var flags: [Float] = [Float(positives), stop ? 1 : 0]
        try group.sum(&flags, count: 2, what: "step \(step): positives and stop flags")
        return (Int(flags[0]), flags[1] > 0)
    }

    /// Sums every trainable parameter's gradient over the ranks, and the ranks' shares of the
    /// loss with them: one flat buffer, one collective. Returns the whole batch's loss parts.
    func sumGradients(_ parameters: [Tensor], loss: (Float, Float, Float), step: Int) throws -> (Float, Float, Float) {
        let size = parameters.reduce(0) { $0 + $1.count }
        var flat = [Float](repeating: 0, count: size + 3)
        (flat[size], flat[size + 1], flat[size + 2]) = loss
        var offset = 0
        for p in parameters {
            if let g = p.gradStorageIfAny { flat.withUnsafeMutableBufferPointer { ($0.baseAddress! + offset).update(from: g, count: p.count) } }
            offset += p.count
        }
        try group.sum(&flat, count: flat.count, what: "step \(step): summing gradients")
        offset = 0
        for p in parameters {
            let g = p.gradientCreatingZeros
            flat.withUnsafeBufferPointer { g.update(from: $0.baseAddress! + offset, count: p.count) }
            offset += p.count
        }
        return (flat[size], flat[size + 1], flat[size + 2])
    }

    /// After the optimizer step: with batch norm per rank, every rank takes rank 0's running statistics, so that all hold the same model.
    func afterStep(buffers: [Tensor], step: Int) throws {
        guard !syncBatchNorm else { return }
        var flat = buffers.flatMap(\.scalars)
        try group.broadcast(&flat, count: flat.count, what: "step \(step): running statistics")
        var offset = 0
        for b in buffers {
            b.assign(Array(flat[offset..<(offset + b.count)]))
            offset += b.count
        }
    }

    /// What the sums cost, for the log.
    func report(_ logger: Logger) {
        guard group.sumCalls > 0 else { return }
        let perCall = 1000 * group.sumSeconds / Double(group.sumCalls), megabytes = Double(group.sumFloats * 4) / Double(group.sumCalls) / 1e6
        logger.info("\(String(format: "summing over %d ranks: %d calls, %.2f ms each on average (%.2f MB on average; mostly the gradients)", group.size, group.sumCalls, perCall, megabytes))")
    }
}
