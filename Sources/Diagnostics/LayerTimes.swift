import Engine
import Foundation

/// Forward and backward milliseconds per training step of one layer (or a group of layers, or a part
/// of the network): ours, and PyTorch's as its profiler attributes them, on the same network.
public struct LayerTime: Codable, Equatable {
    /// Our layer name (`backbone.b7.depthwise`, `class_head.out.P3`), a group's or a part's.
    public var name: String
    public var oursForwardMilliseconds: Double
    public var oursBackwardMilliseconds: Double
    public var torchForwardMilliseconds: Double?
    public var torchBackwardMilliseconds: Double?

    /// PyTorch's forward + backward time over ours: above 1, we are faster.
    public var speedup: Double? {
        guard let f = torchForwardMilliseconds, let b = torchBackwardMilliseconds, oursForwardMilliseconds + oursBackwardMilliseconds > 0 else { return nil }
        return (f + b) / (oursForwardMilliseconds + oursBackwardMilliseconds)
    }

    enum CodingKeys: String, CodingKey {
        case name, speedup
        case oursForwardMilliseconds = "ours_forward_ms", oursBackwardMilliseconds = "ours_backward_ms"
        case torchForwardMilliseconds = "torch_forward_ms", torchBackwardMilliseconds = "torch_backward_ms"
    }

    public init(name: String, oursForwardMilliseconds: Double, oursBackwardMilliseconds: Double,
                torchForwardMilliseconds: Double? = nil, torchBackwardMilliseconds: Double? = nil) {
        self.name = name
        self.oursForwardMilliseconds = oursForwardMilliseconds
        self.oursBackwardMilliseconds = oursBackwardMilliseconds
        self.torchForwardMilliseconds = torchForwardMilliseconds
        self.torchBackwardMilliseconds = torchBackwardMilliseconds
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        oursForwardMilliseconds = try c.decode(Double.self, forKey: .oursForwardMilliseconds)
        oursBackwardMilliseconds = try c.decode(Double.self, forKey: .oursBackwardMilliseconds)
        torchForwardMilliseconds = try c.decodeIfPresent(Double.self, forKey: .torchForwardMilliseconds)
        torchBackwardMilliseconds = try c.decodeIfPresent(Double.self, forKey: .torchBackwardMilliseconds)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(oursForwardMilliseconds, forKey: .oursForwardMilliseconds)
        try c.encode(oursBackwardMilliseconds, forKey: .oursBackwardMilliseconds)
        try c.encodeIfPresent(torchForwardMilliseconds, forKey: .torchForwardMilliseconds)
        try c.encodeIfPresent(torchBackwardMilliseconds, forKey: .torchBackwardMilliseconds)
        try c.encodeIfPresent(speedup, forKey: .speedup)
    }

    /// The kind of layer `name` is, as the issue's passes go: nil for a name of no kind. The backbone's
    /// layers hold their batch norm and ReLU6 on both sides; the FPN's and heads' are plain convs.
    public static func kind(of name: String) -> String? {
        if name == "backbone.stem" { return "stem: 3x3 conv + BN + ReLU6" }
        if name.hasSuffix(".depthwise") { return "depthwise 3x3 + BN + ReLU6" }
        if name.hasSuffix(".pointwise") { return "pointwise 1x1 + BN + ReLU6" }
        if name.hasPrefix("fpn.lateral") { return "FPN laterals 1x1" }
        if name.hasPrefix("fpn.") { return "FPN 3x3 (outputs, extra levels)" }
        if name.hasPrefix("class_head.") || name.hasPrefix("box_head."), let level = name.split(separator: ".").last, level.hasPrefix("P") {
            return "head 3x3 convs, \(level)"
        }
        return nil
    }

    /// `layers` summed by `kind(of:)`, in the order the kinds first appear.
    public static func groups(_ layers: [LayerTime]) -> [LayerTime] {
        var order: [String] = [], sums: [String: LayerTime] = [:]
        for l in layers {
            guard let kind = kind(of: l.name) else { continue }
            guard var s = sums[kind] else {
                order.append(kind)
                sums[kind] = LayerTime(name: kind, oursForwardMilliseconds: l.oursForwardMilliseconds, oursBackwardMilliseconds: l.oursBackwardMilliseconds,
                                       torchForwardMilliseconds: l.torchForwardMilliseconds, torchBackwardMilliseconds: l.torchBackwardMilliseconds)
                continue
            }
            s.oursForwardMilliseconds += l.oursForwardMilliseconds
            s.oursBackwardMilliseconds += l.oursBackwardMilliseconds
            s.torchForwardMilliseconds = sum(s.torchForwardMilliseconds, l.torchForwardMilliseconds)
            s.torchBackwardMilliseconds = sum(s.torchBackwardMilliseconds, l.torchBackwardMilliseconds)
            sums[kind] = s
        }
        return order.compactMap { sums[$0] }
    }

