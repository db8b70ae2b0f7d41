import Detection
import Engine
import Export
import Foundation

/// Our forward pass against onnxruntime running our ONNX export of the same network,
/// one image, the same thread count, in one run (onnxruntime from Python, if installed).
public struct ONNXLatencyReport: Codable {
    /// What it was measured on (CPU model and family, vector registers, OpenBLAS kernels, threads).
    public var machine = Machine.current()
    public var network: String
    public var threads: Int
    /// OpenBLAS's kernel set during the run (`BLASKernels.current`).
    public var blasKernels: String
    public var oursMilliseconds: Double
    public var onnxruntimeMilliseconds: Double?
    /// onnxruntime's time over ours, the median over the interleaved pairs: above 1, we are faster.
    public var ratio: Double?
    /// Our time over onnxruntime's (1 / ratio).
    public var oursOverONNXRuntime: Double?
    /// Each pair's onnxruntime / ours, in the order they ran.
    public var pairRatios: [Double]?
    /// How many times ours and onnxruntime were timed one after the other (each a median of `runs` passes).
    public var pairs: Int
    public var maxOutputDifference: Double?
    public var runs: Int
    /// With profiling: onnxruntime's own per-node timings (its `enable_profiling`), milliseconds per run by op type.
    public var onnxruntimeByOpType: [String: Double]?
    /// With profiling: its slowest nodes, milliseconds per run.
    public var onnxruntimeSlowestNodes: [ProfiledNode]?
    /// With profiling: our layers in the order they run, median milliseconds each.
    public var oursByLayer: [ProfiledNode]?

    /// One node of onnxruntime's profile.
    public struct ProfiledNode: Codable {
        public var name: String
        public var opType: String
        public var milliseconds: Double
        enum CodingKeys: String, CodingKey { case name, milliseconds, opType = "op_type" }
    }

    enum CodingKeys: String, CodingKey {
        case machine
        case network, threads, ratio, runs, pairs
        case blasKernels = "blas_kernels", pairRatios = "pair_ratios", oursOverONNXRuntime = "ours_over_onnxruntime"
        case oursMilliseconds = "ours_ms", onnxruntimeMilliseconds = "onnxruntime_ms", maxOutputDifference = "max_output_difference"
        case onnxruntimeByOpType = "onnxruntime_ms_by_op_type", onnxruntimeSlowestNodes = "onnxruntime_slowest_nodes"
        case oursByLayer = "ours_ms_by_layer"
    }
}

public struct ONNXBenchmark {
    public var name: String
    public var config: SSDConfig
    public var runs: Int
    /// Also run onnxruntime with its profiler and report where its time goes.
    public var profile = false
    /// Ours then onnxruntime, this many times: a shared machine's load drifts, and the ratio of
    /// neighbouring timings cancels it where one timing of each does not.
    public var pairs: Int

    public init(name: String, config: SSDConfig, runs: Int = 11, pairs: Int = 5) {
        self.name = name
        self.config = config
        self.runs = runs
        self.pairs = max(1, pairs)
    }

    static let script = """
    import json, sys, time
    import numpy as np, onnxruntime as ort
    path, inputs, threads, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    raw = np.fromfile(inputs, dtype="<f4")
    opts = ort.SessionOptions(); opts.intra_op_num_threads = threads; opts.inter_op_num_threads = 1
    s = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    shape = [1] + [d for d in s.get_inputs()[0].shape[1:]]
    x = raw[: int(np.prod(shape))].reshape(shape)
    out = s.run(None, {"images": x})
    times = []
    for _ in range(runs):
        t = time.perf_counter(); s.run(None, {"images": x}); times.append(time.perf_counter() - t)
    ref = raw[int(np.prod(shape)):]
    logits = out[0].reshape(-1)
    result = {"seconds": sorted(times)[len(times) // 2], "diff": float(np.abs(logits - ref[: logits.size]).max())}
    if len(sys.argv) > 5:
        # A second session with onnxruntime's profiler: every node's time, summed per run.
        opts.enable_profiling = True; opts.profile_file_prefix = sys.argv[5]
        p = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
        p.run(None, {"images": x})
        for _ in range(runs): p.run(None, {"images": x})
        events = json.load(open(p.end_profiling()))
        nodes, ops = {}, {}
        for e in events:
            if e.get("cat") != "Node" or not e["name"].endswith("_kernel_time"): continue
            name, op = e["name"][: -len("_kernel_time")], e["args"]["op_name"]
            nodes[(name, op)] = nodes.get((name, op), 0) + e["dur"] / 1000 / (runs + 1)
            ops[op] = ops.get(op, 0) + e["dur"] / 1000 / (runs + 1)
        slowest = sorted(nodes.items(), key=lambda kv: -kv[1])[:15]
        result["by_op"] = ops
        result["nodes"] = [{"name": n, "op_type": o, "milliseconds": ms} for (n, o), ms in slowest]
    print(json.dumps(result))
    """

