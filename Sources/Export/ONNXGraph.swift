import Engine
import Layers
import Protobuf

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

/// A graph input or output: its name, element type and shape.
struct ValueInfo {
    enum ElementType: Int { case float = 1, int64 = 7 }
    enum Dimension {
        case fixed(Int)
        /// A dimension known only when the graph runs (ONNX `dim_param`).
        case named(String)
    }

    var name: String
    var type: ElementType
    var dims: [Dimension]
}

/// An ONNX graph under construction (NCHW): nodes in order and named initializers.
/// It interprets the model's description, so the exported graph is the network the engine runs.
struct Graph: NetworkInterpreter {
    struct Node {
        var op: String
        var inputs: [String]
        var outputs: [String]
        var attributes: [Attribute]
    }

    var nodes: [Node] = []
    var initializers: [(name: String, dims: [Int], values: [Float])] = []
    var int64Initializers: [(name: String, dims: [Int], values: [Int64])] = []
    /// Each weight tensor's name in the model (a head's weights serve every level: written once).
    let weightNames: [ObjectIdentifier: String]
    private var written: Set<String> = []

    init(weightNames: [ObjectIdentifier: String]) { self.weightNames = weightNames }

    /// Adds a node with one output, named `name`.
    @discardableResult
    mutating func node(_ op: String, _ inputs: [String], name: String, attributes: [Attribute] = []) -> String {
        nodes.append(Node(op: op, inputs: inputs, outputs: [name], attributes: attributes))
        return name
    }

    /// Adds a node with several outputs (TopK's values and indices).
    mutating func node(_ op: String, _ inputs: [String], outputs: [String], attributes: [Attribute] = []) -> [String] {
        nodes.append(Node(op: op, inputs: inputs, outputs: outputs, attributes: attributes))
        return outputs
    }

    /// An int64 initializer; `dims` defaults to a vector of the values ([] for a scalar).
    mutating func int64Constant(_ values: [Int64], dims: [Int]? = nil, name: String) -> String {
        if written.insert(name).inserted { int64Initializers.append((name, dims ?? [values.count], values)) }
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

    /// The GraphProto: nodes, initializers, inputs and outputs.
    func write(into g: inout ProtobufWriter, inputs: [ValueInfo], outputs: [ValueInfo]) {
        for n in nodes {
            g.message(1) { p in
                for i in n.inputs { p.string(1, i) }
                for o in n.outputs { p.string(2, o) }
                p.string(3, n.outputs[0])
                p.string(4, n.op)
                for a in n.attributes { p.message(5) { a.write(into: &$0) } }
            }
        }
        g.string(2, "uidetect_ssd")
        func initializer(_ name: String, _ dims: [Int], _ type: ValueInfo.ElementType, _ raw: [UInt8]) {
            g.message(5) { p in
                for d in dims { p.int(1, d) }
                p.int(2, type.rawValue)
                p.string(8, name)
                p.bytes(9, raw)
            }
        }
        for t in initializers { initializer(t.name, t.dims, .float, littleEndianBytes(t.values.map(\.bitPattern))) }
        for t in int64Initializers { initializer(t.name, t.dims, .int64, littleEndianBytes(t.values)) }
        func valueInfo(_ field: Int, _ info: ValueInfo) {
            g.message(field) { v in
                v.string(1, info.name)
                v.message(2) { type in
                    type.message(1) { tensor in
                        tensor.int(1, info.type.rawValue)
                        tensor.message(2) { shape in
                            for d in info.dims {
                                shape.message(1) { dim in
                                    switch d {
                                    case .fixed(let n): dim.int(1, n)
                                    case .named(let name): dim.string(2, name)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for info in inputs { valueInfo(11, info) }
        for info in outputs { valueInfo(12, info) }
    }
}

/// The values' bytes, least significant first (ONNX's raw_data).
private func littleEndianBytes<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
    var raw = [UInt8]()
    raw.reserveCapacity(values.count * MemoryLayout<T>.size)
    for v in values { withUnsafeBytes(of: v.littleEndian) { raw += $0 } }
    return raw
}
