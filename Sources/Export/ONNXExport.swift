import Boxes
import Detection
import Engine
import Foundation
import Layers
import Protobuf

/// The detector as an ONNX model (opset 13), written with our own protobuf encoder.
///
/// Input `images`: float32 (N, 3, H, W), RGB letterboxed top-left into the model's input and
/// scaled by x / 127.5 - 1 (`preprocessing` in the metadata gives the arithmetic). Batch norm
/// runs in inference mode. What follows the network is `outputs`:
/// - `.raw`: `class_logits` (N, anchors, K) raw logits, `box_deltas` (N, anchors, 4) encoded
///   deltas (dx, dy, dw, dh scaled by the box coder's weights 10, 10, 5, 5), and `anchors`
///   (anchors, 4) as x_min, y_min, x_max, y_max in input pixels; anchors are ordered level, row,
///   column, anchor index, as `SSDModel.outputs`.
/// - `.detections`: N = 1 image; `boxes` (D, 4) x_min, y_min, x_max, y_max in input pixels,
///   `scores` (D) and `classes` (D, int64), best score first, D <= max detections: what
///   `SSDDetector.detect` returns for the image.
/// - `.deployment`: the same, then `DeploymentFilter.apply`.
public struct ONNXExporter {
    /// What the graph ends with.
    public enum Outputs: Sendable {
        /// `class_logits`, `box_deltas`, `anchors`, for a batch of any size.
        case raw
        /// `boxes`, `scores`, `classes` after `SSDDetector`'s post-processing, for one image.
        case detections
        /// The same, then the deployment filter: its per-class thresholds and the similar-class suppression.
        case deployment(DeploymentFilter)
    }

    public let model: SSDModel
    public let classNames: [String]
    /// The post-processing: in the graph for `.detections` and `.deployment`, in the metadata always.
    public let postProcessing: PostProcessing
    public let outputs: Outputs
    /// Extra `metadata_props` (e.g. the picked thresholds).
    public var metadata: [String: String]

    /// The filter's suppression IoU must not be below `postProcessing.nmsIoU` (see `Graph.deploymentFilter`).
    public init(model: SSDModel, classNames: [String], postProcessing: PostProcessing = PostProcessing(), outputs: Outputs = .raw,
                metadata: [String: String] = [:]) {
        if case .deployment(let filter) = outputs {
            precondition(postProcessing.nmsIoU <= filter.suppressionIoU, "similar-class suppression at IoU \(filter.suppressionIoU) below the NMS IoU \(postProcessing.nmsIoU)")
        }
        self.model = model
        self.classNames = classNames
        self.postProcessing = postProcessing
        self.outputs = outputs
        self.metadata = metadata
    }

    public static let opset = 13

    /// The serialized ModelProto: the model's own description run on an ONNX graph builder,
    /// then, for `.detections` and `.deployment`, the post-processing.
    public func encode() -> Data {
        let c = model.config
        var graph = Graph(weightNames: Dictionary(model.namedState().map { (ObjectIdentifier($0.tensor), $0.name) }) { first, _ in first })
        let (logits, deltas) = model.run(&graph, images: "images")
        let anchors = AnchorGenerator(config: c).anchors()
        let anchorValues = graph.floatConstant(anchors.flatMap { [$0.xMin, $0.yMin, $0.xMax, $0.yMax] }, dims: [anchors.count, 4], name: "anchors.values")

        let batch: ValueInfo.Dimension
        var outputInfos: [ValueInfo]
        switch outputs {
        case .raw:
            batch = .named("batch")
            outputInfos = [ValueInfo(name: logits, type: .float, dims: [batch, .fixed(anchors.count), .fixed(c.numClasses)]),
                           ValueInfo(name: deltas, type: .float, dims: [batch, .fixed(anchors.count), .fixed(4)]),
                           ValueInfo(name: graph.node("Identity", [anchorValues], name: "anchors"), type: .float, dims: [.fixed(anchors.count), .fixed(4)])]
        case .detections, .deployment:
            batch = .fixed(1)
            var found = graph.postProcess(classLogits: logits, boxDeltas: deltas, anchors: anchorValues, config: c, settings: postProcessing)
            if case .deployment(let filter) = outputs {
                found = graph.deploymentFilter(found, filter, classNames: classNames, nmsIoU: postProcessing.nmsIoU, maxDetections: postProcessing.maxDetections)
            }
            let count = ValueInfo.Dimension.named("detections")
            outputInfos = [ValueInfo(name: graph.node("Identity", [found.boxes], name: "boxes"), type: .float, dims: [count, .fixed(4)]),
                           ValueInfo(name: graph.node("Identity", [found.scores], name: "scores"), type: .float, dims: [count]),
                           ValueInfo(name: graph.node("Identity", [found.classes], name: "classes"), type: .int64, dims: [count])]
        }

        var w = ProtobufWriter()
        w.int(1, 7)  // ir_version 7: what opset 13 came with
        w.string(2, "uidetect")
        w.string(3, "1")
        w.message(7) { g in
            graph.write(into: &g, inputs: [ValueInfo(name: "images", type: .float, dims: [batch, .fixed(3), .fixed(c.inputHeight), .fixed(c.inputWidth)])],
                        outputs: outputInfos)
        }
        w.message(8) { o in
            o.string(1, "")
            o.int(2, Self.opset)
        }
        for (key, value) in allMetadata().sorted(by: { $0.key < $1.key }) {
            w.message(14) { m in
                m.string(1, key)
                m.string(2, value)
            }
        }
        return Data(w.bytes)
    }

