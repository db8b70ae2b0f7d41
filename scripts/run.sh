#!/usr/bin/env bash
# The main job on the built-in default: set up and build (release); check the engine;
# synthesize the default data set if it is missing and split it by app; train the
# quickstart detector (13-15 minutes on 2 Zen 4 cores, about 45 on a 2.5 GHz Xeon before issue 29; a second call resumes or reuses it);
# evaluate its best checkpoint on the held-out test screens; train the icon-interactivity model and
# the icon classifier beside it; describe the test screens and score the descriptions.
# Extra arguments go to `uidetect train` (e.g. --set steps=500).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
uidetect=".build/release/uidetect"

"$uidetect" selfcheck

data=data/synthetic
scripts/synthetic-data.sh
"$uidetect" stats "$data/train" --skip-pixels

run=Experiments/quickstart
# A run folder there (even one killed before its first checkpoint) is resumed, never deleted.
if [ -e "$run/config.yaml" ]; then
    "$uidetect" train --name quickstart --resume "$@"
else
    "$uidetect" train --config Configs/quickstart.yaml "$@"
fi

"$uidetect" evaluate --data "$data/test" --checkpoint "$run" --out "$run/test-evaluation"

# What describe needs beside the detector: the icon-interactivity model (seconds) and the icon
# classifier (about 8 minutes on 2 Zen 4 cores; resumed if interrupted), so that `describe --checkpoint $run` names icons.
if [ ! -e "$run/icon-interactivity.json" ]; then
    "$uidetect" train-icons --data "$data/train" --val "$data/val" --checkpoint "$run"
fi
icons=Experiments/icon-classifier
if [ ! -e "$icons/icon-classifier.safetensors" ]; then
    if [ -e "$icons/config.yaml" ]; then
        "$uidetect" train-icon-classifier --name icon-classifier --resume
    else
        "$uidetect" train-icon-classifier --config Configs/icon-classifier.yaml
    fi
fi
cp "$icons/icon-classifier.safetensors" "$run/icon-classifier.safetensors"
"$uidetect" describe --checkpoint "$run" --data "$data/test" --no-pages --out "$run/test-description"
"$uidetect" evaluate-description --data "$data/test" --description "$run/test-description/description.json" --out "$run/test-description-evaluation"
echo
echo "The quickstart detector's report on the held-out test screens: $run/test-evaluation/report.html"
echo "What a screen reader would say on them, scored: $run/test-description-evaluation/report.html"
echo "Describe your own screenshots: .build/release/uidetect describe --checkpoint $run SHOT.png --out described"
