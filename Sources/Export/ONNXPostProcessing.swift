import Boxes
import Detection

/// One image's detections as graph values: `boxes` (N, 4) float x_min, y_min, x_max, y_max in
/// input pixels, `scores` (N) float, `classes` (N) int64; best score first.
struct DetectionValues {
    var boxes: String
    var scores: String
    var classes: String
}

/// ONNX element types for `Cast`'s `to`.
private enum CastTarget: Int { case float = 1, bool = 9 }

extension Graph {
    /// `SSDDetector`'s post-processing of one image's raw outputs (`classLogits` (1, anchors, K),
    /// `boxDeltas` (1, anchors, 4)), step for step, so that onnxruntime returns what `detect` returns:
    ///
    /// 1. scores = Sigmoid(logits); on each level TopK of its anchors x K (anchor, class) scores,
    ///    k = min(candidatesPerLevel, anchors x K), flat index anchor * K + class, so ties go to the
    ///    lower (anchor, class) as in `SSDDetector`; the levels' candidates concatenated, level by level.
    /// 2. The candidates' deltas decoded against their anchors as `BoxCoder.decode` does (same
    ///    float operations in the same order), clipped to the input; a box left without width or
    ///    height gets score 0.
    /// 3. NonMaxSuppression with the classes as its class dimension: scores (1, K, C), a candidate's
    ///    score in its own class's row and 0 elsewhere; score_threshold = the floor (onnxruntime keeps
    ///    score > threshold, as we do), iou_threshold = nmsIoU (suppressed when IoU > it, as we do),
    ///    ties to the lower candidate index (onnxruntime's CPU kernel), as ours.
    ///    max_output_boxes_per_class = maxDetections changes nothing: a class's detections among
    ///    the best maxDetections of the image are a prefix of its own NMS order, at most
    ///    maxDetections long, and greedy NMS keeps the same prefix whether it stops there or not.
    /// 4. TopK of the selected scores with k = min(selected, maxDetections): NMS lists classes in
    ///    order and each class best first, so ties go to the lower class, then NMS order, as ours.
    mutating func postProcess(classLogits: String, boxDeltas: String, anchors: String, config c: SSDConfig,
                              settings p: PostProcessing) -> DetectionValues {
        let k = c.numClasses
        let anchorCount = AnchorGenerator(config: c).count
        let scores = node("Sigmoid", [reshape(classLogits, [Int64(anchorCount), Int64(k)], name: "post.logits")], name: "post.scores")
        let deltas = reshape(boxDeltas, [Int64(anchorCount), 4], name: "post.deltas")

        // 1. The best candidates of each level.
        var levelScores: [String] = [], levelAnchors: [String] = [], levelClasses: [String] = []
        var start = 0
        for l in c.minLevel...c.maxLevel {
            let count = (c.inputHeight >> l) * (c.inputWidth >> l) * c.anchorsPerLocation
            let name = "post.P\(l)"
            let flat = reshape(slice(scores, axis: 0, start..<(start + count), name: name + ".scores"), [-1], name: name + ".flat")
            let kept = min(p.candidatesPerLevel, count * k)
            let (values, indices) = topK(flat, int64Constant([Int64(kept)], name: name + ".k"), name: name + ".top")
            let perAnchor = int64Constant([Int64(k)], dims: [], name: "post.classes_per_anchor")
            levelScores.append(values)
            levelAnchors.append(node("Add", [node("Div", [indices, perAnchor], name: name + ".local_anchor"),
                                             int64Constant([Int64(start)], dims: [], name: name + ".first_anchor")], name: name + ".anchor"))
            levelClasses.append(node("Mod", [indices, perAnchor], name: name + ".class"))
            start += count
        }
        let candScores = concat(levelScores, axis: 0, name: "post.candidate_scores")
        let candAnchors = concat(levelAnchors, axis: 0, name: "post.candidate_anchors")
        let candClasses = concat(levelClasses, axis: 0, name: "post.candidate_classes")

        // 2. Decoding and clipping, as BoxCoder.decode then Box.clipped(to:).
        let d = gather(deltas, candAnchors, axis: 0, name: "post.candidate_deltas")
        let a = gather(anchors, candAnchors, axis: 0, name: "post.candidate_anchor_boxes")
        let aMin = slice(a, axis: 1, 0..<2, name: "post.anchor_min"), aMax = slice(a, axis: 1, 2..<4, name: "post.anchor_max")
        let size = node("Sub", [aMax, aMin], name: "post.anchor_size")
        let two = floatConstant([2], dims: [], name: "post.two")
        let centre = node("Div", [node("Add", [aMin, aMax], name: "post.anchor_sum"), two], name: "post.anchor_centre")
        let (wx, wy, ww, wh) = BoxCoder().weights
        let shift = node("Mul", [node("Div", [slice(d, axis: 1, 0..<2, name: "post.dxy"), floatConstant([wx, wy], dims: [2], name: "post.weights_xy")],
                                      name: "post.dxy_scaled"), size], name: "post.shift")
        let boxCentre = node("Add", [centre, shift], name: "post.centre")
        let logScale = node("Min", [node("Div", [slice(d, axis: 1, 2..<4, name: "post.dwh"), floatConstant([ww, wh], dims: [2], name: "post.weights_wh")],
                                         name: "post.dwh_scaled"), floatConstant([BoxCoder.clamp], dims: [], name: "post.clamp")], name: "post.log_scale")
        let boxSize = node("Mul", [size, node("Exp", [logScale], name: "post.scale")], name: "post.size")
        let half = node("Div", [boxSize, two], name: "post.half_size")
        let zero = floatConstant([0], dims: [], name: "post.zero")
        let limit = floatConstant([Float(c.inputWidth), Float(c.inputHeight)], dims: [2], name: "post.input_size")
        func clipped(_ x: String, _ name: String) -> String {
            node("Min", [node("Max", [x, zero], name: name + ".at_least_0"), limit], name: name)
        }
        let lo = clipped(node("Sub", [boxCentre, half], name: "post.box_min"), "post.box_min_clipped")
        let hi = clipped(node("Add", [boxCentre, half], name: "post.box_max"), "post.box_max_clipped")
        let boxes = concat([lo, hi], axis: 1, name: "post.boxes")
        let valid = node("ReduceMin", [cast(node("Greater", [hi, lo], name: "post.positive_size"), .float, name: "post.positive_size_float")],
                         name: "post.valid", attributes: [.ints("axes", [1]), .int("keepdims", 0)])
        let live = node("Mul", [candScores, valid], name: "post.live_scores")

        // 3. Per-class NMS: each candidate scores in its own class's row only.
        let classRows = int64Constant((0..<Int64(k)).map { $0 }, dims: [k, 1], name: "post.class_ids")
        let own = cast(node("Equal", [unsqueeze(candClasses, axis: 0, name: "post.candidate_class_row"), classRows], name: "post.own_class"),
                       .float, name: "post.own_class_float")
        let selected = nonMaxSuppression(boxes: unsqueeze(boxes, axis: 0, name: "post.nms_boxes"),
                                         scores: unsqueeze(node("Mul", [own, live], name: "post.class_scores"), axis: 0, name: "post.nms_scores"),
                                         maxPerClass: p.maxDetections, iou: Float(p.nmsIoU), scoreThreshold: p.scoreFloor, name: "post.nms")
        let selClasses = gather(selected, int64Constant([1], dims: [], name: "post.column_class"), axis: 1, name: "post.selected_classes")
        let selCandidates = gather(selected, int64Constant([2], dims: [], name: "post.column_box"), axis: 1, name: "post.selected_candidates")
        let selScores = gather(live, selCandidates, axis: 0, name: "post.selected_scores")

        // 4. The best maxDetections.
        let (bestScores, order) = topK(selScores, atMost: p.maxDetections, name: "post.best")
        return DetectionValues(boxes: gather(boxes, gather(selCandidates, order, axis: 0, name: "post.best_candidates"), axis: 0, name: "post.best_boxes"),
                               scores: bestScores,
                               classes: gather(selClasses, order, axis: 0, name: "post.best_classes"))
    }

