import Algorithms
import Boxes
import Engine
import Foundation
import Images
import Layers

/// One detection, in the pixels of the image it was found on.
public struct DetectedBox: Equatable, Sendable {
    public var box: Box
    public var label: Int
    public var score: Float
    public init(box: Box, label: Int, score: Float) {
        self.box = box
        self.label = label
        self.score = score
    }
}

/// The post-processing of ssd-model.md; every default is the spec's, here and nowhere else.
public struct PostProcessing: Codable, Equatable, Sendable {
    /// Candidates need a score above this.
    public var scoreFloor: Float = 0.05
    /// At most this many candidate (anchor, class) pairs per level, the best.
    public var candidatesPerLevel = 1000
    /// Per-class non-maximum suppression at this IoU.
    public var nmsIoU = 0.5
    /// The best this many detections per image.
    public var maxDetections = 100

    public init() {}

    enum CodingKeys: String, CodingKey {
        case scoreFloor = "score_floor", candidatesPerLevel = "candidates_per_level", nmsIoU = "nms_iou", maxDetections = "max_detections"
    }

    /// The logit whose sigmoid is `scoreFloor`: the floor tested before any sigmoid is taken.
    public var floorLogit: Float { logf(scoreFloor / (1 - scoreFloor)) }

    /// The steps in words, for files other programs read (ONNX metadata).
    public var summary: String {
        "sigmoid of class_logits; post-processing: score > \(scoreFloor), \(candidatesPerLevel) best per level, "
            + "per-class NMS at IoU \(nmsIoU), best \(maxDetections)"
    }
}

/// How a screenshot becomes the model's input: RGB letterboxed top-left into the input size
/// (aspect kept, black padding), then x / 127.5 - 1, NHWC.
public enum ModelInput {
    /// The rule in words, for files other programs read.
    public static let summary = "RGB, letterboxed top-left into input_width x input_height (aspect kept, black padding), scaled by x / 127.5 - 1"

    /// Screenshots of any size letterboxed into `size`, as the network takes them, with each one's letterbox.
    public static func batch(_ screens: [RGBImage], size: Size) -> (images: Tensor, letterboxes: [Letterbox]) {
        let fitted = screens.map { $0.letterboxed(into: size) }
        return (tensor(fitted.map(\.image)), fitted.map(\.letterbox))
    }

    /// Images of one size as the network takes them: NHWC floats in [-1, 1].
    public static func tensor(_ images: [RGBImage]) -> Tensor {
        guard let first = images.first else { return Tensor.zeros([0]) }
        let per = first.width * first.height * 3
        // Written in place: a batch is tens of megabytes, and the pipeline's thread shares the cores with training.
        return Tensor(shape: [images.count, first.height, first.width, 3]) { out in
            for (k, image) in images.enumerated() {
                precondition(image.size == first.size, "images of different sizes in one batch")
                image.pixels.withUnsafeBufferPointer { p in
                    let o = out.baseAddress! + k * per
                    for i in 0..<per { o[i] = Float(p[i]) * (1 / 127.5) - 1 }
                }
            }
        }
    }
}

/// A trained detector for inference: a snapshot of the model's weights (batch norm folded into
/// its convolutions when the detector is made: make a new one when the weights change), its anchors and the
/// post-processing. The one path from screenshots to detections (`detect(screens:)`) for
/// evaluation, prediction, descriptions and benchmarks.
public final class SSDDetector {
    public let model: SSDModel
    public let postProcessing: PostProcessing
    public let anchors: [Box]
    private let coder = BoxCoder()
    /// The anchors of each level, in output order.
    private let levels: [Range<Int>]
    /// The model with batch norm folded into its convolutions, made once: inference runs on it.
    private let folded: FoldedInterpreter

    public init(model: SSDModel, postProcessing: PostProcessing = PostProcessing()) {
        self.model = model
        self.postProcessing = postProcessing
        folded = FoldedInterpreter(model)
        anchors = AnchorGenerator(config: model.config).anchors()
        let c = model.config
        var ranges: [Range<Int>] = []
        var start = 0
        for l in c.minLevel...c.maxLevel {
            let count = (c.inputHeight >> l) * (c.inputWidth >> l) * c.anchorsPerLocation
            ranges.append(start..<(start + count))
            start += count
        }
        levels = ranges
    }

    /// The raw outputs for NHWC `images`, from the folded model (the same values as
    /// `model.outputs(images:mode: .inference)` up to rounding).
    public func outputs(images: Tensor) -> (classLogits: Tensor, boxDeltas: Tensor) {
        var interpreter = folded
        return model.run(&interpreter, images: images)
    }

