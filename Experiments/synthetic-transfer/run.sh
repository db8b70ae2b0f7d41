#!/usr/bin/env bash
# Synthetic-only training scored on real screens (issue 15, "Synthetic screens that transfer"):
# the quickstart detector and Configs/synthetic-pretrain.yaml, each evaluated on the 299 real valid
# screens of ../shared/data/real-ui-screens on the 8 classes the class map shares with our vocabulary.
# Needs scripts/run.sh first (the synthetic data, the quickstart run and its validation screens).
set -euo pipefail
cd "$(dirname "$0")/../.."
uidetect=.build/release/uidetect
out=Experiments/synthetic-transfer
real="${REAL_UI_SCREENS:-../shared/data/real-ui-screens}"
if [ ! -d data/real-ui/valid ]; then
    "$uidetect" import yolo "$real/valid" --out data/real-ui/valid.partial --size 256x512
    mv data/real-ui/valid.partial data/real-ui/valid
fi
[ -d data/synthetic-8k ] || "$uidetect" synth --count 8000 --seed 1 --out data/synthetic-8k
# A run folder there (even one killed before its first checkpoint) is resumed, never deleted.
if [ -e Experiments/synthetic-pretrain/config.yaml ]; then
    "$uidetect" train --name synthetic-pretrain --resume
else
    "$uidetect" train --config Configs/synthetic-pretrain.yaml
fi
for run in quickstart synthetic-pretrain; do
    "$uidetect" evaluate --data data/real-ui/valid --checkpoint "Experiments/$run" \
        --class-map "$real/class-map.yaml" --out "$out/$run-on-real" | tee "$out/$run-on-real.txt"
    # The evaluation's files, without the bulky detections (remade by this script).
    rm -f "$out/$run-on-real/detections.json" "$out/$run-on-real/detections.coco.json" "$out/$run-on-real/pr_curves.csv"
done
"$uidetect" evaluate --data data/synthetic/test --checkpoint Experiments/synthetic-pretrain --out "$out/synthetic-pretrain-on-synthetic-test" \
    | tee "$out/synthetic-pretrain-on-synthetic-test.txt"
rm -f "$out/synthetic-pretrain-on-synthetic-test/"{detections.json,detections.coco.json,pr_curves.csv}
