#!/usr/bin/env bash
# Issue 28: real screenshots described with their true boxes standing in for detections, through the
# real-screen vocabulary map, scored against the interactive truth derived at import; and 20 screens
# described before (main before issue 28, through the class map into the default vocabulary) and after.
# UIDETECT_BEFORE: a uidetect built from main before issue 28 (optional; without it the "before" part is skipped).
set -euo pipefail
cd "$(dirname "$0")/../.."
uidetect=${UIDETECT:-.build/release/uidetect}
before=${UIDETECT_BEFORE:-}
real=${UIDETECT_SHARED:-../shared}/data/real-ui-screens
data=data/real-screens
out=Experiments/real-screens

# Stored at 400x640: the screenshots (385x640, 296x640, 360x640) keep their own pixels, for OCR and the colour cues.
[ -d "$data/valid" ] || "$uidetect" import yolo "$real/valid" --out "$data/valid" --size 400x640 --interactive-truth | tee "$out/import-valid.txt"

# All 299 valid screens, true boxes, without OCR (interactivity, order and groups alone) and with OCR.
"$uidetect" describe --boxes-from-truth --no-ocr --no-pages --data "$data/valid" --out "$data/described-no-ocr"
"$uidetect" evaluate-description --data "$data/valid" --description "$data/described-no-ocr/description.json" \
    --out "$data/metrics-no-ocr" | tee "$out/metrics-truth-boxes-no-ocr.txt"
"$uidetect" describe --boxes-from-truth --no-pages --data "$data/valid" --out "$data/described"
"$uidetect" evaluate-description --data "$data/valid" --description "$data/described/description.json" \
    --out "$data/metrics" | tee "$out/metrics-truth-boxes.txt"

# 20 screens (every 15th of the valid split in file order) with their pages, after and before.
sample="$data/sample20"
if [ ! -d "$sample/yolo" ]; then
    mkdir -p "$sample/yolo/images" "$sample/yolo/labels"
    ls "$real/valid/images" | sort | awk 'NR % 15 == 1' | head -20 | while read -r f; do
        cp "$real/valid/images/$f" "$sample/yolo/images/"
        cp "$real/valid/labels/${f%.*}.txt" "$sample/yolo/labels/"
    done
    cp "$real/data.yaml" "$sample/yolo/data.yaml"
fi
[ -d "$sample/real" ] || "$uidetect" import yolo "$sample/yolo" --out "$sample/real" --size 400x640 --interactive-truth
"$uidetect" describe --boxes-from-truth --data "$sample/real" --out "$out/after"
if [ -n "$before" ]; then
    # Before issue 28 the steps knew only the default vocabulary: the real classes go through the class map
    # (text, icon, picture, text_field, page_control, dialog, container, toggle; the rest dropped).
    [ -d "$sample/mapped" ] || "$uidetect" import yolo "$sample/yolo" --out "$sample/mapped" --size 400x640 --class-map "$real/class-map.yaml"
    "$before" describe --boxes-from-truth --data "$sample/mapped" --out "$out/before"
    python3 "$out/table.py" "$out/before" "$out/after" > "$out/screens.md"
fi

# With the real-screen detector (section 3: Configs/real-ui-finetune.yaml, trained by Experiments/real-ui-recipe/run.sh)
# in place of the true boxes, its validation's max-F1 thresholds, and the icon classifier of Experiments/icons.
detector=${REAL_UI_DETECTOR:-Experiments/real-ui-recipe/real-ui-finetune}
classifier=Experiments/icons/icon-classifier-40000/icon-classifier.safetensors
if [ -e "$detector/checkpoints/best" ]; then
    found=(--checkpoint "$detector" --thresholds "$detector/validation/thresholds.json" --icon-classifier "$classifier")
    "$uidetect" describe "${found[@]}" --no-pages --data "$data/valid" --out "$data/detected"
    "$uidetect" evaluate-description --data "$data/valid" --description "$data/detected/description.json" \
        --out "$data/metrics-detector" | tee "$out/metrics-detector.txt"
    "$uidetect" describe "${found[@]}" --data "$sample/real" --out "$out/after-detector"
    python3 "$out/table.py" "true boxes=$out/after" "detector=$out/after-detector" > "$out/screens-detector.md"
fi