    /// The wall time of each layer of one pass of `outputs(images:)`, in the order they ran.
    public func layerSeconds(images: Tensor) -> [(name: String, seconds: Double)] {
        var interpreter = TimingInterpreter(folded)
        _ = model.run(&interpreter, images: images)
        return interpreter.times
    }

    /// Detections for NHWC `images` of the input size, in input pixels (inference, nothing recorded).
    public func detect(images: Tensor) -> [[DetectedBox]] {
        let (logits, deltas) = outputs(images: images)
        return detect(logits: logits, deltas: deltas)
    }

    /// Detections from outputs the model already computed, in input pixels.
    public func detect(logits: Tensor, deltas: Tensor) -> [[DetectedBox]] {
        (0..<logits.shape[0]).map { postProcess(logits: logits, deltas: deltas, image: $0) }
    }

    /// Detections on screenshots of any size, in each one's own pixels: each is letterboxed into
    /// the model's input, detected, passed through `filter` (in input pixels), mapped back and clipped.
    public func detect(screens: [RGBImage], filter: ([DetectedBox]) -> [DetectedBox] = { $0 }) -> [[DetectedBox]] {
        let batch = ModelInput.batch(screens, size: model.config.inputSize)
        return Self.mapBack(detect(images: batch.images).map(filter), batch.letterboxes)
    }

    /// Detections in input pixels mapped back through each screen's letterbox and clipped to it.
    public static func mapBack(_ found: [[DetectedBox]], _ letterboxes: [Letterbox]) -> [[DetectedBox]] {
        zip(found, letterboxes).map { found, letterbox in
            found.compactMap { d in
                let box = letterbox.backward(d.box).clipped(to: letterbox.original)
                return box.isValid ? DetectedBox(box: box, label: d.label, score: d.score) : nil
            }
        }
    }

    /// Score floor, the best candidates per level, decoding, clipping, per-class NMS, the best per image.
    ///
    /// The floor is tested on the logits (sigmoid is monotone), so only candidates pay for a
    /// sigmoid. NMS walks every candidate once in the final order (score, then class, then
    /// level order), checking only the kept boxes of its class, and stops at `maxDetections`:
    /// the same boxes, in the same order, as per-class NMS followed by the best `maxDetections`.
    func postProcess(logits: Tensor, deltas: Tensor, image i: Int) -> [DetectedBox] {
        let a = anchors.count, k = model.config.numClasses, p = postProcessing
        let floorLogit = p.floorLogit
        let lp = logits.pointer, dp = deltas.pointer
        var candidates: [(anchor: Int32, label: Int32, score: Float)] = []
        var level: [(anchor: Int32, label: Int32, score: Float)] = []
        for range in levels {
            level.removeAll(keepingCapacity: true)
            let base = lp + (i * a + range.lowerBound) * k
            for e in 0..<(range.count * k) where base[e] > floorLogit {
                let score = stableSigmoid(base[e])
                // The sigmoid rounds: test the floor on the score itself too, as the spec states it.
                if score > p.scoreFloor { level.append((Int32(range.lowerBound + e / k), Int32(e % k), score)) }
            }
            // The level's best candidates in order, without sorting the rest (a bounded partial sort:
            // with a low floor a level has tens of thousands).
            candidates += level.min(count: p.candidatesPerLevel) {
                $0.score != $1.score ? $0.score > $1.score : ($0.anchor, $0.label) < ($1.anchor, $1.label)
            }
        }
        var boxes: [Box] = []
        boxes.reserveCapacity(candidates.count)
        var order: [Int] = []
        for (q, cand) in candidates.enumerated() {
            let d = dp + (i * a + Int(cand.anchor)) * 4
            boxes.append(coder.decode((d[0], d[1], d[2], d[3]), anchor: anchors[Int(cand.anchor)]).clipped(to: model.config.inputSize))
            if boxes[q].isValid { order.append(q) }
        }
        order.sort { x, y in
            let (cx, cy) = (candidates[x], candidates[y])
            return cx.score != cy.score ? cx.score > cy.score : (cx.label != cy.label ? cx.label < cy.label : x < y)
        }
        var keptByClass = [[Int]](repeating: [], count: k)
        var kept: [DetectedBox] = []
        for q in order {
            let label = Int(candidates[q].label)
            if keptByClass[label].contains(where: { boxes[$0].iou(boxes[q]) > p.nmsIoU }) { continue }
            keptByClass[label].append(q)
            kept.append(DetectedBox(box: boxes[q], label: label, score: candidates[q].score))
            if kept.count == p.maxDetections { break }
        }
        return kept
    }
}
