import Boxes
import Detection
import Engine
import Foundation
import Layers
import Protobuf

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
    /// The post-processing a reader of the outputs should apply (written into the metadata).
    public let postProcessing: PostProcessing
    /// Extra `metadata_props` (e.g. the picked thresholds).
    public var metadata: [String: String]

    public init(model: SSDModel, classNames: [String], postProcessing: PostProcessing = PostProcessing(), metadata: [String: String] = [:]) {
        self.model = model
        self.classNames = classNames
        self.postProcessing = postProcessing
        self.metadata = metadata
    }

    public static let opset = 13

    /// The serialized ModelProto: the model's own description run on an ONNX graph builder.
    public func encode() -> Data {
        let c = model.config
        var graph = Graph(weightNames: Dictionary(model.namedState().map { (ObjectIdentifier($0.tensor), $0.name) }) { first, _ in first })
        let (logits, deltas) = model.run(&graph, images: "images")
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
        let coder = BoxCoder()
        let (wx, wy, ww, wh) = coder.weights
        func number(_ v: Float) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        var m = metadata
        m["class_names"] = json(classNames)
        m["input_width"] = String(c.inputWidth)
        m["input_height"] = String(c.inputHeight)
        m["input_layout"] = "NCHW float32 RGB"
        m["input_normalisation"] = ModelInput.summary
        m["box_coder_weights"] = "[\(number(wx)), \(number(wy)), \(number(ww)), \(number(wh))]"
        m["box_coder"] = "deltas (dx, dy, dw, dh) per anchor (centre ax, ay, size aw, ah): cx = ax + dx / \(number(wx)) * aw, cy = ay + dy / \(number(wy)) * ah, "
            + "w = aw * exp(min(dw / \(number(ww)), log(1000 / 16))), h = ah * exp(min(dh / \(number(wh)), log(1000 / 16)))"
        m["anchor_order"] = "level \(c.minLevel)-\(c.maxLevel), then row, column, anchor index (scales outer, aspect ratios inner)"
        m["scores"] = postProcessing.summary
        m["post_processing"] = json(postProcessing)
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

/// An ONNX graph under construction (NCHW): nodes in order and named float initializers.
/// It interprets the model's description, so the exported graph is the network the engine runs.
struct Graph: NetworkInterpreter {
    var nodes: [(op: String, inputs: [String], output: String, attributes: [Attribute])] = []
    var initializers: [(name: String, dims: [Int], values: [Float])] = []
    var int64Initializers: [(name: String, values: [Int64])] = []
    /// Each weight tensor's name in the model (a head's weights serve every level: written once).
    let weightNames: [ObjectIdentifier: String]
    private var written: Set<String> = []

    init(weightNames: [ObjectIdentifier: String]) { self.weightNames = weightNames }

    /// Adds a node; its output is named `name`.
    @discardableResult
    mutating func node(_ op: String, _ inputs: [String], name: String, attributes: [Attribute] = []) -> String {
        nodes.append((op, inputs, name, attributes))
        return name
    }

    mutating func int64Constant(_ values: [Int64], name: String) -> String {
        if written.insert(name).inserted { int64Initializers.append((name, values)) }
        return name
    }

    mutating func floatConstant(_ values: [Float], dims: [Int], name: String) -> String {
        if written.insert(name).inserted { initializers.append((name, dims, values)) }
        return name
    }

    /// A model tensor as an initializer named as in the model, HWIO conv weights turned into ONNX's OIHW.
    mutating func weight(_ t: Tensor) -> String {
        let name = weightNames[ObjectIdentifier(t)] ?? "tensor\(initializers.count)"
        guard written.insert(name).inserted else { return name }
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
        var inputs = [x, weight(conv.weight)]
        if let b = conv.bias { inputs.append(weight(b)) }
        return node("Conv", inputs, name: name, attributes: [
            .ints("kernel_shape", [k, k]), .ints("strides", [conv.stride, conv.stride]),
            .ints("pads", [conv.padding, conv.padding, conv.padding, conv.padding]), .int("group", conv.groups),
        ])
    }

    mutating func convBNActivation(_ block: ConvBNActivation, _ x: String, name: String) -> String {
        let y = conv(block.conv, x, name: name + ".conv")
        let bn = block.norm
        let z = node("BatchNormalization", [y, weight(bn.scale), weight(bn.shift), weight(bn.runningMean), weight(bn.runningVariance)],
                     name: name + ".bn", attributes: [.float("epsilon", bn.epsilon)])
        switch block.activation {
        case .relu6:
            return node("Clip", [z, floatConstant([0], dims: [], name: "relu6.min"), floatConstant([6], dims: [], name: "relu6.max")], name: name + ".relu6")
        case .relu: return relu(z, name: name + ".relu")
        case .identity: return z
        }
    }

    mutating func relu(_ x: String, name: String) -> String { node("Relu", [x], name: name) }

    mutating func add(_ a: String, _ b: String, name: String) -> String { node("Add", [a, b], name: name) }

    mutating func upsampleNearest2x(_ x: String, name: String) -> String {
        let scales = floatConstant([1, 1, 2, 2], dims: [4], name: "upsample.scales")
        // "asymmetric" + "floor" picks source pixel floor(y / 2): exactly the engine's copy of each pixel into a 2x2 block.
        return node("Resize", [x, "", scales], name: name, attributes: [
            .string("mode", "nearest"), .string("coordinate_transformation_mode", "asymmetric"), .string("nearest_mode", "floor"),
        ])
    }

    mutating func rows(_ x: String, width: Int, name: String) -> String {
        let nhwc = node("Transpose", [x], name: name + ".nhwc", attributes: [.ints("perm", [0, 2, 3, 1])])
        return node("Reshape", [nhwc, int64Constant([0, -1, Int64(width)], name: "rows\(width).shape")], name: name)
    }

    mutating func concatenateRows(_ parts: [String], name: String) -> String {
        node("Concat", parts, name: name, attributes: [.int("axis", 1)])
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
