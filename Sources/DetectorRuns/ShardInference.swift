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
    /// Detections of the screens `indices` of `set`, in batches of `batchSize`; `progress` gets
    /// (screens done, screens in all) after each batch, and `observe`, if given, each batch's raw
    /// outputs with its ground truth in input pixels (validation computes its loss from them).
    public static func detections(_ detector: SSDDetector, set: ShardSet, indices: [Int], batchSize: Int,
                                  progress: (Int, Int) -> Void = { _, _ in },
                                  observe: ((_ logits: Tensor, _ deltas: Tensor, _ targets: [ImageTargets]) -> Void)? = nil) throws -> [ScoredDetection] {
        var out: [ScoredDetection] = []
        var done = 0
        let size = detector.model.config.inputSize
        for start in stride(from: 0, to: indices.count, by: batchSize) {
            let chunk = indices[start..<min(indices.count, start + batchSize)]
            var records: [ScreenRecord] = [], images: [RGBImage] = []
            for i in chunk {
                let record = try set.record(at: i)
                guard let image = record.image else { throw ShardError.missing(path: set.readers[set.locate(i).shard].url.path, name: "dataset images") }
                records.append(record); images.append(image)
            }
            let batch = ModelInput.batch(images, size: size)
            let (logits, deltas) = detector.outputs(images: batch.images)
            let found = SSDDetector.mapBack(detector.detect(logits: logits, deltas: deltas), batch.letterboxes)
            for (record, boxes) in zip(records, found) {
                out += boxes.map { ScoredDetection(imageID: record.imageID, label: $0.label, score: Double($0.score), box: $0.box) }
            }
            if let observe {
                let targets: [ImageTargets] = zip(records, batch.letterboxes).map { record, letterbox in
                    let kept = zip(record.boxes, record.labels).compactMap { b, l -> (Box, Int32)? in
                        let moved = letterbox.forward(b).clipped(to: size)
                        return moved.isValid ? (moved, l) : nil
                    }
                    return (boxes: kept.map(\.0), labels: kept.map(\.1))
                }
                observe(logits, deltas, targets)
            }
            done += chunk.count
            progress(done, indices.count)
        }
        return out
    }
}