    /// A layer's name and what it is (its kind and shape where it is a convolution).
    static func layerKind(_ name: String, model: SSDModel) -> (String, String) {
        let shapes = Dictionary(model.convolutions(batch: 1).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        guard let c = shapes[name] else { return (name, name.split(separator: ".").last.map(String.init) ?? name) }
        return (name, "\(c.kind) s\(c.stride) \(c.height)x\(c.width)x\(c.inChannels)->\(c.outChannels)")
    }

    public func run() throws -> ONNXLatencyReport {
        var g = SeededGenerator(seed: 9)
        let model = SSDModel(config: config, generator: &g)
        let c = config
        let values = (0..<(c.inputWidth * c.inputHeight * 3)).map { _ in Float(g.uniform(-1...1)) }
        let nhwc = Tensor(shape: [1, c.inputHeight, c.inputWidth, 3], values: values)
        // The product's inference path (batch norm folded, activations fused), as predict and evaluate run it.
        let detector = SSDDetector(model: model)
        let forward = { detector.outputs(images: nhwc) }
        let logits = forward().classLogits.scalars
        var byLayer: [ONNXLatencyReport.ProfiledNode]? = nil
        if profile {
            let passes = (0..<runs).map { _ in detector.layerSeconds(images: nhwc) }
            byLayer = passes[0].indices.map { i in
                let times = passes.map { $0[i].seconds }.sorted()
                let (name, kind) = Self.layerKind(passes[0][i].name, model: model)
                return ONNXLatencyReport.ProfiledNode(name: name, opType: kind, milliseconds: 1000 * times[times.count / 2])
            }
        }

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-bench-onnx-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let onnx = dir.appendingPathComponent("model.onnx")
        try ONNXExporter(model: model, classNames: (0..<c.numClasses).map { "class\($0)" }).write(to: onnx)
        // The input in ONNX's NCHW layout, then our logits to compare against.
        var nchw = [Float](repeating: 0, count: values.count)
        let plane = c.inputWidth * c.inputHeight
        for p in 0..<plane { for ch in 0..<3 { nchw[ch * plane + p] = values[p * 3 + ch] } }
        let inputs = dir.appendingPathComponent("inputs.f32")
        try (nchw + logits).withUnsafeBufferPointer { Data(buffer: $0) }.write(to: inputs)
        let profilePrefix = profile ? [dir.appendingPathComponent("onnxruntime-profile").path] : []
        var oursTimes: [Double] = [], theirTimes: [Double] = []
        var obj: [String: Any]? = nil
        for _ in 0..<pairs {
            oursTimes.append(medianSeconds(repeats: runs) { _ = forward() })
            let answer = try runPythonJSON(Self.script, arguments: [onnx.path, inputs.path, String(Parallel.threadCount), String(runs)], in: dir)
            obj = obj ?? answer
            if let seconds = answer?["seconds"] as? Double { theirTimes.append(seconds) }
        }
        // onnxruntime's profiler slows it down: a run of its own after the pairs, its time not used.
        let profiled = profile ? try runPythonJSON(Self.script, arguments: [onnx.path, inputs.path, String(Parallel.threadCount), String(runs)] + profilePrefix, in: dir) : nil
        let ours = medianOrNil(oursTimes) ?? 0
        let pairRatios = theirTimes.isEmpty ? nil : zip(theirTimes, oursTimes).map { $0 / $1 }
        let theirs = medianOrNil(theirTimes), diff = obj?["diff"] as? Double
        let ratio = pairRatios.flatMap(medianOrNil)
        let nodes = (profiled?["nodes"] as? [[String: Any]])?.compactMap { n -> ONNXLatencyReport.ProfiledNode? in
            guard let name = n["name"] as? String, let op = n["op_type"] as? String, let ms = n["milliseconds"] as? Double else { return nil }
            return ONNXLatencyReport.ProfiledNode(name: name, opType: op, milliseconds: ms)
        }
        return ONNXLatencyReport(network: name, threads: Parallel.threadCount, blasKernels: BLASKernels.current, oursMilliseconds: 1000 * ours, onnxruntimeMilliseconds: theirs.map { 1000 * $0 },
                                 ratio: ratio, oursOverONNXRuntime: ratio.map { 1 / $0 }, pairRatios: pairRatios, pairs: pairs, maxOutputDifference: diff, runs: runs,
                                 onnxruntimeByOpType: profiled?["by_op"] as? [String: Double], onnxruntimeSlowestNodes: nodes, oursByLayer: byLayer)
    }
}
