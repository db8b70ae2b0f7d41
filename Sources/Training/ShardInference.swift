import Boxes
import Detection
import Engine
import Evaluation
import Foundation
import Images
import Shards

/// A detection as the evaluator takes it (image id, class, score, box in stored pixels).
public typealias ScoredDetection = Evaluation.Detection

/// Runs a detector over the screens of shards: each screen letterboxed into the model's
/// input, detected, and its boxes mapped back to the stored pixels.
public enum ShardInference {
    /// Detections of the screens `indices` of `set`, in batches of `batchSize`;
    /// `progress` gets (screens done, screens in all) after each batch.
    public static func detections(_ detector: SSDDetector, set: ShardSet, indices: [Int], batchSize: Int,
                                  progress: (Int, Int) -> Void = { _, _ in }) throws -> [ScoredDetection] {
        var out: [ScoredDetection] = []
        var done = 0
        for start in stride(from: 0, to: indices.count, by: batchSize) {
            let chunk = indices[start..<min(indices.count, start + batchSize)]
            var images: [RGBImage] = [], ids: [String] = []
            for i in chunk {
                let record = try set.record(at: i)
                guard let image = record.image else { throw ShardError.missing(path: set.readers[set.locate(i).shard].url.path, name: "dataset images") }
                images.append(image); ids.append(record.imageID)
            }
            for (k, found) in detector.detect(screens: images).enumerated() {
                out += found.map { ScoredDetection(imageID: ids[k], label: $0.label, score: Double($0.score), box: $0.box) }
            }
            done += chunk.count
            progress(done, indices.count)
        }
        return out
    }
}
