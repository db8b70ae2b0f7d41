#!/bin/sh
# The 40-minute comparison of issue 15, arm by arm, one after the other on a quiet machine.
# Needs data/real-ui (scripts/real-ui.sh imports it) and data/synthetic (scripts/run.sh makes it).
set -eu
cd "$(dirname "$0")/../.."
here=Experiments/real-ui-pretrain
for arm in scratch pretrain finetune finetune-ema; do
    start=$(date +%s)
    .build/release/uidetect train --config "$here/$arm.yaml" --runs "$here"
    echo "$arm: $(( $(date +%s) - start )) s" >> "$here/wall-times.txt"
done
