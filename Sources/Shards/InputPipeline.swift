import Boxes
import Foundation
import Images
import SeededRandom
import Workers

/// A batch of augmented screens of one size, with each screen's boxes and labels in its pixels.
public struct Batch: Sendable {
    public var size: Size
    public var images: [RGBImage]
    public var boxes: [[Box]]
    public var labels: [[Int32]]
    public var imageIDs: [String]
    /// Position of the batch in the stream (0, 1, ...).
    public var index: Int

    public var count: Int { images.count }

    /// Each screen's boxes with their labels, as a detector's targets.
    public var targets: [(boxes: [Box], labels: [Int32])] { zip(boxes, labels).map { (boxes: $0.0, labels: $0.1) } }
}

/// Screens from shards, sampled, augmented and batched on background threads.
///
/// Epoch e visits the screens in an order fixed by (seed, e): each screen
/// repeated by its repeat factor (stochastically rounded), then shuffled.
/// Sample k of the stream is augmented with a generator seeded by (seed, k),
/// so the stream is identical for any number of workers. A producer thread
/// keeps at most `prefetch` batches ready; images are read from the shards as
/// needed, so memory stays bounded whatever the data set's size.
/// Each batch is handed to `prepare` on the producer thread (e.g. to turn it into the model's
/// input and match its targets), so the consumer gets work already done.
/// Call `stop()` when done: the producer thread holds the pipeline until then.
// Shared with its producer thread: the queue and flags are guarded by `condition`; the rest is immutable.
public final class InputPipeline<Prepared>: @unchecked Sendable {
    public let set: ShardSet
    public let batchSize: Int
    public let seed: UInt64
    public let options: AugmentationOptions
    public let workers: Int
    public let prefetch: Int
    /// Screens of another size are letterboxed to this size (top-left, padded) before augmentation.
    public let inputSize: Size?
    /// The first batch of the stream produced (a resumed run starts where it stopped).
    public let startBatch: Int
    /// This process's slice of every batch in a data-parallel run: `index` of `count` equal
    /// slices of the `batchSize` screens, with the augmentation each would get in one process.
    public let slice: (index: Int, count: Int)
    /// Per screen of the set, its repeat factor r = max(1, sqrt(t / f)) (1 without repeat-factor sampling).
    public let repeatFactors: [Double]
    /// Classes rare enough for copy-paste, and the instances (screen, box row) of them.
    public let rareClasses: Set<Int32>
    private let rareInstances: [(screen: Int, row: Int)]
    /// Copy-paste's instances, kept once cut: a pasted instance otherwise costs reading and
    /// decompressing its whole donor screen, more than the rest of a sample's work together.
    /// Rare classes have few instances.
    private let patches = ImageCache(budget: 512 << 20)
    /// Decoded screens, kept from the first epoch on up to `cacheBytes`: reading and inflating a
    /// screen is a third of a sample's work, on a thread that shares the cores with training.
    private let screens: ImageCache

    private let prepare: @Sendable (Batch) throws -> Prepared
    private var queue: [Result<Prepared, Error>] = []
    private let condition = NSCondition()
    private var producer: Thread?
    private var stopped = false
    private var producerFinished = false
    /// The producer holds a prepared batch and waits for room in the queue: no batch is in the making.
    private var producerIdle = false

    /// `cacheBytes`: decoded screens kept in memory, at most this many bytes (0: none); the stream is the same either way.
    public init(set: ShardSet, batchSize: Int, seed: UInt64, options: AugmentationOptions, workers: Int = 1, prefetch: Int = 4, shuffle: Bool = true,
                inputSize: Size? = nil, startBatch: Int = 0, slice: (index: Int, count: Int) = (0, 1), cacheBytes: Int = 0,
                prepare: @escaping @Sendable (Batch) throws -> Prepared) {
        precondition(batchSize >= 1 && workers >= 1 && prefetch >= 1 && startBatch >= 0)
        precondition(slice.count >= 1 && slice.index >= 0 && slice.index < slice.count && batchSize % slice.count == 0, "a batch splits into equal slices")
        self.slice = slice
        screens = ImageCache(budget: max(0, cacheBytes))
        self.prepare = prepare
        self.inputSize = inputSize
        self.startBatch = startBatch
        self.set = set
        self.batchSize = batchSize
        self.seed = seed
        self.options = options
        self.workers = workers
        self.prefetch = prefetch
        self.shuffle = shuffle
        let (factors, rare) = Self.repeatFactors(set, threshold: options.repeatFactorThreshold)
        repeatFactors = factors
        rareClasses = rare
        var instances: [(Int, Int)] = []
        if options.copyPaste && !rare.isEmpty {
            for i in 0..<set.count {
                let (k, local) = set.locate(i)
                let r = set.readers[k]
                for row in r.boxRange(local) where rare.contains(r.labels[row]) { instances.append((i, row)) }
            }
        }
        rareInstances = instances
    }

