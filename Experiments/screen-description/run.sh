#!/usr/bin/env bash
# Screen descriptions on held-out synthetic screens (issue 14): the heuristics on their own (true boxes in
# place of detections) and the whole chain (the quickstart detector, then describe), each scored against
# the synthesizer's ground truth beside the paper's figures. Needs the quickstart run (scripts/run.sh).
# Screens are rendered at 540x1170 (stored), about half an iPhone's pixels, so that tints and text are legible.
set -euo pipefail
cd "$(dirname "$0")/../.."
uidetect=.build/release/uidetect
data=data/description
out=Experiments/screen-description
detector=Experiments/quickstart
[ -d "$data/test" ] || "$uidetect" synth --count 200 --seed 2026 --size 540x1170 --out "$data/test"
[ -d "$data/icons-train" ] || "$uidetect" synth --count 300 --seed 2027 --size 540x1170 --out "$data/icons-train"
[ -d "$data/icons-val" ] || "$uidetect" synth --count 100 --seed 2028 --size 540x1170 --out "$data/icons-val"

"$uidetect" train-icons --data "$data/icons-train" --val "$data/icons-val" --checkpoint "$detector" | tee "$out/train-icons.txt"

# The heuristics on their own: every true box, with OCR for the labels.
"$uidetect" describe --boxes-from-truth --icon-model "$detector/icon-interactivity.json" --data "$data/test" \
    --out "$out/truth-boxes" | tee "$out/describe-truth-boxes.txt"
"$uidetect" evaluate-description --data "$data/test" --description "$out/truth-boxes/description.json" \
    --out "$out/truth-boxes-metrics" | tee "$out/metrics-truth-boxes.txt"

# The heuristics alone: every true box and no OCR, so no text is added where OCR reads something unboxed
# (keyboard keys, words clipped at a screen's edge), which the goal's figures measure.
"$uidetect" describe --boxes-from-truth --no-ocr --no-pages --icon-model "$detector/icon-interactivity.json" --data "$data/test" \
    --out "$out/truth-boxes-no-ocr" | tee "$out/describe-truth-boxes-no-ocr.txt"
"$uidetect" evaluate-description --data "$data/test" --description "$out/truth-boxes-no-ocr/description.json" \
    --out "$out/truth-boxes-no-ocr-metrics" | tee "$out/metrics-truth-boxes-no-ocr.txt"

# What a user gets: the detector's boxes (its max-F1 thresholds from the quickstart's test evaluation).
"$uidetect" describe --checkpoint "$detector" --thresholds "$detector/test-evaluation/thresholds.json" --data "$data/test" \
    --out "$out/detector" | tee "$out/describe-detector.txt"
"$uidetect" evaluate-description --data "$data/test" --description "$out/detector/description.json" \
    --out "$out/detector-metrics" | tee "$out/metrics-detector.txt"
