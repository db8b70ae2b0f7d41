import Checkpoints
import Detection
import Engine
import Export
import Foundation
import TestSupport
import Training
import XCTest

/// A small network with every kind of layer of the real one: P7 (ReLU before the last extra level),
/// several head layers, and batch-norm statistics away from their initial values.
func exportModel() -> SSDModel {
    var c = SSDConfig()
    c.inputWidth = 128
    c.inputHeight = 256
    c.alpha = 0.25
    c.fpnDepth = 16
    c.headLayers = 2
    c.maxLevel = 7
    var g = SeededGenerator(seed: 21)
    return modelAwayFromItsInitialValues(c, generator: &g)
}

final class ExportTests: XCTestCase {
    func testONNXRuntimeAgreesWithOurForwardPass() throws {
        try requirePython(["onnxruntime", "numpy", "safetensors"])
        let dir = try scratchFolder(prefix: "uidetect-export")
        let model = exportModel()
        let c = model.config
        var g = SeededGenerator(seed: 4)
        let n = 2
        let images = Tensor(shape: [n, c.inputHeight, c.inputWidth, 3], values: (0..<(n * c.inputHeight * c.inputWidth * 3)).map { _ in Float(g.uniform(-1...1)) })
        let (logits, deltas) = Autodiff.withoutTape { model.outputs(images: images, mode: .inference) }
        let anchors = AnchorGenerator(config: c).anchors().flatMap { [$0.xMin, $0.yMin, $0.xMax, $0.yMax] }
        try Safetensors.write([NamedTensor(name: "images", shape: images.shape, values: images.scalars),
                               NamedTensor(name: "class_logits", shape: logits.shape, values: logits.scalars),
                               NamedTensor(name: "box_deltas", shape: deltas.shape, values: deltas.scalars),
                               NamedTensor(name: "anchors", shape: [anchors.count / 4, 4], values: anchors)], to: dir.appendingPathComponent("swift.safetensors"))
        let onnx = dir.appendingPathComponent("model.onnx")
        try ONNXExporter(model: model, classNames: Array(defaultClassNamesForTests.prefix(c.numClasses)), metadata: ["thresholds": "{}"]).write(to: onnx)
        let script = """
        import json, sys
        import numpy as np, onnxruntime as ort
        from safetensors.numpy import load_file
        ref = load_file(sys.argv[2])
        opts = ort.SessionOptions(); opts.intra_op_num_threads = 2
        s = ort.InferenceSession(sys.argv[1], opts, providers=["CPUExecutionProvider"])
        names = [o.name for o in s.get_outputs()]
        out = s.run(None, {"images": np.ascontiguousarray(ref["images"].transpose(0, 3, 1, 2))})
        meta = s.get_modelmeta().custom_metadata_map
        print(json.dumps({"outputs": names, "opset": 13, "meta": meta,
                          "diff": {k: float(np.abs(v - ref[k]).max()) for k, v in zip(names, out)},
                          "shapes": {k: list(v.shape) for k, v in zip(names, out)}}))
        """
        let object = try pythonJSON(script, [onnx.path, dir.appendingPathComponent("swift.safetensors").path]) as! [String: Any]
        XCTAssertEqual(object["outputs"] as? [String], ["class_logits", "box_deltas", "anchors"])
        let shapes = object["shapes"] as! [String: [Int]]
        XCTAssertEqual(shapes["class_logits"], logits.shape)
        XCTAssertEqual(shapes["box_deltas"], deltas.shape)
        for (name, diff) in object["diff"] as! [String: Double] { XCTAssertLessThanOrEqual(diff, 1e-4, "\(name) differs from onnxruntime's by \(diff)") }
        let meta = object["meta"] as! [String: String]
        XCTAssertEqual(meta["input_width"], "128")
        XCTAssertEqual(meta["box_coder_weights"], "[10, 10, 5, 5]")
        XCTAssertEqual(meta["thresholds"], "{}")
        XCTAssertTrue(meta["class_names"]?.contains("checkbox_unselected") ?? false)
    }

    func testExportedSafetensorsReadBackInPython() throws {
        try requirePython(["safetensors", "numpy"])
        let dir = try scratchFolder(prefix: "uidetect-export")
        let model = exportModel()
        let url = dir.appendingPathComponent("weights.safetensors")
        try DetectorWeights.write(model, classNames: Array(defaultClassNamesForTests.prefix(13)), step: 5, extra: ["thresholds": #"{"text": 0.5}"#], to: url)
        let script = """
        import json, sys
        from safetensors.numpy import load_file
        from safetensors import safe_open
        t = load_file(sys.argv[1])
        with safe_open(sys.argv[1], "np") as f: meta = f.metadata()
        print(json.dumps({"meta": meta, "tensors": {k: {"shape": list(v.shape), "dtype": str(v.dtype), "sum": float(v.astype("float64").sum()), "first": float(v.reshape(-1)[0])} for k, v in t.items()}}))
        """
        let object = try pythonJSON(script, [url.path]) as! [String: Any]
        let meta = object["meta"] as! [String: String]
        XCTAssertEqual(meta["thresholds"], #"{"text": 0.5}"#)
        XCTAssertEqual(meta["format"], "uidetect-ssd-1")
        let read = object["tensors"] as! [String: [String: Any]]
        XCTAssertEqual(Set(read.keys), Set(model.namedState().map(\.name)))
        for (name, t) in model.namedState() {
            let r = read[name]!
            XCTAssertEqual(r["shape"] as? [Int], t.shape, name)
            XCTAssertEqual(r["dtype"] as? String, "float32")
            XCTAssertEqual(Float(r["first"] as! Double), t.scalars[0], name)
            XCTAssertEqual(r["sum"] as! Double, t.scalars.reduce(0.0) { $0 + Double($1) }, accuracy: 1e-6 * max(1, t.scalars.reduce(0.0) { $0 + abs(Double($1)) }), name)
        }
    }
}

let defaultClassNamesForTests = ["checkbox_unselected", "checkbox_selected", "container", "dialog", "icon", "page_control", "picture",
                                 "segmented_control", "slider", "text", "text_field", "toggle_unselected", "toggle_selected"]
