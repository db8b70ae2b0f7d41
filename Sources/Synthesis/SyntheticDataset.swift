import Boxes
import Foundation
import Shards
import Workers

/// A data set of synthetic screens written as shards `synth-00000.h5`, `synth-00001.h5`, ...
/// Screen `i` depends only on (seed, i), so the same settings give the same bytes whatever
/// the number of workers.
public struct SyntheticDataset: Sendable {
    public var count: Int
    public var size: Size
    public var seed: UInt64
    /// Distinct apps (group ids); screens are spread over them.
    public var appCount: Int
    public var shardSize: Int

    public init(count: Int, size: Size, seed: UInt64, appCount: Int? = nil, shardSize: Int = 1000) {
        self.count = count
        self.size = size
        self.seed = seed
        self.appCount = appCount ?? max(1, (count + 11) / 12)
        self.shardSize = shardSize
    }

    /// Renders every screen (in parallel over `workers`, in batches that bound memory) into
    /// shards in `folder`; `progress` gets the number of screens written so far.
    @discardableResult
    public func write(to folder: URL, workers: Int, progress: (Int) -> Void = { _ in }) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let workers = max(1, workers)
        // One synthesizer per worker: each holds its own fonts and scratch state.
        let synthesizers = try (0..<workers).map { _ in try ScreenSynthesizer(size: size, seed: seed, appCount: appCount) }
        var urls: [URL] = []
        var done = 0
        for (shardIndex, first) in stride(from: 0, to: count, by: shardSize).enumerated() {
            let url = folder.appendingPathComponent(String(format: "synth-%05d.h5", shardIndex))
            let writer = try ShardWriter(url: url, classNames: defaultClassNames, imageSize: size)
            let end = min(count, first + shardSize)
            for batchStart in stride(from: first, to: end, by: 64) {
                let batch = Array(batchStart..<min(end, batchStart + 64))
                let records = parallelMap(count: batch.count, workers: workers) { w, k in synthesizers[w].screen(index: batch[k]) }
                for r in records { try writer.append(r) }
                done += batch.count
                progress(done)
            }
            try writer.finish()
            urls.append(url)
        }
        return urls
    }
}
