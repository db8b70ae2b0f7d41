import Boxes
import Detection
import Engine
import Foundation
import Layers

/// The detector as an ONNX model (opset 13), written with our own protobuf encoder.
///
/// Input `images`: float32 (N, 3, H, W), RGB letterboxed top-left into the model's input and
/// scaled by x / 127.5 - 1. Outputs: `class_logits` (N, anchors, K) raw logits, `box_deltas`
/// (N, anchors, 4) encoded deltas (dx, dy, dw, dh scaled by the box coder's weights 10, 10, 5, 5), and
/// `anchors` (anchors, 4) as x_min, y_min, x_max, y_max in input pixels; anchors are ordered
/// level, row, column, anchor index, as `SSDModel.outputs`. Batch norm runs in inference mode.
public struct ONNXExporter {
    public let model: SSDModel
    public let classNames: [String]
    /// Extra `metadata_props` (e.g. the picked thresholds).
    public var metadata: [String: String]

    public init(model: SSDModel, classNames: [String], metadata: [String: String] = [:]) {
        self.model = model
        self.classNames = classNames
        self.metadata = metadata
    }

    public static let opset = 13

    /// The serialized ModelProto.
    public func encode() -> Data {
        var graph = Graph()
        let c = model.config
        var x = "images"
        // Backbone.
        x = graph.convBN(model.backbone.stem, x, name: "backbone.stem")
        var c3 = x, c4 = x
        for (i, b) in model.backbone.blocks.enumerated() {
            x = graph.convBN(b.depthwise, x, name: "backbone.b\(i + 1).depthwise")
            x = graph.convBN(b.pointwise, x, name: "backbone.b\(i + 1).pointwise")
            if i == 4 { c3 = x }
            if i == 10 { c4 = x }
        }
        let c5 = x
        // FPN: laterals, top-down nearest 2x upsampling and sums, 3x3 outputs, extra levels.
        let fpn = model.fpn
        let t5 = graph.conv(fpn.laterals[2], c5, name: "fpn.lateral5")
        let t4 = graph.add(graph.conv(fpn.laterals[1], c4, name: "fpn.lateral4"), graph.upsample2x(t5, name: "fpn.up5"), name: "fpn.sum4")
        let t3 = graph.add(graph.conv(fpn.laterals[0], c3, name: "fpn.lateral3"), graph.upsample2x(t4, name: "fpn.up4"), name: "fpn.sum3")
        var levels = [graph.conv(fpn.outputs[0], t3, name: "fpn.output3"), graph.conv(fpn.outputs[1], t4, name: "fpn.output4"),
                      graph.conv(fpn.outputs[2], t5, name: "fpn.output5")]
        for (k, conv) in fpn.extras.enumerated() {
            let input = k == 0 ? levels[2] : graph.relu(levels.last!, name: "fpn.relu\(k + 6)")
            levels.append(graph.conv(conv, input, name: "fpn.extra\(k + 6)"))
        }
        // Heads, shared across levels; each level's (N, A*K, H, W) becomes (N, H*W*A, K).
        func head(_ tower: HeadTower, _ name: String, width: Int) -> String {
            let shape = graph.int64Constant([0, -1, Int64(width)], name: "\(name).shape")
            let parts = levels.enumerated().map { (l, level) -> String in
                var h = level
                for (i, conv) in tower.hidden.enumerated() { h = graph.relu(graph.conv(conv, h, name: "\(name).\(i).P\(l + c.minLevel)"), name: "\(name).\(i).relu.P\(l + c.minLevel)") }
                h = graph.conv(tower.final, h, name: "\(name).out.P\(l + c.minLevel)")
                let nhwc = graph.node("Transpose", [h], name: "\(name).nhwc.P\(l + c.minLevel)", attributes: [.ints("perm", [0, 2, 3, 1])])
                return graph.node("Reshape", [nhwc, shape], name: "\(name).rows.P\(l + c.minLevel)")
            }
            return graph.node("Concat", parts, name: name, attributes: [.int("axis", 1)])
        }
        let logits = head(model.classHead, "class_logits", width: c.numClasses)
        let deltas = head(model.boxHead, "box_deltas", width: 4)
        let anchors = AnchorGenerator(config: c).anchors()
        let anchorValues = anchors.flatMap { [$0.xMin, $0.yMin, $0.xMax, $0.yMax] }
        graph.initializers.append(("anchors.values", [anchors.count, 4], anchorValues))
        let anchorOutput = graph.node("Identity", ["anchors.values"], name: "anchors")

        var w = ProtobufWriter()
        w.int(1, 7)  // ir_version 7: what opset 13 came with
        w.string(2, "uidetect")
        w.string(3, "1")
        w.message(7) { g in
            graph.write(into: &g, inputs: [("images", [-1, 3, c.inputHeight, c.inputWidth])],
                        outputs: [(logits, [-1, anchors.count, c.numClasses]), (deltas, [-1, anchors.count, 4]), (anchorOutput, [anchors.count, 4])])
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

    /// What a reader needs to decode the outputs.
    public func allMetadata() -> [String: String] {
        let c = model.config
        func json<T: Encodable>(_ v: T) -> String {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            return String(decoding: try! e.encode(v), as: UTF8.self)
        }
        var m = metadata
        m["class_names"] = json(classNames)
        m["input_width"] = String(c.inputWidth)
        m["input_height"] = String(c.inputHeight)
        m["input_layout"] = "NCHW float32 RGB"
        m["input_normalisation"] = "letterbox top-left into input_width x input_height (aspect kept, black padding), then x / 127.5 - 1"
        m["box_coder_weights"] = "[10, 10, 5, 5]"
        m["box_coder"] = "deltas (dx, dy, dw, dh) per anchor (centre ax, ay, size aw, ah): cx = ax + dx / 10 * aw, cy = ay + dy / 10 * ah, w = aw * exp(min(dw / 5, log(1000 / 16))), h = ah * exp(min(dh / 5, log(1000 / 16)))"
        m["anchor_order"] = "level \(c.minLevel)-\(c.maxLevel), then row, column, anchor index (scales outer, aspect ratios inner)"
        m["scores"] = "sigmoid of class_logits; post-processing: score > 0.05, 1000 best per level, per-class NMS at IoU 0.5, best 100"
        m["ssd_config"] = json(c)
        return m
    }

    /// Writes the model atomically.
    public func write(to url: URL) throws {
        try encode().write(to: url, options: .atomic)
    }
}

/// An attribute of an ONNX node.
enum Attribute {
    case int(String, Int)
    case float(String, Float)
    case ints(String, [Int])
    case string(String, String)

    func write(into w: inout ProtobufWriter) {
        switch self {
        case .int(let name, let v): w.string(1, name); w.int(20, 2); w.int(3, v)
        case .float(let name, let v): w.string(1, name); w.int(20, 1); w.float(2, v)
        case .ints(let name, let v): w.string(1, name); w.int(20, 7); for i in v { w.int(8, i) }
        case .string(let name, let v): w.string(1, name); w.int(20, 3); w.string(4, v)
        }
    }
}

/// An ONNX graph under construction: nodes in order and named float initializers.
struct Graph {
    var nodes: [(op: String, inputs: [String], output: String, attributes: [Attribute])] = []
    var initializers: [(name: String, dims: [Int], values: [Float])] = []
    var int64Initializers: [(name: String, values: [Int64])] = []

    /// Adds a node; its output is named `name`.
    @discardableResult
    mutating func node(_ op: String, _ inputs: [String], name: String, attributes: [Attribute] = []) -> String {
        nodes.append((op, inputs, name, attributes))
        return name
    }

    mutating func int64Constant(_ values: [Int64], name: String) -> String {
        int64Initializers.append((name, values))
        return name
    }

    /// A float initializer from an engine tensor, HWIO conv weights turned into ONNX's OIHW.
    mutating func weight(_ t: Tensor, name: String) -> String {
        if t.shape.count == 4 {
            let (kh, kw, ci, co) = (t.shape[0], t.shape[1], t.shape[2], t.shape[3])
            let v = t.scalars
            var out = [Float](repeating: 0, count: v.count)
            for y in 0..<kh { for x in 0..<kw { for i in 0..<ci { for o in 0..<co {
                out[((o * ci + i) * kh + y) * kw + x] = v[((y * kw + x) * ci + i) * co + o]
            } } } }
            initializers.append((name, [co, ci, kh, kw], out))
        } else {
            initializers.append((name, t.shape, t.scalars))
        }
        return name
    }

    mutating func conv(_ conv: Conv2D, _ x: String, name: String) -> String {
        let k = conv.weight.shape[0]
        var inputs = [x, weight(conv.weight, name: name + ".weight")]
        if let b = conv.bias { inputs.append(weight(b, name: name + ".bias")) }
        return node("Conv", inputs, name: name, attributes: [
            .ints("kernel_shape", [k, k]), .ints("strides", [conv.stride, conv.stride]),
            .ints("pads", [conv.padding, conv.padding, conv.padding, conv.padding]), .int("group", conv.groups),
        ])
    }

    mutating func convBN(_ block: ConvBNActivation, _ x: String, name: String) -> String {
        let y = conv(block.conv, x, name: name + ".conv")
        let bn = block.norm
        let z = node("BatchNormalization", [y, weight(bn.scale, name: name + ".bn.weight"), weight(bn.shift, name: name + ".bn.bias"),
                                            weight(bn.runningMean, name: name + ".bn.running_mean"), weight(bn.runningVariance, name: name + ".bn.running_var")],
                     name: name + ".bn", attributes: [.float("epsilon", bn.epsilon)])
        switch block.activation {
        case .relu6:
            if !initializers.contains(where: { $0.name == "relu6.min" }) {
                initializers.append(("relu6.min", [], [0]))
                initializers.append(("relu6.max", [], [6]))
            }
            return node("Clip", [z, "relu6.min", "relu6.max"], name: name + ".relu6")
        case .relu: return relu(z, name: name + ".relu")
        case .identity: return z
        }
    }

    mutating func relu(_ x: String, name: String) -> String { node("Relu", [x], name: name) }

    mutating func add(_ a: String, _ b: String, name: String) -> String { node("Add", [a, b], name: name) }

    mutating func upsample2x(_ x: String, name: String) -> String {
        if !initializers.contains(where: { $0.name == "upsample.scales" }) { initializers.append(("upsample.scales", [4], [1, 1, 2, 2])) }
        // "asymmetric" + "floor" picks source pixel floor(y / 2): exactly the engine's copy of each pixel into a 2x2 block.
        return node("Resize", [x, "", "upsample.scales"], name: name, attributes: [
            .string("mode", "nearest"), .string("coordinate_transformation_mode", "asymmetric"), .string("nearest_mode", "floor"),
        ])
    }

    func write(into g: inout ProtobufWriter, inputs: [(String, [Int])], outputs: [(String, [Int])]) {
        for n in nodes {
            g.message(1) { p in
                for i in n.inputs { p.string(1, i) }
                p.string(2, n.output)
                p.string(3, n.output)
                p.string(4, n.op)
                for a in n.attributes { p.message(5) { a.write(into: &$0) } }
            }
        }
        g.string(2, "uidetect_ssd")
        for t in initializers {
            g.message(5) { p in
                for d in t.dims { p.int(1, d) }
                p.int(2, 1)  // FLOAT
                p.string(8, t.name)
                var raw = [UInt8]()
                raw.reserveCapacity(t.values.count * 4)
                for v in t.values { withUnsafeBytes(of: v.bitPattern.littleEndian) { raw += $0 } }
                p.bytes(9, raw)
            }
        }
        for t in int64Initializers {
            g.message(5) { p in
                p.int(1, t.values.count)
                p.int(2, 7)  // INT64
                p.string(8, t.name)
                var raw = [UInt8]()
                for v in t.values { withUnsafeBytes(of: v.littleEndian) { raw += $0 } }
                p.bytes(9, raw)
            }
        }
        func valueInfo(_ field: Int, _ name: String, _ dims: [Int]) {
            g.message(field) { v in
                v.string(1, name)
                v.message(2) { type in
                    type.message(1) { tensor in
                        tensor.int(1, 1)  // FLOAT
                        tensor.message(2) { shape in
                            for d in dims { shape.message(1) { dim in if d < 0 { dim.string(2, "batch") } else { dim.int(1, d) } } }
                        }
                    }
                }
            }
        }
        for (name, dims) in inputs { valueInfo(11, name, dims) }
        for (name, dims) in outputs { valueInfo(12, name, dims) }
    }
}
