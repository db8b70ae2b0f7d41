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

scripts/synthetic-data.sh    # the main job's screens: the pretrain validates on data/synthetic/val
if [ ! -d data/synthetic-8k ]; then
    "$uidetect" synth --count 8000 --seed 1 --out data/synthetic-8k.partial
    mv data/synthetic-8k.partial data/synthetic-8k
fi
if [ -e Experiments/synthetic-pretrain/config.yaml ]; then
    "$uidetect" train --name synthetic-pretrain --resume
else
    "$uidetect" train --config Configs/synthetic-pretrain.yaml
fi

scripts/import-real-ui.sh
out=Experiments/real-ui-recipe
if [ -e "$out/real-ui-finetune/config.yaml" ]; then
    "$uidetect" train --name real-ui-finetune --runs "$out" --resume "$@"
else
    "$uidetect" train --config Configs/real-ui-finetune.yaml --runs "$out" "$@"
fi
