#!/usr/bin/env bash
# Issue 28, section 3: the shipped real-screen recipe. Once: the synthetic pretrain (Configs/synthetic-pretrain.yaml,
# 12,000 steps on 8,000 synthetic screens, validated on the main job's synthetic validation screens). Then the
# recipe: Configs/real-ui-finetune.yaml, 13,000 steps on the 2,402 real training screens from the pretrain's
# weights, validated on the 299 real valid screens. Each step is skipped when its output exists; an interrupted
# training run is resumed. Extra arguments go to the fine-tune's `uidetect train` (e.g. --set steps=1000).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/build.sh
uidetect=.build/release/uidetect
real="${REAL_UI_SCREENS:-../shared/data/real-ui-screens}"

if [ ! -d data/synthetic/val ]; then
    # The main job's data set (scripts/run.sh makes the same): 2,000 screens, seed 0, split by app.
    rm -rf data/synthetic/all
    "$uidetect" synth --count 2000 --seed 0 --out data/synthetic/all
    "$uidetect" split data/synthetic/all --out data/synthetic --fractions 0.8,0.1,0.1 --seed 0
fi
if [ ! -d data/synthetic-8k ]; then
    "$uidetect" synth --count 8000 --seed 1 --out data/synthetic-8k.partial
    mv data/synthetic-8k.partial data/synthetic-8k
fi
if [ -e Experiments/synthetic-pretrain/config.yaml ]; then
    "$uidetect" train --name synthetic-pretrain --resume
else
    "$uidetect" train --config Configs/synthetic-pretrain.yaml
fi

for split in train valid; do
    if [ ! -d "data/real-ui/$split" ]; then
        "$uidetect" import yolo "$real/$split" --out "data/real-ui/$split.partial" --size 256x512
        mv "data/real-ui/$split.partial" "data/real-ui/$split"
    fi
done
out=Experiments/real-ui-recipe
if [ -e "$out/real-ui-finetune/config.yaml" ]; then
    "$uidetect" train --name real-ui-finetune --runs "$out" --resume "$@"
else
    "$uidetect" train --config Configs/real-ui-finetune.yaml --runs "$out" "$@"
fi