    /// Per name, the median over runs of each time (a run: name -> forward and backward milliseconds).
    static func medians(ours: [[String: (forward: Double, backward: Double)]], torch: [[String: (forward: Double, backward: Double)]],
                        order: [String]) -> [LayerTime] {
        func mid(_ runs: [[String: (forward: Double, backward: Double)]], _ name: String, _ part: KeyPath<(forward: Double, backward: Double), Double>) -> Double? {
            medianOrNil(runs.compactMap { $0[name]?[keyPath: part] })
        }
        return order.map { name in
            LayerTime(name: name, oursForwardMilliseconds: mid(ours, name, \.forward) ?? 0, oursBackwardMilliseconds: mid(ours, name, \.backward) ?? 0,
                      torchForwardMilliseconds: mid(torch, name, \.forward), torchBackwardMilliseconds: mid(torch, name, \.backward))
        }
    }
}

/// a + b, or nil when PyTorch gave no time for either (a group's sum is only as whole as its layers).
private func sum(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b else { return nil }
    return a + b
}

/// What PyTorch's profiler attributes to each layer and part in training steps of the reference
/// network (`TorchAnchor.layerTimes`), milliseconds per step.
public struct TorchLayerTimes {
    public var stepMilliseconds: Double
    /// By our part names (backbone, fpn, heads, loss, optimizer).
    public var parts: [String: (forward: Double, backward: Double)]
    /// By our layer names.
    public var layers: [String: (forward: Double, backward: Double)]
    /// Backward ops the profile could not tie to a forward op in a part (the parameters' gradient sums, a
    /// few percent at most; all of PyTorch's backward if a version stopped recording sequence numbers).
    public var unattributedBackwardMilliseconds: Double
    public var torchVersion: String
}

extension TorchAnchor {
    /// Training steps of the reference network (channels-last, batch `batch`, as bench.py's) under
    /// PyTorch's profiler, each layer's forward and backward ops attributed to our layer names.
    public func layerTimes(threads: Int, batch: Int, steps: Int) throws -> TorchLayerTimes {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uidetect-torch-layers-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("layer_times.py")
        try Data(Self.layerScript.utf8).write(to: script)
        let arguments = ["--anchor", folder.path, "--config", config, "--overrides", overridesJSON, "--threads", String(threads),
                         "--batch", String(batch), "--steps", String(steps)]
        let text = try output(of: ["python3", script.path] + arguments, label: "layer_times.py --config \(config) --batch \(batch) --steps \(steps)",
                              key: "torch_layers_json")
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let step = object["step_ms"] as? Double, let parts = object["parts"] as? [String: [Double]],
              let layers = object["layers"] as? [String: [Double]] else {
            throw BenchmarkError("the PyTorch reference's layer profile printed something other than its JSON: \(text.prefix(200))")
        }
        func pairs(_ d: [String: [Double]]) -> [String: (forward: Double, backward: Double)] {
            d.compactMapValues { $0.count == 2 ? (forward: $0[0], backward: $0[1]) : nil }
        }
        return TorchLayerTimes(stepMilliseconds: step, parts: pairs(parts), layers: pairs(layers),
                               unattributedBackwardMilliseconds: object["unattributed_backward_ms"] as? Double ?? 0,
                               torchVersion: object["torch"] as? String ?? "")
    }

