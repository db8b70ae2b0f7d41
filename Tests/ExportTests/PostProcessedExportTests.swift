import Boxes
import Checkpoints
import Detection
import Engine
import Export
import Foundation
import Images
import Synthesis
import TestSupport
import XCTest

/// A freshly initialised network of `exportModel`'s size (batch norm as initialised, so that the
/// image reaches the heads) whose class head gives a trained detector's candidate counts: hidden
/// layers with 10 times the initial weights, the final weights times `weightScale`, biases
/// `classBias` plus an offset per anchor shape and class in -1...1. Class 6 (picture) sees what
/// class 4 (icon) sees, 0.05 higher, and both are 1 higher, so that the similar-class suppression has work. `weightScale`
/// 0 makes the logits the biases exactly: every location of every level ties with every other.
func postProcessingModel(classBias: Float, weightScale: Float) -> SSDModel {
    var g = SeededGenerator(seed: 8)
    let model = SSDModel(config: exportModel().config, generator: &g)
    for hidden in model.classHead.hidden { hidden.weight.assign(hidden.weight.scalars.map { $0 * 10 }) }
    let head = model.classHead.final
    let k = model.config.numClasses, outputs = head.weight.shape[3]
    var weights = head.weight.scalars.map { $0 * weightScale }
    var bias = (0..<outputs).map { _ in classBias + g.uniform(-1...1) }
    for o in stride(from: 6, to: outputs, by: k) {
        for i in stride(from: 0, to: weights.count, by: outputs) { weights[i + o] = weights[i + o - 2] }
        bias[o - 2] += 1
        bias[o] = bias[o - 2] + 0.05
    }
    head.weight.assign(weights)
    head.bias!.assign(bias)
    return model
}

/// What onnxruntime returned for one image: each output as float32 values (classes converted
/// exactly), its shape and its dtype in the graph.
struct ONNXResult {
    var values: [String: [Float]]
    var shapes: [String: [Int]]
    var dtypes: [String: String]

    /// The detections of a post-processed graph, in its order.
    var detections: [DetectedBox] {
        let (b, s, c) = (values["boxes"]!, values["scores"]!, values["classes"]!)
        return s.indices.map { DetectedBox(box: Box(xMin: b[4 * $0], yMin: b[4 * $0 + 1], xMax: b[4 * $0 + 2], yMax: b[4 * $0 + 3]), label: Int(c[$0]), score: s[$0]) }
    }
}

