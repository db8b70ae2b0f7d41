import Boxes
import Engine
import Foundation
import Shards
import Synthesis
import Training

/// What `uidetect bench data` measures: screens per second the input pipeline delivers.
public struct DataBenchmarkReport: Codable {
    /// What it was measured on (CPU model and family, vector registers, OpenBLAS kernels, threads).
    public var machine = Machine.current()
    public var workers: Int
    public var batchSize: Int
    public var screens: Int
    public var size: String
    /// All augmentations on (photometric, scale-crop, copy-paste, repeat-factor sampling).
    public var augmentedScreensPerSecond: Double
    /// Reading and batching alone, the reference measured in the same run.
    public var readOnlyScreensPerSecond: Double
    /// All augmentations with the decoded screens kept in memory (`data.cache_mb`'s default), after
    /// one epoch has filled the cache: what a run's later epochs get. As many screens as fit are kept.
    public var fromMemoryScreensPerSecond: Double
    public var runs: Int

    enum CodingKeys: String, CodingKey {
        case machine
        case workers, screens, size, runs
        case batchSize = "batch_size"
        case augmentedScreensPerSecond = "screens_per_second"
        case readOnlyScreensPerSecond = "read_only_screens_per_second"
        case fromMemoryScreensPerSecond = "from_memory_screens_per_second"
    }
}

public struct DataBenchmark {
    public var shards: [String]?
    public var workers: Int
    public var batchSize: Int
    public var batches: Int
    public var runs: Int

    public init(shards: [String]?, workers: Int = 1, batchSize: Int = 8, batches: Int = 30, runs: Int = 3) {
        self.shards = shards
        self.workers = workers
        self.batchSize = batchSize
        self.batches = batches
        self.runs = runs
    }

    /// Times the pipeline; without shards, first synthesizes 400 default screens into a temporary folder.
    public func run(progress: (String) -> Void = { _ in }) throws -> DataBenchmarkReport {
        var specs = shards ?? []
        var temporary: URL? = nil
        if specs.isEmpty {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-bench-data-\(getpid())")
            temporary = dir
            progress("synthesizing 400 screens")
            let synth = try ScreenSynthesizer(seed: 1, appCount: 40)
            let writer = try ShardWriter(url: dir.appendingPathComponent("bench.h5"), classNames: defaultClassNames, imageSize: synth.size)
            for i in 0..<400 { try writer.append(synth.screen(index: i)) }
            try writer.finish()
            specs = [dir.path]
        }
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let set = try ShardSet(specs)
        func timed(_ pipeline: InputPipeline<Batch>) throws -> Double {
            let start = monotonicSeconds()
            for _ in 0..<batches { _ = try pipeline.next() }
            return Double(batches * batchSize) / (monotonicSeconds() - start)
        }
        func rate(_ options: AugmentationOptions, seed: UInt64) throws -> Double {
            let pipeline = InputPipeline(set: set, batchSize: batchSize, seed: seed, options: options, workers: workers, prefetch: 2)
            defer { pipeline.stop() }
            for _ in 0..<2 { _ = try pipeline.next() }  // warm-up: the producer thread starts and fills its queue
            return try timed(pipeline)
        }
        var augmented: [Double] = [], plain: [Double] = [], fromMemory: [Double] = []
        for r in 0..<runs {
            progress("run \(r + 1)/\(runs): reading only")
            plain.append(try rate(.none, seed: UInt64(r)))
            progress("run \(r + 1)/\(runs): all augmentations")
            augmented.append(try rate(AugmentationOptions(), seed: UInt64(r)))
        }
        progress("all augmentations, screens kept in memory: one epoch fills the cache")
        let cached = InputPipeline(set: set, batchSize: batchSize, seed: 0, options: AugmentationOptions(), workers: workers, prefetch: 2,
                                   cacheBytes: TrainingSetup.screenCacheBytes(requested: DataConfig().cacheMB, activationBytes: 0))
        defer { cached.stop() }
        for _ in 0..<((cached.epochOrder(0).count + batchSize - 1) / batchSize + 2) { _ = try cached.next() }
        for r in 0..<runs {
            progress("run \(r + 1)/\(runs): all augmentations, screens kept in memory")
            fromMemory.append(try timed(cached))
        }
        return DataBenchmarkReport(workers: workers, batchSize: batchSize, screens: set.count,
                                   size: set.readers[0].imageSize.map { "\($0)" } ?? "-",
                                   augmentedScreensPerSecond: median(augmented), readOnlyScreensPerSecond: median(plain),
                                   fromMemoryScreensPerSecond: median(fromMemory), runs: runs)
    }
}
