#!/usr/bin/env bash
# Imports the real screenshots of ../shared/data/real-ui-screens into shards (if missing)
# and trains Configs/real-ui.yaml on them; extra arguments go to `uidetect train`
# (e.g. --resume, --name NAME, --set steps=1000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
uidetect=".build/release/uidetect"
source="${REAL_UI_SCREENS:-../shared/data/real-ui-screens}"
for split in train valid; do
    if [ ! -d "data/real-ui/$split" ]; then
        "$uidetect" import yolo "$source/$split" --out "data/real-ui/$split.partial" --size 256x512
        mv "data/real-ui/$split.partial" "data/real-ui/$split"
    fi
done
"$uidetect" train --config Configs/real-ui.yaml "$@"
