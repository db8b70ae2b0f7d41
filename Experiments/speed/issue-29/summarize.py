#!/usr/bin/env python3
"""Issue 29's tables from one results folder of run.sh: medians over the invocations, each itself a median."""
import json, statistics, sys
from pathlib import Path

folder = Path(sys.argv[1])
load = lambda pattern: [json.loads(p.read_text()) for p in sorted(folder.glob(pattern))]
med = statistics.median

def machine(r):
    m = r["machine"]
    family = f' ({m["cpu_family"]})' if m.get("cpu_family") else ""
    vectors = f', {m["vector_registers"]}' if m.get("vector_registers") else ""
    return f'{m["cpu_model"]}{family}{vectors}, OpenBLAS {m["blas_kernels"]} kernels, {m["threads"]} threads'

bench, real = load("train-bench-*.json"), load("train-real-ui-*.json")
if bench:
    print(f"machine: {machine(bench[0])}\n")
    print("| network | step alone (img/s) | whole loop (img/s) | loop / step | PyTorch channels-last | ours / channels-last |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, runs in (("bench", bench), ("real-ui-finetune", real)):
        if not runs:
            continue
        step, loop = med(r["images_per_second"] for r in runs), med(r["loop_images_per_second"] for r in runs)
        torch = [r["torch_channels_last_images_per_second"] for r in runs if r.get("torch_channels_last_images_per_second")]
        ratio = [r["ratio_to_torch_channels_last"] for r in runs if r.get("ratio_to_torch_channels_last")]
        fmt = lambda v: f"{v:.1f}" if v else ""
        # From the ninth round on, each invocation's loop / step is the median of runs timed beside each other.
        loop_to_step = med(r.get("loop_to_step", r["loop_images_per_second"] / r["images_per_second"]) for r in runs)
        each = ", ".join(f"{100 * v:.0f}" for r in runs for v in r.get("loop_to_step_runs", []))
        print(f"| {name} | {step:.1f} | {loop:.1f} | {100 * loop_to_step:.0f}%{f' ({each})' if each else ''} "
              f"| {fmt(med(torch) if torch else None)} | {f'{med(ratio):.2f}' if ratio else ''} |")
    print()
    parts = ["data_wait", "loss_and_matching", "backbone", "fpn", "heads", "optimizer"]
    print("| network | " + " | ".join(parts) + " |")
    print("| --- |" + " ---: |" * len(parts))
    for name, runs in (("bench", bench), ("real-ui-finetune", real)):
        if runs:
            print(f"| {name} | " + " | ".join(f"{1000 * med(r['part_seconds'].get(p, 0) for r in runs):.0f}" for p in parts) + " |")
    print()

# From the twenty-third round, `bench train --layers`: each layer in the step alone against PyTorch's profiler.
def layer_tables(network, layered):
    if not layered:
        return
    print(f"bench train --layers, {network} network: ms per step, medians of {len(layered)} invocation(s) (each the median of its runs)\n")
    print("| layers | ours fwd | ours bwd | ours total | PyTorch fwd | PyTorch bwd | PyTorch total | PyTorch / ours (each invocation) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    def rows(key):
        for i, first in enumerate(layered[0][key]):
            got = [r[key][i] for r in layered]
            m = lambda k: med(g.get(k, 0) for g in got)
            speed = [g["speedup"] for g in got if "speedup" in g]
            each = ", ".join(f"{v:.2f}" for v in speed)
            print(f'| {first["name"]} | {m("ours_forward_ms"):.2f} | {m("ours_backward_ms"):.2f} | {m("ours_forward_ms") + m("ours_backward_ms"):.1f} '
                  f'| {m("torch_forward_ms"):.2f} | {m("torch_backward_ms"):.2f} | {m("torch_forward_ms") + m("torch_backward_ms"):.1f} '
                  f'| {f"{med(speed):.2f} ({each})" if speed else ""} |')
    rows("layer_kinds")
    rows("layer_parts")
    steps = [(r["layer_step_ms"], r.get("torch_layer_step_ms")) for r in layered]
    print(f'| whole step | | | {med(s for s, _ in steps):.1f} | | | {med(t or 0 for _, t in steps):.1f} '
          f'| {", ".join(f"{t / s:.2f}" for s, t in steps if t)} |')
    lost = [r["torch_unattributed_backward_ms"] for r in layered if r.get("torch_unattributed_backward_ms") is not None]
    if lost:
        print(f'\nPyTorch {layered[0].get("torch_version", "")}: backward tied to no part {", ".join(f"{v:.1f}" for v in lost)} ms a step')
    print()
    print("| layer | ours total | PyTorch total | PyTorch / ours |")
    print("| --- | ---: | ---: | ---: |")
    for i, first in enumerate(layered[0]["layers"]):
        got = [r["layers"][i] for r in layered]
        ours = med(g["ours_forward_ms"] + g["ours_backward_ms"] for g in got)
        theirs = med(g.get("torch_forward_ms", 0) + g.get("torch_backward_ms", 0) for g in got)
        speed = [g["speedup"] for g in got if "speedup" in g]
        print(f'| {first["name"]} | {ours:.2f} | {theirs:.2f} | {f"{med(speed):.2f}" if speed else ""} |')
    print()

layer_tables("bench", [r for r in bench if r.get("layer_kinds")])
layer_tables("paper-size", [r for r in load("train-paper-size-*.json") if r.get("layer_kinds")])

onnx = load("onnx-*.json")
if onnx:
    print("| network | threads | ours (ms) | onnxruntime (ms) | ours / onnxruntime (median of pairs) | pairs |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for r in onnx:
        pairs = ", ".join(f"{1 / x:.2f}" for x in r.get("pair_ratios") or [])
        ours_over = f'{r["ours_over_onnxruntime"]:.2f}' if r.get("ours_over_onnxruntime") else ""
        theirs = f'{r["onnxruntime_ms"]:.1f}' if r.get("onnxruntime_ms") else ""
        print(f'| {r["network"]} | {r["threads"]} | {r["ours_ms"]:.1f} | {theirs} | {ours_over} | {pairs} |')
    print()

def engine_tables(engine, title):
    if not engine:
        return
    print(f"{title} (medians of {len(engine)} invocations)\n")
    print("| conv | shape | kind | forward ms | forward + backward ms | f+b / sgemm |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for i, first in enumerate(engine[0]["convolutions"]):
        fwd = med(r["convolutions"][i]["forwardMilliseconds"] for r in engine)
        fb = med(r["convolutions"][i]["forwardBackwardMilliseconds"] for r in engine)
        ratio = med(r["convolutions"][i]["ratioToSGEMM"] for r in engine)
        print(f'| {first["name"]} | {first["shape"]} | {first["kind"]} | {fwd:.2f} | {fb:.2f} | {100 * ratio:.0f}% |')
    print()
    print("| pass | shape | forward / memcpy | backward / memcpy | batch norm on its own: forward, backward |")
    print("| --- | --- | ---: | ---: | ---: |")
    for kind in ("depthwise", "batch_norm"):
        for i, first in enumerate(engine[0][kind]):
            fwd = med(r[kind][i]["forwardRatio"] for r in engine)
            bwd = med(r[kind][i]["backwardRatio"] for r in engine)
            # From the sixth round, batch norm is timed fused with its convs and, alternately, on its own.
            own = ""
            if "ownPassForwardRatio" in first:
                own = (f'{100 * med(r[kind][i]["ownPassForwardRatio"] for r in engine):.0f}%, '
                       f'{100 * med(r[kind][i]["ownPassBackwardRatio"] for r in engine):.0f}%')
            print(f'| {first["name"]} | {first["shape"]} | {100 * fwd:.0f}% | {100 * bwd:.0f}% | {own} |')
    print()

# engine-N.json: the first round's name for the bench network's files.
engine_tables(load("engine-[0-9]*.json") + load("engine-bench-*.json"), "bench engine, bench network")
engine_tables(load("engine-quickstart-*.json"), "bench engine, quickstart network (Configs/quickstart.yaml, also the real-screen recipe's)")

for name in ("synthetic", "real-ui"):
    data = load(f"data-{name}-*.json")
    if data:
        keys = sorted(k for k, v in data[0].items() if isinstance(v, (int, float)))
        print(f"bench data, {name} screens: " + ", ".join(f"{k} {med(r[k] for r in data):.1f}" for k in keys))
