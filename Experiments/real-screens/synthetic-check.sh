#!/usr/bin/env bash
# Issue 28's check on synthetic screens: the heuristics on true boxes without OCR, before (UIDETECT_BEFORE,
# main before issue 28) and after, on 100 held-out synthetic screens (the first 100 of
# Experiments/screen-description's test set: seed 2026, 540x1170), one icon-interactivity model for both.
set -euo pipefail
cd "$(dirname "$0")/../.."
uidetect=${UIDETECT:-.build/release/uidetect}
before=${UIDETECT_BEFORE:?a uidetect built from main before issue 28}
data=data/real-screens/synthetic
out=Experiments/real-screens
[ -d "$data/test" ] || "$uidetect" synth --count 100 --seed 2026 --size 540x1170 --out "$data/test"
[ -d "$data/icons-train" ] || "$uidetect" synth --count 150 --seed 2027 --size 540x1170 --out "$data/icons-train"
[ -d "$data/icons-val" ] || "$uidetect" synth --count 50 --seed 2028 --size 540x1170 --out "$data/icons-val"
[ -f "$data/icons.json" ] || "$uidetect" train-icons --data "$data/icons-train" --val "$data/icons-val" --out "$data/icons.json"
for who in before after; do
    bin=$uidetect; [ "$who" = before ] && bin=$before
    "$bin" describe --boxes-from-truth --no-ocr --no-pages --icon-model "$data/icons.json" --data "$data/test" --out "$data/$who"
    "$uidetect" evaluate-description --data "$data/test" --description "$data/$who/description.json" --out "$data/$who-metrics" \
        | tee "$out/synthetic-$who.txt"
done
# The rules of issue 28 switched off: what is left of the change is the vocabulary plumbing, which must change nothing.
"$uidetect" describe --boxes-from-truth --no-ocr --no-pages --icon-model "$data/icons.json" --data "$data/test" --out "$data/after-rules-off" \
    --set status_bar.enabled=false --set empty_elements.enabled=false
"$uidetect" evaluate-description --data "$data/test" --description "$data/after-rules-off/description.json" --out "$data/after-rules-off-metrics" \
    | tee "$out/synthetic-after-rules-off.txt"
