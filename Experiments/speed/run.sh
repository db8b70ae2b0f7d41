#!/usr/bin/env bash
# Issue 13's measurements, before and after, in one session on a quiet machine:
#   Experiments/speed/run.sh BEFORE_UIDETECT
# BEFORE_UIDETECT: a release build of the commit before the work (git worktree add ../before 2889c0f;
# cd ../before && scripts/build.sh). Needs scripts/setup.sh --bench (torch, onnxruntime, pycocotools)
# and ../shared/anchors/torch_ssd. Each figure is a median inside one invocation (--runs); every
# invocation with PyTorch or onnxruntime alternates them with ours.
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?give the uidetect of the before build}
after=.build/release/uidetect
out=Experiments/speed/results
mkdir -p "$out"
anchor=../shared/anchors/torch_ssd
# OpenBLAS's own choice on this CPU (Cooperlake), and the Haswell kernels this machine's environment forces.
for core in Cooperlake Haswell; do
    for rep in 1 2 3; do
        OPENBLAS_CORETYPE=$core "$after" bench train --config Configs/bench.yaml --steps 20 --runs 3 --torch-anchor "$anchor" --json > "$out/train-after-$core-$rep.json"
        OPENBLAS_CORETYPE=$core "$before" bench train --config Configs/bench.yaml --steps 20 --runs 3 --json > "$out/train-before-$core-$rep.json"
    done
    for net in bench paper-size; do
        runs=31; [ "$net" = paper-size ] && runs=11
        for t in 1 2; do
            for rep in 1 2 3; do
                OPENBLAS_CORETYPE=$core "$after" bench onnx --config Configs/$net.yaml --threads $t --runs $runs --json > "$out/onnx-after-$core-$net-t$t-$rep.json"
                OPENBLAS_CORETYPE=$core "$before" bench onnx --config Configs/$net.yaml --threads $t --runs $runs --json > "$out/onnx-before-$core-$net-t$t-$rep.json"
            done
            OPENBLAS_CORETYPE=$core "$after" bench onnx --config Configs/$net.yaml --threads $t --runs $runs --profile --json > "$out/onnx-profile-$core-$net-t$t.json"
        done
    done
done
"$after" bench evaluate --runs 5 --json > "$out/evaluate-after.json"
"$before" bench evaluate --runs 5 --json > "$out/evaluate-before.json"