/// The last line of a Python script's output as JSON, after checking that it exited with 0.
func pythonJSON(_ script: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Any {
    let python = try runProgram(["python3", "-c", script] + arguments)
    XCTAssertEqual(python.status, 0, python.output, file: file, line: line)
    return try JSONSerialization.jsonObject(with: Data(python.stdout.split(separator: "\n").last.map(String.init)?.utf8 ?? "".utf8))
}

/// Images of a batch as the graph takes them, one at a time: NHWC (N, H, W, 3) to N arrays of (1, 3, H, W).
func nchwImages(_ images: Tensor) -> [NamedTensor] {
    let (n, h, w) = (images.shape[0], images.shape[1], images.shape[2])
    let v = images.scalars
    return (0..<n).map { k in
        var out = [Float](repeating: 0, count: 3 * h * w)
        for y in 0..<h { for x in 0..<w { for c in 0..<3 { out[(c * h + y) * w + x] = v[((k * h + y) * w + x) * 3 + c] } } }
        return NamedTensor(name: "image\(k)", shape: [1, 3, h, w], values: out)
    }
}

/// Runs every model in onnxruntime (one thread) on every image; `result[model][image]`.
func runONNX(_ models: [URL], on images: [NamedTensor], in dir: URL, file: StaticString = #filePath, line: UInt = #line) throws -> [[ONNXResult]] {
    let inputs = dir.appendingPathComponent("inputs.safetensors")
    try Safetensors.write(images, to: inputs)
    let script = """
    import json, sys
    import numpy as np, onnxruntime as ort
    from safetensors.numpy import load_file, save_file
    images = load_file(sys.argv[1])
    opts = ort.SessionOptions(); opts.intra_op_num_threads = 1
    report = []
    for m, path in enumerate(sys.argv[3:]):
        s = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
        names = [o.name for o in s.get_outputs()]
        runs = []
        for k in range(len(images)):
            values = s.run(None, {"images": images[f"image{k}"]})
            save_file({n: np.ascontiguousarray(v.astype(np.float32)) for n, v in zip(names, values)}, f"{sys.argv[2]}/run-{m}-{k}.safetensors")
            runs.append({n: str(v.dtype) for n, v in zip(names, values)})
        report.append(runs)
    print(json.dumps(report))
    """
    let report = try pythonJSON(script, [inputs.path, dir.path] + models.map(\.path), file: file, line: line) as! [[[String: String]]]
    return try report.enumerated().map { m, runs in
        try runs.enumerated().map { k, dtypes in
            let read = try Safetensors.read(dir.appendingPathComponent("run-\(m)-\(k).safetensors")).tensors
            return ONNXResult(values: Dictionary(uniqueKeysWithValues: read.map { ($0.name, $0.values) }),
                              shapes: Dictionary(uniqueKeysWithValues: read.map { ($0.name, $0.shape) }), dtypes: dtypes)
        }
    }
}

/// Asserts that the graph's detections are `ours`: as many, the same classes in the same order,
/// boxes within `boxTolerance` pixels and scores within 1e-5. Returns the largest differences.
@discardableResult
func assertSameDetections(_ graph: [DetectedBox], _ ours: [DetectedBox], boxTolerance: Float, _ what: String,
                          file: StaticString = #filePath, line: UInt = #line) -> (box: Float, score: Float) {
    XCTAssertEqual(graph.count, ours.count, "\(what): number of detections", file: file, line: line)
    var largest: (box: Float, score: Float) = (0, 0)
    for (i, (g, o)) in zip(graph, ours).enumerated() {
        let diff = max(abs(g.box.xMin - o.box.xMin), abs(g.box.yMin - o.box.yMin), abs(g.box.xMax - o.box.xMax), abs(g.box.yMax - o.box.yMax))
        largest = (max(largest.box, diff), max(largest.score, abs(g.score - o.score)))
        guard g.label == o.label, diff <= boxTolerance, abs(g.score - o.score) <= 1e-5 else {
            let nearTie = i + 1 < ours.count && abs(ours[i + 1].score - o.score) < 1e-6 ? " (a near-tie with the next: the inputs are not free of them)" : ""
            XCTFail("\(what): detection \(i) is \(g) in the graph, \(o) in ours\(nearTie)", file: file, line: line)
            return largest
        }
    }
    return largest
}

final class PostProcessedExportTests: XCTestCase {
    let classNames = Array(defaultClassNamesForTests.prefix(13))
    /// A deployment filter with thresholds for some classes (the rest keep everything) and the usual groups.
    let filter = DeploymentFilter(thresholds: ["icon": 0.3, "text": 0.45, "container": 0.2, "picture": 0.25])

    /// Two inputs: a synthetic screen letterboxed as `predict` does, and noise.
    func inputs(_ c: SSDConfig) throws -> Tensor {
        let screen = try ScreenSynthesizer(size: Size(width: 390, height: 844), seed: 3, appCount: 1).screen(index: 0).image!
        let fitted = ModelInput.batch([screen], size: c.inputSize).images.scalars
        var g = SeededGenerator(seed: 4)
        let noise = (0..<fitted.count).map { _ in g.uniform(-1...1) }
        return Tensor(shape: [2, c.inputHeight, c.inputWidth, 3], values: fitted + noise)
    }

    /// Exports `model` raw and with each of `variants`; runs all in onnxruntime on `images`. Returns,
    /// per variant and image, the graph's detections and ours from the raw graph's outputs, so that
    /// both post-processings read the same logits and deltas.
    func compare(_ model: SSDModel, _ variants: [(PostProcessing, ONNXExporter.Outputs)], images: Tensor) throws
        -> [[(graph: ONNXResult, ours: [DetectedBox])]] {
        let dir = try scratchFolder(prefix: "uidetect-onnxpost")
        var urls = [dir.appendingPathComponent("raw.onnx")]
        try ONNXExporter(model: model, classNames: classNames).write(to: urls[0])
        for (i, (settings, outputs)) in variants.enumerated() {
            urls.append(dir.appendingPathComponent("post\(i).onnx"))
            try ONNXExporter(model: model, classNames: classNames, postProcessing: settings, outputs: outputs).write(to: urls.last!)
        }
        let results = try runONNX(urls, on: nchwImages(images), in: dir)
        return variants.enumerated().map { v, variant in
            results[v + 1].enumerated().map { k, graph in
                let raw = results[0][k]
                let logits = Tensor(shape: raw.shapes["class_logits"]!, values: raw.values["class_logits"]!)
                let deltas = Tensor(shape: raw.shapes["box_deltas"]!, values: raw.values["box_deltas"]!)
                var ours = SSDDetector(model: model, postProcessing: variant.0).detect(logits: logits, deltas: deltas)[0]
                if case .deployment(let f) = variant.1 { ours = f.apply(ours, classNames: classNames) }
                return (graph, ours)
            }
        }
    }

    func testPostProcessedGraphReturnsWhatSSDDetectorReturns() throws {
        try requirePython(["onnxruntime", "numpy", "safetensors"])
        let model = postProcessingModel(classBias: -5, weightScale: 30)
        let c = model.config
        let images = try inputs(c)
        let fewCandidates = { var p = PostProcessing(); p.candidatesPerLevel = 30; return p }()
        let variants: [(PostProcessing, ONNXExporter.Outputs)] = [(PostProcessing(), .detections), (fewCandidates, .detections), (PostProcessing(), .deployment(filter))]
        let found = try compare(model, variants, images: images)

        var largest: (box: Float, score: Float) = (0, 0)
        for (v, name) in ["detections", "30 candidates per level", "deployment"].enumerated() {
            for (k, run) in found[v].enumerated() {
                XCTAssertEqual(run.graph.dtypes, ["boxes": "float32", "scores": "float32", "classes": "int64"])
                XCTAssertEqual(run.graph.shapes["boxes"], [run.ours.count, 4])
                let diff = assertSameDetections(run.graph.detections, run.ours, boxTolerance: 1e-3, "\(name), image \(k)")
                largest = (max(largest.box, diff.box), max(largest.score, diff.score))
            }
        }
        print("post-processed graph against SSDDetector on the same logits: largest differences: box \(largest.box) px, score \(largest.score)")

        // The inputs exercise what the graph must reproduce: a level with more than 1000 candidates,
        // a limit that changes the result, more than 100 boxes surviving NMS, a suppression.
        let (logits, deltas) = Autodiff.withoutTape { model.outputs(images: images, mode: .inference) }
        let lv = logits.scalars, mean = lv.reduce(0, +) / Float(lv.count)
        print("logits: mean \(mean), std \((lv.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(lv.count)).squareRoot())")
        let perLevel = candidatesAboveFloor(logits, config: c)
        print("candidates above the floor per level (P3...): \(perLevel)")
        XCTAssertTrue(perLevel.contains { $0.contains { $0 > 1000 } }, "no level has more than 1000 candidates: \(perLevel)")
        var unlimited = PostProcessing()
        unlimited.candidatesPerLevel = .max
        XCTAssertNotEqual(SSDDetector(model: model, postProcessing: fewCandidates).detect(logits: logits, deltas: deltas),
                          SSDDetector(model: model, postProcessing: unlimited).detect(logits: logits, deltas: deltas))
        var everything = PostProcessing()
        everything.maxDetections = .max
        let survivors = SSDDetector(model: model, postProcessing: everything).detect(logits: logits, deltas: deltas).map(\.count)
        print("boxes surviving NMS per image: \(survivors)")
        XCTAssertTrue(survivors.contains { $0 > 100 }, "\(survivors)")
        let suppressed = zip(found[0], found[2]).map { detected, deployed in
            detected.ours.filter { d in filter.thresholds[classNames[d.label]].map { d.score >= $0 } ?? true }.count - deployed.ours.count
        }
        print("removed by the similar-class suppression per image: \(suppressed)")
        XCTAssertTrue(suppressed.contains { $0 > 0 }, "the similar-class suppression removes nothing")
    }

    func testExactTiesAreBrokenAsSSDDetectorBreaksThem() throws {
        try requirePython(["onnxruntime", "numpy", "safetensors"])
        // Logits = biases: each (anchor shape, class) scores the same at every location of every level.
        let model = postProcessingModel(classBias: -1.5, weightScale: 0)
        let found = try compare(model, [(PostProcessing(), .detections), (PostProcessing(), .deployment(filter))], images: try inputs(model.config))
        for (v, variant) in found.enumerated() {
            for (k, run) in variant.enumerated() {
                XCTAssertLessThan(Set(run.ours.map(\.score)).count, run.ours.count / 2, "too few ties to test")
                assertSameDetections(run.graph.detections, run.ours, boxTolerance: 1e-3, "variant \(v), image \(k)")
            }
        }
    }

    func testNothingAboveTheFloorGivesNoDetections() throws {
        try requirePython(["onnxruntime", "numpy", "safetensors"])
        let model = postProcessingModel(classBias: -12, weightScale: 1)
        let found = try compare(model, [(PostProcessing(), .detections), (PostProcessing(), .deployment(filter))], images: try inputs(model.config))
        for run in found.joined() {
            XCTAssertEqual(run.ours, [])
            XCTAssertEqual(run.graph.shapes["boxes"], [0, 4])
            XCTAssertEqual(run.graph.shapes["classes"], [0])
        }
    }

    /// For each image, how many (anchor, class) pairs of each level score above the floor.
    func candidatesAboveFloor(_ logits: Tensor, config c: SSDConfig) -> [[Int]] {
        let (a, k) = (logits.shape[1], logits.shape[2])
        let v = logits.scalars
        return (0..<logits.shape[0]).map { i in
            var start = 0
            return (c.minLevel...c.maxLevel).map { l in
                let count = (c.inputHeight >> l) * (c.inputWidth >> l) * c.anchorsPerLocation
                defer { start += count }
                return (start..<(start + count)).reduce(0) { n, j in n + (0..<k).filter { stableSigmoid(v[(i * a + j) * k + $0]) > 0.05 }.count }
            }
        }
    }
}

/// The `preprocessing` metadata followed by a user: numpy only, from the text.
final class PreprocessingExportTests: XCTestCase {
    /// Reads each screenshot's raw RGB bytes, prepares the input as the model's `preprocessing`
    /// metadata says, compares it with ours, runs each graph and maps the boxes back as the
    /// metadata says. Prints per model, per screenshot, the detections and the input's differences.
    static let script = #"""
    import json, sys
    import numpy as np, onnxruntime as ort
    from safetensors.numpy import load_file
    f32 = np.float32

    def round_half_away(v):  # v >= 0 in float32; v - floor(v) is exact
        fl = np.floor(v)
        return fl + (v - fl >= f32(0.5))

    def bilinear_taps(n_src, n_dst):
        s = f32(n_src) / f32(n_dst)
        f = np.maximum(f32(0), (np.arange(n_dst, dtype=f32) + f32(0.5)) * s - f32(0.5))
        i0 = np.minimum(np.floor(f).astype(np.int64), n_src - 1)
        return i0, np.minimum(i0 + 1, n_src - 1), f - i0.astype(f32)

    def preprocess(img, w_in, h_in):
        h, w = img.shape[:2]
        s = min(f32(w_in) / f32(w), f32(h_in) / f32(h))
        w2 = max(1, min(w_in, int(round_half_away(f32(w) * s))))
        h2 = max(1, min(h_in, int(round_half_away(f32(h) * s))))
        x = img
        if (w2, h2) != (w, h):
            while x.shape[1] >= 2 * w2 and x.shape[0] >= 2 * h2:
                b = x[: x.shape[0] // 2 * 2, : x.shape[1] // 2 * 2].astype(np.int64)
                x = ((b[0::2, 0::2] + b[0::2, 1::2] + b[1::2, 0::2] + b[1::2, 1::2] + 2) // 4).astype(np.uint8)
            x0, x1, wx = bilinear_taps(x.shape[1], w2)
            y0, y1, wy = bilinear_taps(x.shape[0], h2)
            p = x.astype(f32)
            wx, wy = wx[None, :, None], wy[:, None, None]
            top = p[y0][:, x0] * (f32(1) - wx) + p[y0][:, x1] * wx
            bottom = p[y1][:, x0] * (f32(1) - wx) + p[y1][:, x1] * wx
            x = np.clip(round_half_away(top * (f32(1) - wy) + bottom * wy), 0, 255).astype(np.uint8)
        out = np.zeros((h_in, w_in, 3), np.uint8)
        out[:h2, :w2] = x
        t = out.astype(f32) * (f32(1) / f32(127.5)) - f32(1)
        return np.ascontiguousarray(t.transpose(2, 0, 1)[None]), s

    screens = json.loads(sys.argv[1])
    ours = load_file(sys.argv[2])
    opts = ort.SessionOptions(); opts.intra_op_num_threads = 1
    sessions = [ort.InferenceSession(p, opts, providers=["CPUExecutionProvider"]) for p in sys.argv[3:]]
    meta = sessions[0].get_modelmeta().custom_metadata_map
    w_in, h_in = int(meta["input_width"]), int(meta["input_height"])
    report = {"input": [], "detections": [[] for _ in sessions], "meta": [s.get_modelmeta().custom_metadata_map for s in sessions]}
    for k, (path, w, h) in enumerate(screens):
        img = np.fromfile(path, np.uint8).reshape(h, w, 3)
        t, s = preprocess(img, w_in, h_in)
        diff = np.abs(t - ours[f"input{k}"])
        report["input"].append({"max_diff": float(diff.max()), "differing": int((diff > 0).sum())})
        for m, session in enumerate(sessions):
            boxes, scores, classes = session.run(["boxes", "scores", "classes"], {"images": t})
            b = boxes * (f32(1) / s)
            b = np.minimum(np.maximum(b, f32(0)), np.array([w, h, w, h], f32))
            keep = (b[:, 2] > b[:, 0]) & (b[:, 3] > b[:, 1])
            report["detections"][m].append([[float(v) for v in b[i]] + [float(scores[i]), int(classes[i])] for i in np.nonzero(keep)[0]])
    print(json.dumps(report))
    """#

    func testNumpyPreprocessingFromTheMetadataGivesPredictsDetections() throws {
        try requirePython(["onnxruntime", "numpy", "safetensors"])
        let dir = try scratchFolder(prefix: "uidetect-preprocessing")
        let model = postProcessingModel(classBias: -5, weightScale: 30)
        let classNames = Array(defaultClassNamesForTests.prefix(13))
        let filter = DeploymentFilter(thresholds: ["icon": 0.3, "text": 0.45, "container": 0.2, "picture": 0.25])
        // Odd sizes: an iPhone's points, its pixels (halved three times), odd width and height, smaller than the input;
        // and noise (halved once, odd sizes), where every bilinear sample rounds somewhere new.
        let sizes = [Size(width: 390, height: 844), Size(width: 1170, height: 2532), Size(width: 333, height: 701), Size(width: 100, height: 150),
                     Size(width: 517, height: 1119)]
        var g = SeededGenerator(seed: 12)
        var screens: [RGBImage] = [], described: [[Any]] = [], inputs: [NamedTensor] = []
        for (k, size) in sizes.enumerated() {
            let screen = k < 4 ? try ScreenSynthesizer(size: size, seed: 11, appCount: 3).screen(index: k).image!
                : RGBImage(size: size, pixels: (0..<(size.width * size.height * 3)).map { _ in UInt8(truncatingIfNeeded: g.next()) })
            let file = dir.appendingPathComponent("screen\(k).rgb")
            try Data(screen.pixels).write(to: file)
            screens.append(screen)
            described.append([file.path, size.width, size.height])
            var input = nchwImages(ModelInput.batch([screen], size: model.config.inputSize).images)[0]
            input.name = "input\(k)"
            inputs.append(input)
        }
        try Safetensors.write(inputs, to: dir.appendingPathComponent("ours.safetensors"))
        let models = [dir.appendingPathComponent("detections.onnx"), dir.appendingPathComponent("deployment.onnx")]
        try ONNXExporter(model: model, classNames: classNames, outputs: .detections).write(to: models[0])
        try ONNXExporter(model: model, classNames: classNames, outputs: .deployment(filter)).write(to: models[1])
        let json = String(decoding: try JSONSerialization.data(withJSONObject: described), as: UTF8.self)
        let report = try pythonJSON(Self.script, [json, dir.appendingPathComponent("ours.safetensors").path] + models.map(\.path)) as! [String: Any]

        let meta = report["meta"] as! [[String: String]]
        XCTAssertEqual(meta[0]["preprocessing"], ONNXExporter.preprocessing(input: model.config.inputSize))
        XCTAssertTrue(meta[0]["outputs"]!.hasPrefix("one image (batch 1); boxes (D, 4) float32 x_min, y_min, x_max, y_max in input pixels"), meta[0]["outputs"]!)
        XCTAssertTrue(meta[0]["deployment_filter"]!.hasSuffix("not in the graph: apply it to the outputs"), meta[0]["deployment_filter"]!)
        XCTAssertTrue(meta[1]["deployment_filter"]!.hasSuffix("[icon, picture], [container, segmented_control, text_field]) overlaps it at IoU > 0.8; in the graph"),
                      meta[1]["deployment_filter"]!)
        XCTAssertEqual(meta[1]["thresholds"], #"{"container":0.2,"icon":0.3,"picture":0.25,"text":0.45}"#)
        for (k, input) in (report["input"] as! [[String: Any]]).enumerated() {
            XCTAssertEqual(input["max_diff"] as? Double, 0, "\(sizes[k]): numpy's input differs from ours in \(input["differing"]!) values")
        }
        let detector = SSDDetector(model: model)
        let ours = [detector.detect(screens: screens), detector.detect(screens: screens) { filter.apply($0, classNames: classNames) }]
        var largest: (box: Float, score: Float) = (0, 0)
        for (m, perScreen) in (report["detections"] as! [[[[Double]]]]).enumerated() {
            for (k, rows) in perScreen.enumerated() {
                let graph = rows.map { DetectedBox(box: Box(xMin: Float($0[0]), yMin: Float($0[1]), xMax: Float($0[2]), yMax: Float($0[3])), label: Int($0[5]), score: Float($0[4])) }
                XCTAssertGreaterThan(graph.count, 0)
                let diff = assertSameDetections(graph, ours[m][k], boxTolerance: 1e-3, "\(m == 0 ? "detections" : "deployment"), \(sizes[k])")
                largest = (max(largest.box, diff.box), max(largest.score, diff.score))
            }
        }
        print("numpy preprocessing + onnxruntime against detect(screens:): largest differences: box \(largest.box) px (screenshot pixels), score \(largest.score)")
    }
}
