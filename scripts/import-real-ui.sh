#!/usr/bin/env bash
# Imports the real screenshots of ../shared/data/real-ui-screens (or $REAL_UI_SCREENS) into data/real-ui/{train,valid}
# at 256 x 512, each split once (a finished import is kept; an interrupted one is redone). Needs the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
source="${REAL_UI_SCREENS:-../shared/data/real-ui-screens}"
for split in train valid; do
    if [ ! -d "data/real-ui/$split" ]; then
        .build/release/uidetect import yolo "$source/$split" --out "data/real-ui/$split.partial" --size 256x512
        mv "data/real-ui/$split.partial" "data/real-ui/$split"
    fi
done
