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
        let input = detector.model.config.inputSize
        var out: [ScoredDetection] = []
        var done = 0
        for start in stride(from: 0, to: indices.count, by: batchSize) {
            let chunk = indices[start..<min(indices.count, start + batchSize)]
            var images: [RGBImage] = [], boxes: [Letterbox] = [], ids: [String] = []
            for i in chunk {
                let record = try set.record(at: i)
                guard let image = record.image else { throw ShardError.missing(path: set.readers[set.locate(i).shard].url.path, name: "dataset images") }
                let (fitted, letterbox) = image.size == input ? (image, Letterbox(original: input, target: input)) : image.letterboxed(into: input)
                images.append(fitted); boxes.append(letterbox); ids.append(record.imageID)
            }
            let tensor = Tensor(shape: [images.count, input.height, input.width, 3], values: Batch.networkInput(images))
            for (k, found) in detector.detect(images: tensor).enumerated() {
                for d in found {
                    let box = boxes[k].backward(d.box).clipped(to: boxes[k].original)
                    guard box.isValid else { continue }
                    out.append(ScoredDetection(imageID: ids[k], label: d.label, score: Double(d.score), box: box))
                }
            }
            done += chunk.count
            progress(done, indices.count)
        }
        return out
    }

    /// Detections as the JSON of evaluation.md: `[{"image_id", "class", "score", "box"}]`, one per line.
    public static func json(_ detections: [ScoredDetection], classNames: [String]) -> Data {
        var text = "[\n"
        for (i, d) in detections.enumerated() {
            let name = classNames[d.label].replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            let id = d.imageID.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            text += "{\"image_id\": \"\(id)\", \"class\": \"\(name)\", \"score\": \(d.score), "
            text += "\"box\": [\(d.box.xMin), \(d.box.yMin), \(d.box.xMax), \(d.box.yMax)]}"
            text += i + 1 < detections.count ? ",\n" : "\n"
        }
        text += "]\n"
        return Data(text.utf8)
    }
}