    /// `DeploymentFilter.apply` on detections that came out of per-class NMS at IoU `nmsIoU`:
    /// each class's threshold (score >= it; a class without one keeps everything), then the
    /// similar-class suppression as one NonMaxSuppression whose classes are the similar groups
    /// (a class in no group is a group of its own) at the filter's IoU. Same-class boxes never
    /// suppress each other there, as in the filter: after NMS at `nmsIoU` <= the filter's IoU no
    /// two of them overlap that much. The kept detections stay in their order.
    mutating func deploymentFilter(_ d: DetectionValues, _ filter: DeploymentFilter, classNames: [String], nmsIoU: Double,
                                   maxDetections: Int) -> DetectionValues {
        precondition(nmsIoU <= filter.suppressionIoU, "the suppression IoU must not be below the NMS IoU")
        let k = classNames.count
        let thresholds = floatConstant(classNames.map { filter.thresholds[$0] ?? -1 }, dims: [k], name: "deploy.thresholds")
        let passes = node("GreaterOrEqual", [d.scores, gather(thresholds, d.classes, axis: 0, name: "deploy.threshold")], name: "deploy.passes")
        let shown = DetectionValues(boxes: compress(d.boxes, passes, name: "deploy.shown_boxes"), scores: compress(d.scores, passes, name: "deploy.shown_scores"),
                                    classes: compress(d.classes, passes, name: "deploy.shown_classes"))

        let groups = filter.similarGroups.count
        let groupOf = classNames.enumerated().map { c, name in Int64(filter.similarGroups.firstIndex { $0.contains(name) } ?? groups + c) }
        let group = gather(int64Constant(groupOf, dims: [k], name: "deploy.group_of_class"), shown.classes, axis: 0, name: "deploy.group")
        let member = node("Equal", [unsqueeze(group, axis: 0, name: "deploy.group_row"),
                                    int64Constant((0..<Int64(groups + k)).map { $0 }, dims: [groups + k, 1], name: "deploy.group_ids")], name: "deploy.member")
        let groupScores = node("Where", [member, unsqueeze(shown.scores, axis: 0, name: "deploy.score_row"), floatConstant([-1], dims: [], name: "deploy.absent")],
                               name: "deploy.group_scores")
        let selected = nonMaxSuppression(boxes: unsqueeze(shown.boxes, axis: 0, name: "deploy.nms_boxes"),
                                         scores: unsqueeze(groupScores, axis: 0, name: "deploy.nms_scores"),
                                         maxPerClass: maxDetections, iou: Float(filter.suppressionIoU), scoreThreshold: 0, name: "deploy.nms")
        let kept = gather(selected, int64Constant([2], dims: [], name: "deploy.column_box"), axis: 1, name: "deploy.kept")
        let zeros = node("Expand", [floatConstant([0], dims: [], name: "deploy.zero"), node("Shape", [shown.scores], name: "deploy.count")], name: "deploy.zeros")
        let ones = node("Expand", [floatConstant([1], dims: [], name: "deploy.one"), node("Shape", [kept], name: "deploy.kept_count")], name: "deploy.ones")
        let mask = cast(node("ScatterND", [zeros, unsqueeze(kept, axis: 1, name: "deploy.kept_column"), ones], name: "deploy.mask_float"), .bool, name: "deploy.mask")
        return DetectionValues(boxes: compress(shown.boxes, mask, name: "deploy.boxes"), scores: compress(shown.scores, mask, name: "deploy.scores"),
                               classes: compress(shown.classes, mask, name: "deploy.classes"))
    }

