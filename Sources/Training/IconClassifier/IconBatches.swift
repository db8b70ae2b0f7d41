import Engine
import Foundation
import Glyphs
import IconRecognition
import IconVocabulary
import Images

/// Batches of training crops rendered on worker threads ahead of the training thread. Batch `b`
/// holds samples `b * size ..< (b + 1) * size` of the seeded stream, so a resumed run sees the
/// same batches, whatever the number of workers.
final class IconBatches: @unchecked Sendable {
    struct Batch {
        var inputs: Tensor
        var labels: [Int32]
    }

    private let samples: IconSamples
    private let size: Int, side: Int
    private let condition = NSCondition()
    private var ready: [Int: Batch] = [:]
    private var nextToRender: Int
    private var nextToTake: Int
    private var stopped = false
    private var threads: [Thread] = []
    /// Batches rendered ahead, at most.
    private let ahead = 4

    init(samples: IconSamples, batchSize: Int, side: Int, startBatch: Int, workers: Int) throws {
        self.samples = samples
        (size, self.side, nextToRender, nextToTake) = (batchSize, side, startBatch, startBatch)
        for _ in 0..<workers {
            let rasterizer = try GlyphRasterizer()
            let thread = Thread { [unowned self] in self.work(rasterizer) }
            thread.stackSize = 8 << 20
            threads.append(thread)
            thread.start()
        }
    }

    private func work(_ rasterizer: GlyphRasterizer) {
        while true {
            condition.lock()
            while !stopped && nextToRender >= nextToTake + ahead { condition.wait() }
            if stopped { condition.unlock(); return }
            let b = nextToRender
            nextToRender += 1
            condition.unlock()
            let drawn = (0..<size).map { samples.sample(b * size + $0, rasterizer: rasterizer) }
            let batch = Batch(inputs: IconInput.tensor(drawn.map(\.crop), side: side), labels: drawn.map { Int32($0.type.index) })
            condition.lock()
            ready[b] = batch
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next batch in order, waiting for it if needed.
    func next() -> Batch {
        condition.lock()
        defer { condition.unlock() }
        while ready[nextToTake] == nil { condition.wait() }
        let batch = ready.removeValue(forKey: nextToTake)!
        nextToTake += 1
        condition.broadcast()
        return batch
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Validation crops rendered once: their inputs in batches, their types, and the crops themselves
/// (the report shows the ones the classifier confuses).
struct IconValidationSet {
    let crops: [RGBImage]
    let truths: [IconType]
    let inputs: [Tensor]

    init(samples: IconSamples, count: Int, side: Int, batchSize: Int) throws {
        let rasterizer = try GlyphRasterizer()
        let drawn = (0..<count).map { samples.sample($0, rasterizer: rasterizer) }
        let crops = drawn.map(\.crop)
        self.crops = crops
        truths = drawn.map(\.type)
        inputs = stride(from: 0, to: count, by: batchSize).map { IconInput.tensor(Array(crops[$0..<min(count, $0 + batchSize)]), side: side) }
    }
}