    /// Imports the reference's model.py and times bench.py's step (same data, targets matched once,
    /// SGD) under `torch.profiler`. Forward hooks open a range per layer; a backward op belongs to the
    /// layer whose range held the forward op of the same autograd sequence number.
    static let layerScript = #"""
    import argparse, json, sys, time
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchor"); ap.add_argument("--config", default="bench"); ap.add_argument("--overrides", default="{}")
    ap.add_argument("--threads", type=int, default=2); ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--steps", type=int, default=5); ap.add_argument("--warmup", type=int, default=3)
    a = ap.parse_args()
    sys.path.insert(0, a.anchor)
    import torch
    from torch.profiler import profile, ProfilerActivity, record_function
    from model import SSD, build_targets, class_weights, generate_anchors, make_config, random_gt, ssd_loss
    torch.set_num_threads(a.threads)
    try: torch.set_num_interop_threads(1)
    except RuntimeError: pass
    cfg = make_config(a.config, **json.loads(a.overrides)); B = a.batch
    torch.manual_seed(0); gen = torch.Generator().manual_seed(0)
    cl = torch.channels_last
    model = SSD(cfg).to(memory_format=cl); model.train()
    x = (torch.rand(B, 3, cfg["height"], cfg["width"], generator=gen) * 2 - 1).contiguous(memory_format=cl)
    anchors = generate_anchors(cfg)
    cls_ts, box_ts, counts = [], [], torch.zeros(cfg["num_classes"], dtype=torch.long)
    for _ in range(B):
        boxes, labels = random_gt(cfg, 20, gen)
        c, b = build_targets(anchors, boxes, labels, cfg)
        cls_ts.append(c); box_ts.append(b); counts += torch.bincount(labels, minlength=cfg["num_classes"])
    cls_t, box_t = torch.stack(cls_ts), torch.stack(box_ts)
    cls_w = class_weights(counts, cfg["num_classes"], cfg["class_weighting"], cfg["cb_beta"])
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=4e-5)
    # Our layer names for the reference's modules; the heads run once per level, so their names take the level.
    names, levelled = {}, {}
    bb, fpn = model.backbone, model.fpn
    names[bb.stem] = "backbone.stem"
    for k, blk in enumerate(bb.blocks, 1):
        names[blk.dw], names[blk.pw] = f"backbone.b{k}.depthwise", f"backbone.b{k}.pointwise"
    for l in (3, 4, 5):
        names[getattr(fpn, f"lat{l}")], names[getattr(fpn, f"out{l}")] = f"fpn.lateral{l}", f"fpn.output{l}"
    for i, conv in enumerate(fpn.extra): names[conv] = f"fpn.extra{i + 6}"
    for head, hn in ((model.cls_head, "class_head"), (model.box_head, "box_head")):
        for k, conv in enumerate(head.convs): levelled[conv] = f"{hn}.{k}"
        levelled[head.out] = f"{hn}.out"
    levels = cfg["max_level"] - cfg["min_level"] + 1
    calls, ranges = {}, []
    def enter(mod, inputs):
        if mod in names: name = names[mod]
        else:
            n = calls.get(mod, 0); calls[mod] = n + 1
            name = f"{levelled[mod]}.P{cfg['min_level'] + n % levels}"
        r = record_function("layer::" + name); r.__enter__(); ranges.append(r)
    def leave(mod, inputs, output): ranges.pop().__exit__(None, None, None)
    for mod in list(names) + list(levelled):
        mod.register_forward_pre_hook(enter); mod.register_forward_hook(leave)
    def step():
        with record_function("part::optimizer"): opt.zero_grad(set_to_none=True)
        with record_function("part::backbone"): feats = bb(x)
        with record_function("part::fpn"): ps = fpn(feats)
        with record_function("part::heads"):
            cls_out, box_out = [], []
            for p in ps:  # as SSD.forward
                cls_out.append(model.cls_head(p).permute(0, 2, 3, 1).reshape(B, -1, model.K))
                box_out.append(model.box_head(p).permute(0, 2, 3, 1).reshape(B, -1, 4))
            c, b = torch.cat(cls_out, 1), torch.cat(box_out, 1)
        with record_function("part::loss"): loss, _ = ssd_loss(c, b, cls_t, box_t, cls_w, cfg)
        loss.backward()
        with record_function("part::optimizer"): opt.step()
    for _ in range(a.warmup): step()
    wall = 0.0  # the steps alone: the profiler's start and its processing at the end are not a step's
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(a.steps):
            t0 = time.perf_counter(); step(); wall += (time.perf_counter() - t0) / a.steps
    events = prof.events()
    owner, fwd = {}, {}  # owner: forward op's sequence number -> (part, layer)
    def walk(e, part, layer):
        if e.name.startswith("part::"): part = e.name[6:]; fwd[("part", part)] = fwd.get(("part", part), 0) + e.cpu_time_total
        if e.name.startswith("layer::"): layer = e.name[7:]; fwd[("layer", layer)] = fwd.get(("layer", layer), 0) + e.cpu_time_total
        if e.sequence_nr is not None and e.sequence_nr >= 0 and part is not None: owner.setdefault(e.sequence_nr, (part, layer))
        for ch in e.cpu_children: walk(ch, part, layer)
    for e in events:
        if e.cpu_parent is None and e.name.startswith("part::"): walk(e, None, None)
    bwd, lost = {}, 0.0
    for e in events:
        if e.name.startswith("autograd::engine::evaluate_function:"):
            o = owner.get(e.sequence_nr)
            if o is None: lost += e.cpu_time_total; continue
            bwd[("part", o[0])] = bwd.get(("part", o[0]), 0) + e.cpu_time_total
            if o[1]: bwd[("layer", o[1])] = bwd.get(("layer", o[1]), 0) + e.cpu_time_total
    ms = lambda us: us / 1000 / a.steps
    out = {"torch": torch.__version__, "steps": a.steps, "step_ms": wall * 1000, "unattributed_backward_ms": ms(lost)}
    for kind in ("part", "layer"):
        keys = sorted({k for (t, k) in list(fwd) + list(bwd) if t == kind})
        out[kind + "s"] = {k: [ms(fwd.get((kind, k), 0)), ms(bwd.get((kind, k), 0))] for k in keys}
    print("torch_layers_json=" + json.dumps(out))
    """#
}