    // MARK: - Single ONNX operators (opset 13); each output is named `name`, its constants after it.

    private mutating func reshape(_ x: String, _ shape: [Int64], name: String) -> String {
        node("Reshape", [x, int64Constant(shape, name: name + ".shape")], name: name)
    }

    private mutating func slice(_ x: String, axis: Int, _ range: Range<Int>, name: String) -> String {
        node("Slice", [x, int64Constant([Int64(range.lowerBound)], name: name + ".starts"), int64Constant([Int64(range.upperBound)], name: name + ".ends"),
                       int64Constant([Int64(axis)], name: name + ".axes")], name: name)
    }

    private mutating func gather(_ x: String, _ indices: String, axis: Int, name: String) -> String {
        node("Gather", [x, indices], name: name, attributes: [.int("axis", axis)])
    }

    private mutating func concat(_ parts: [String], axis: Int, name: String) -> String {
        node("Concat", parts, name: name, attributes: [.int("axis", axis)])
    }

    private mutating func unsqueeze(_ x: String, axis: Int, name: String) -> String {
        node("Unsqueeze", [x, int64Constant([Int64(axis)], name: name + ".axes")], name: name)
    }

    private mutating func cast(_ x: String, _ to: CastTarget, name: String) -> String {
        node("Cast", [x], name: name, attributes: [.int("to", to.rawValue)])
    }

    private mutating func compress(_ x: String, _ condition: String, name: String) -> String {
        node("Compress", [x, condition], name: name, attributes: [.int("axis", 0)])
    }

    /// Sorted TopK along the last axis of a vector: (values, indices), ties to the lower index.
    private mutating func topK(_ x: String, _ k: String, name: String) -> (values: String, indices: String) {
        let out = node("TopK", [x, k], outputs: [name + ".values", name + ".indices"], attributes: [.int("axis", -1), .int("largest", 1), .int("sorted", 1)])
        return (out[0], out[1])
    }

    /// TopK of a vector of unknown length, keeping min(length, `atMost`).
    private mutating func topK(_ x: String, atMost: Int, name: String) -> (values: String, indices: String) {
        let k = node("Min", [node("Shape", [x], name: name + ".length"), int64Constant([Int64(atMost)], name: name + ".at_most")], name: name + ".k")
        return topK(x, k, name: name)
    }

    /// NonMaxSuppression (center_point_box 0: corners; we pass x_min, y_min, x_max, y_max, which
    /// IoU treats like the y-first order it names; the three settings scalars, as the operator
    /// defines them): selected (batch, class, box) rows.
    private mutating func nonMaxSuppression(boxes: String, scores: String, maxPerClass: Int, iou: Float, scoreThreshold: Float, name: String) -> String {
        node("NonMaxSuppression", [boxes, scores, int64Constant([Int64(maxPerClass)], dims: [], name: name + ".max_per_class"),
                                   floatConstant([iou], dims: [], name: name + ".iou"), floatConstant([scoreThreshold], dims: [], name: name + ".score_threshold")],
             name: name, attributes: [.int("center_point_box", 0)])
    }
}
