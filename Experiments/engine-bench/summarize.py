#!/usr/bin/env python3
"""Medians over the runN.json files written by `uidetect bench engine --json`."""
import glob, json, statistics, sys

runs = [json.load(open(p)) for p in sorted(glob.glob(sys.argv[1] if len(sys.argv) > 1 else "run*.json"))]
med = lambda xs: statistics.median(xs)
print(f"{len(runs)} runs, {runs[0]['threads']} threads, medians of {runs[0]['repeats']} timings each\n")
print(f"sgemm {runs[0]['sgemm_shape']}: median {med([r['sgemm_gflops'] for r in runs]):.1f} GFLOP/s "
      "(runs: " + ", ".join("%.1f" % r["sgemm_gflops"] for r in runs) + ")")
print(f"conv_min_ratio: median {med([r['conv_min_ratio'] for r in runs]):.2f}\n")
print("| conv | kind | shape | fwd GFLOP/s | fwd+bwd GFLOP/s | fwd+bwd / sgemm |\n|---|---|---|---|---|---|")
for i, c in enumerate(runs[0]["convolutions"]):
    f = med([r["convolutions"][i]["forwardGFLOPS"] for r in runs])
    fb = med([r["convolutions"][i]["forwardBackwardGFLOPS"] for r in runs])
    ratio = med([r["convolutions"][i]["ratioToSGEMM"] for r in runs])
    print(f"| {c['name']} | {c['kind']} | {c['shape']} | {f:.1f} | {fb:.1f} | {100*ratio:.0f}% |")
for key, title in [("depthwise", "depthwise conv"), ("batch_norm", "batch norm (training)")]:
    print(f"\n| {title} | shape | fwd GB/s | bwd GB/s | memcpy GB/s | fwd / memcpy | bwd / memcpy |\n|---|---|---|---|---|---|---|")
    for i, b in enumerate(runs[0][key]):
        m = lambda k: med([r[key][i][k] for r in runs])
        print(f"| {b['name']} | {b['shape']} | {m('forwardGBps'):.1f} | {m('backwardGBps'):.1f} | {m('memcpyGBps'):.1f} "
              f"| {100*m('forwardRatio'):.0f}% | {100*m('backwardRatio'):.0f}% |")