    private let shuffle: Bool


    /// LVIS repeat factors: f_c = fraction of screens holding class c; a screen's factor is the
    /// largest max(1, sqrt(t / f_c)) over its classes. Classes with f_c < t are the rare ones.
    static func repeatFactors(_ set: ShardSet, threshold: Double?) -> ([Double], Set<Int32>) {
        guard let t = threshold, set.count > 0 else { return ([Double](repeating: 1, count: set.count), []) }
        var classesOf: [Set<Int32>] = []
        var screensWith = [Int](repeating: 0, count: set.classNames.count)
        for r in set.readers {
            for i in 0..<r.count {
                let c = Set(r.labels[r.boxRange(i)])
                classesOf.append(c)
                for k in c { screensWith[Int(k)] += 1 }
            }
        }
        let n = Double(set.count)
        let classFactor = screensWith.map { $0 > 0 ? max(1, (t / (Double($0) / n)).squareRoot()) : 1 }
        let rare = Set(screensWith.indices.filter { screensWith[$0] > 0 && Double(screensWith[$0]) / n < t }.map { Int32($0) })
        return (classesOf.map { c in c.map { classFactor[Int($0)] }.max() ?? 1 }, rare)
    }

    /// The screens epoch `epoch` visits, in order.
    public func epochOrder(_ epoch: Int) -> [Int] {
        var g = SeededGenerator(seed: seed ^ 0xE90C, index: UInt64(epoch))
        var order: [Int] = []
        for (i, r) in repeatFactors.enumerated() {
            let whole = Int(r.rounded(.down))
            let extra = g.nextUnitDouble() < r - Double(whole) ? 1 : 0
            order += [Int](repeating: i, count: whole + extra)
        }
        if shuffle { for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(g.next() % UInt64(i + 1))) } }
        return order
    }

    /// The next prepared batch, waiting for the producer if needed. Batches run on across epochs without end.
    public func next() throws -> Prepared {
        startIfNeeded()
        condition.lock()
        while queue.isEmpty { condition.wait() }
        let item = queue.removeFirst()
        producerIdle = false  // there is room now: the producer has work until it waits again
        condition.broadcast()  // the producer, and not only one of the threads waiting on `condition`
        condition.unlock()
        return try item.get()
    }

    /// Waits until the producer has `prefetch` batches ready and the next one prepared, waiting for
    /// room (or has stopped), so that whatever runs next shares the cores with no batch in the making.
    public func waitUntilPrefetched() {
        startIfNeeded()
        condition.lock()
        while !producerIdle && !producerFinished && !stopped { condition.wait() }
        condition.unlock()
    }

    /// Stops the producer thread and waits until it has finished the batch it was preparing.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while producer != nil && !producerFinished { condition.wait() }
        condition.unlock()
    }

    private func startIfNeeded() {
        guard producer == nil else { return }
        // The thread keeps the pipeline alive until stop(): call stop() when done with it.
        let thread = Thread { self.produce() }
        thread.name = "uidetect.input-pipeline"
        producer = thread
        thread.start()
    }

    private func produce() {
        defer {
            condition.lock()
            producerFinished = true
            condition.broadcast()
            condition.unlock()
        }
        var epoch = 0
        var order = epochOrder(0)
        var position = 0
        var sampleIndex = 0
        var batchIndex = 0
        // Skip to startBatch: every batch takes batchSize picks, across epoch boundaries.
        if startBatch > 0 && !order.isEmpty {
            var skip = startBatch * batchSize
            while skip > 0 {
                if position == order.count { epoch += 1; order = epochOrder(epoch); position = 0 }
                let take = min(skip, order.count - position)
                position += take; skip -= take
            }
            sampleIndex = startBatch * batchSize
            batchIndex = startBatch
        }
        while true {
            condition.lock()
            let halt = stopped
            condition.unlock()
            if halt { return }
            var picks: [Int] = []
            while picks.count < batchSize {
                if position == order.count {
                    epoch += 1; order = epochOrder(epoch); position = 0
                    if order.isEmpty { break }
                }
                picks.append(order[position]); position += 1
            }
            let per = batchSize / slice.count, first = min(picks.count, slice.index * per)
            let mine = Array(picks[first..<min(picks.count, first + per)])
            let result = Result { try prepare(try makeBatch(mine, firstSample: sampleIndex + first, index: batchIndex)) }
            sampleIndex += picks.count
            batchIndex += 1
            condition.lock()
            while queue.count >= prefetch && !stopped {
                producerIdle = true
                condition.broadcast()
                condition.wait()
            }
            producerIdle = false
            if stopped { condition.unlock(); return }
            queue.append(result)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Prepares the screens `picks` (samples firstSample...) on the workers and packs them.
    func makeBatch(_ picks: [Int], firstSample: Int, index: Int) throws -> Batch {
        let samples = parallelMap(count: picks.count, workers: workers) { _, k in Result { try self.sample(picks[k], stream: firstSample + k) } }
        let prepared = try samples.map { try $0.get() }
        return Batch(size: prepared[0].image.size, images: prepared.map(\.image), boxes: prepared.map(\.boxes), labels: prepared.map(\.labels),
                     imageIDs: prepared.map(\.imageID), index: index)
    }

    /// Screen `screen` as sample `stream` of the stream: read and augmented.
    public func sample(_ screen: Int, stream: Int) throws -> Sample {
        var g = SeededGenerator(seed: seed, index: UInt64(stream))
        let record = try set.record(at: screen, withImage: false)
        let (shard, local) = set.locate(screen)
        let image = try screens.image(screen) { try set.readers[shard].image(at: local) }
        var s = Sample(image: image, boxes: record.boxes, labels: record.labels, imageID: record.imageID)
        if let size = inputSize, size != image.size { Augment.letterbox(&s, to: size) }
        if options.copyPaste && !rareInstances.isEmpty {
            for _ in 0..<g.int(0...options.copyPasteMaxPerImage) {
                let instance = Int(g.next() % UInt64(rareInstances.count))
                let (source, row) = rareInstances[instance]
                guard source != screen else { continue }
                let (k, _) = set.locate(source)
                let patch = try patches.image(instance) { try rarePatch(source: source, row: row) }
                Augment.paste(patch, label: set.readers[k].labels[row], into: &s, g: &g)
            }
        }
        if options.scaleCrop { Augment.scaleCrop(&s, scale: g.uniform(options.scaleMin...options.scaleMax), minVisible: options.minVisibleFraction, g: &g) }
        if options.horizontalFlip && g.chance(0.5) { Augment.flipHorizontally(&s) }
        if options.photometric { Augment.photometric(&s, options, g: &g) }
        return s
    }

    /// The pixels of box `row` of screen `source`, at the scale its screen has in the input.
    private func rarePatch(source: Int, row: Int) throws -> RGBImage {
        let (k, local) = set.locate(source)
        let b = set.readers[k].boxes[row]
        let donor = try set.readers[k].image(at: local)
        let patch = donor.cropped(x0: Int(b.xMin.rounded(.down)), y0: Int(b.yMin.rounded(.down)), x1: Int(b.xMax.rounded(.up)), y1: Int(b.yMax.rounded(.up)))
        // The donor screen is stored at its own size: bring the instance to the scale its screen has in the input.
        guard let size = inputSize, size != donor.size else { return patch }
        let scale = Letterbox(original: donor.size, target: size).scale
        return patch.resized(to: Size(width: max(1, Int((Float(patch.width) * scale).rounded())),
                                      height: max(1, Int((Float(patch.height) * scale).rounded()))))
    }
}

/// Images kept by index once made, up to a byte budget (the first ones made stay; the rest
/// are made again each time). Shared by the pipeline's workers.
final class ImageCache: @unchecked Sendable {
    private var images: [Int: RGBImage] = [:]
    private var bytes = 0
    private let budget: Int
    private let lock = NSLock()

    init(budget: Int) { self.budget = budget }

    /// Image `index`, made by `make` the first time (and kept while the budget lasts).
    func image(_ index: Int, make: () throws -> RGBImage) throws -> RGBImage {
        guard budget > 0 else { return try make() }
        if let kept = lock.withLock({ images[index] }) { return kept }
        let made = try make()
        lock.withLock {
            if bytes + made.pixels.count <= budget, images[index] == nil {
                images[index] = made
                bytes += made.pixels.count
            }
        }
        return made
    }
}

extension InputPipeline where Prepared == Batch {
    /// A pipeline that hands out the batches as they are.
    public convenience init(set: ShardSet, batchSize: Int, seed: UInt64, options: AugmentationOptions, workers: Int = 1, prefetch: Int = 4,
                            shuffle: Bool = true, inputSize: Size? = nil, startBatch: Int = 0, cacheBytes: Int = 0) {
        self.init(set: set, batchSize: batchSize, seed: seed, options: options, workers: workers, prefetch: prefetch, shuffle: shuffle,
                  inputSize: inputSize, startBatch: startBatch, cacheBytes: cacheBytes, prepare: { $0 })
    }
}
