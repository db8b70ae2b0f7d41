#!/usr/bin/env bash
# Issue 29's figures on the machine this runs on (nothing else running; about 30 minutes):
#   Experiments/speed/issue-29/run.sh [NAME]
# NAME (default: the date) names the folder under results/ that gets every JSON. Needs scripts/setup.sh --bench
# (PyTorch for --torch-anchor, onnxruntime) and ../shared/anchors/torch_ssd. Every bench names the CPU model (with its family
# and model numbers), the vector registers the build targets, OpenBLAS's kernel set and the thread count in its output; summarize.py prints the tables of the README.
set -euo pipefail
cd "$(dirname "$0")/../../.."
scripts/build.sh
uidetect=.build/release/uidetect
out=Experiments/speed/issue-29/results/${1:-$(date +%F)}
mkdir -p "$out"
anchor=../shared/anchors/torch_ssd
for rep in 1 2 3; do
    # The step alone against PyTorch channels-last (the spec's bench network), then the whole loop as train runs it,
    # then each layer against PyTorch's profiler (runs of their own).
    "$uidetect" bench train --config Configs/bench.yaml --steps 20 --runs 3 --torch-anchor "$anchor" --layers --json > "$out/train-bench-$rep.json"
    "$uidetect" bench train --config Configs/real-ui-finetune.yaml --steps 20 --runs 3 --json > "$out/train-real-ui-$rep.json"
done
for net in bench paper-size; do
    for t in 1 2; do
        "$uidetect" bench onnx --config Configs/$net.yaml --threads $t --runs 21 --pairs 5 --json > "$out/onnx-$net-t$t.json"
    done
done
for rep in 1 2 3; do
    # Every pass of the bench network, and of the quickstart / real-screen network (the one users train).
    "$uidetect" bench engine --json > "$out/engine-bench-$rep.json"
    "$uidetect" bench engine --config Configs/quickstart.yaml --json > "$out/engine-quickstart-$rep.json"
    # The input pipeline on one core: default synthetic screens, and the real screens where imported.
    "$uidetect" bench data --json > "$out/data-synthetic-$rep.json"
    if [ -d data/real-ui/train ]; then "$uidetect" bench data --data data/real-ui/train --json > "$out/data-real-ui-$rep.json"; fi
done
python3 Experiments/speed/issue-29/summarize.py "$out"
