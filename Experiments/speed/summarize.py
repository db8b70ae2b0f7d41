"""Tables of Experiments/speed/results (run.sh): medians over the three invocations of each case."""
import glob, json, os, statistics

here = os.path.join(os.path.dirname(__file__), "results")


def load(pattern):
    return [json.load(open(p)) for p in sorted(glob.glob(os.path.join(here, pattern)))]


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def f(v, fmt="%.1f"):
    return "-" if v is None else fmt % v


print("## Training, bench network, batch 8, 2 threads\n")
print("| kernels | build | step alone (img/s) | whole loop (img/s) | loop / step | PyTorch channels-last | PyTorch NCHW | ours / channels-last (run by run) |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for core in ["Cooperlake", "Haswell"]:
    after, before = load(f"train-after-{core}-*.json"), load(f"train-before-{core}-*.json")
    torch_cl = med([r["torch_channels_last_images_per_second"] for r in after])
    for name, runs in [("before", before), ("after", after)]:
        step = med([r["images_per_second"] for r in runs])
        loop = med([r["loop_images_per_second"] for r in runs])
        ratio = med([r.get("ratio_to_torch_channels_last") for r in runs]) if name == "after" else step / torch_cl
        print(f"| {core} | {name} | {f(step)} | {f(loop)} | {f(100 * loop / step, '%.0f%%')} | "
              f"{f(torch_cl) if name == 'after' else ''} | {f(med([r['torch_images_per_second'] for r in after])) if name == 'after' else ''} | "
              f"{f(ratio, '%.2f')}{'' if name == 'after' else ' (against the after runs)'} |")
print()
print("Parts of the whole loop (ms a step, medians):\n")
parts = ["data_wait", "loss_and_matching", "backbone", "fpn", "heads", "optimizer"]
print("| kernels | build | " + " | ".join(parts) + " |")
print("| --- | --- | " + " | ".join("---:" for _ in parts) + " |")
for core in ["Cooperlake", "Haswell"]:
    for name in ["before", "after"]:
        runs = load(f"train-{name}-{core}-*.json")
        print(f"| {core} | {name} | " + " | ".join(f(1000 * med([r['part_seconds'].get(p, 0) for r in runs]), "%.0f") for p in parts) + " |")

print("\n## Batch-1 forward against onnxruntime on our export, same threads, same run\n")
print("| kernels | network | threads | ours before (ms) | ours after (ms) | onnxruntime (ms) | onnxruntime / ours after |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for core in ["Cooperlake", "Haswell"]:
    for net in ["bench", "paper-size"]:
        for t in [1, 2]:
            after, before = load(f"onnx-after-{core}-{net}-t{t}-*.json"), load(f"onnx-before-{core}-{net}-t{t}-*.json")
            print(f"| {core} | {net} | {t} | {f(med([r['ours_ms'] for r in before]))} | {f(med([r['ours_ms'] for r in after]))} | "
                  f"{f(med([r.get('onnxruntime_ms') for r in after]))} | {f(med([r.get('ratio') for r in after]), '%.2f')} |")

print("\n## Evaluator, 5,002 screens, 200,080 detections\n")
print("| build | ours core (s) | of which parsing | pycocotools core (s) | core ratio | `uidetect evaluate` (s) | pycocotools script (s) | command ratio |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for name in ["before", "after"]:
    for r in load(f"evaluate-{name}.json"):
        print(f"| {name} | {r['ours_seconds']:.3f} | {r['parse_seconds']:.3f} | {f(r.get('pycocotools_seconds'), '%.2f')} | {f(r.get('speedup'), '%.1fx')} | "
              f"{f(r.get('command_seconds'), '%.2f')} | {f(r.get('pycocotools_script_seconds'), '%.1f')} | {f(r.get('command_speedup'), '%.1fx')} |")