    /// What a reader needs to prepare the input and read the outputs.
    public func allMetadata() -> [String: String] {
        let c = model.config
        func json<T: Encodable>(_ v: T) -> String {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            return String(decoding: try! e.encode(v), as: UTF8.self)
        }
        let coder = BoxCoder()
        let (wx, wy, ww, wh) = coder.weights
        func number(_ v: Float) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        var m = metadata
        m["class_names"] = json(classNames)
        m["input_width"] = String(c.inputWidth)
        m["input_height"] = String(c.inputHeight)
        m["input_layout"] = "NCHW float32 RGB"
        m["input_normalisation"] = ModelInput.summary
        m["preprocessing"] = Self.preprocessing(input: c.inputSize)
        m["box_coder_weights"] = "[\(number(wx)), \(number(wy)), \(number(ww)), \(number(wh))]"
        m["box_coder"] = "deltas (dx, dy, dw, dh) per anchor (centre ax, ay, size aw, ah): cx = ax + dx / \(number(wx)) * aw, cy = ay + dy / \(number(wy)) * ah, "
            + "w = aw * exp(min(dw / \(number(ww)), log(1000 / 16))), h = ah * exp(min(dh / \(number(wh)), log(1000 / 16)))"
        m["anchor_order"] = "level \(c.minLevel)-\(c.maxLevel), then row, column, anchor index (scales outer, aspect ratios inner)"
        m["scores"] = postProcessing.summary
        m["post_processing"] = json(postProcessing)
        m["ssd_config"] = json(c)
        switch outputs {
        case .raw:
            m["outputs"] = "class_logits (N, anchors, K) float32 raw logits; box_deltas (N, anchors, 4) float32 (dx, dy, dw, dh), see box_coder; "
                + "anchors (anchors, 4) float32 x_min, y_min, x_max, y_max in input pixels, in anchor_order; post-processing (scores) and deployment_filter "
                + "not in the graph"
        case .detections, .deployment:
            m["outputs"] = "one image (batch 1); boxes (D, 4) float32 x_min, y_min, x_max, y_max in input pixels, clipped to the input; scores (D) float32; "
                + "classes (D) int64 indices into class_names; row i of each is one detection, best score first (equal scores: lower class first, then lower "
                + "anchor index), D <= \(postProcessing.maxDetections), possibly 0; the post-processing (scores) "
                + "is in the graph"
        }
        var filter = DeploymentFilter(), inGraph = false
        if case .deployment(let f) = outputs {
            (filter, inGraph) = (f, true)
            m["thresholds"] = json(f.thresholds)
        }
        let groups = filter.similarGroups.map { "[" + $0.sorted().joined(separator: ", ") + "]" }.joined(separator: ", ")
        m["deployment_filter"] = "after the post-processing, in input pixels: keep a detection when its score >= its class's entry in thresholds (a class "
            + "without one keeps all); then, best score first, drop a detection when a kept detection of another class of the same group (\(groups)) "
            + "overlaps it at IoU > \(filter.suppressionIoU); " + (inGraph ? "in the graph" : "not in the graph: apply it to the outputs")
        return m
    }

    /// How a screenshot becomes `images`, step by step, with the arithmetic of `RGBImage.letterboxed`
    /// and `ModelInput` (a numpy version of this text gives the same bytes; ExportTests checks it),
    /// and how boxes return to the screenshot (`SSDDetector.mapBack`).
    public static func preprocessing(input: Size) -> String {
        let (w, h) = (input.width, input.height)
        return """
            1. The screenshot as 8-bit RGB, W x H pixels (alpha dropped). \
            2. Scale s = min(f(\(w)) / f(W), f(\(h)) / f(H)) and size w' = max(1, min(\(w), round(f(W) * s))), h' = max(1, min(\(h), round(f(H) * s))), \
            where f(.) is float32, every operation is rounded to float32, round is half away from zero. \
            3. Resize to w' x h' (nothing when w' x h' = W x H): while the image is at least 2w' wide and 2h' high, halve it to floor(width / 2) x \
            floor(height / 2) (an odd last row or column is dropped), each byte (a + b + c + d + 2) // 4 of its 2x2 block in integers; then bilinear \
            from the Wc x Hc image so far, in float32 with no fused multiply-add: sx = f(Wc) / f(w'); for output column x, fx = max(0, (x + 0.5) * sx - 0.5), \
            x0 = min(floor(fx), Wc - 1), x1 = min(x0 + 1, Wc - 1), wx = fx - x0; rows alike (sy = f(Hc) / f(h'), fy, y0, y1, wy); per channel \
            top = p[y0][x0] * (1 - wx) + p[y0][x1] * wx, bottom = p[y1][x0] * (1 - wx) + p[y1][x1] * wx, v = top * (1 - wy) + bottom * wy \
            (each product, then the sum, rounded to float32); the byte is min(255, max(0, round(v))). \
            4. Paste it at the top-left of a black \(w) x \(h) image. \
            5. Each byte b becomes b * f(1 / 127.5) - 1 in float32 (f(1 / 127.5) = f(1) / f(127.5)). \
            6. Layout NCHW: (1, 3, \(h), \(w)), channels R, G, B. \
            Boxes in input pixels return to the screenshot as x * f(1 / s) (float32), clipped to 0...W and 0...H; a box left with no width or height is dropped.
            """
    }

    /// Writes the model atomically.
    public func write(to url: URL) throws {
        try encode().write(to: url, options: .atomic)
    }
}
