#!/usr/bin/env bash
# The heuristics on their own (true boxes, no OCR, the icon model of run.sh) on the held-out screens of
# run.sh (seed 2026), with the paper's steps alone (--paper) and with each rule of ours the issue names
# switched off alone; writes ablation.md. Run after run.sh (it makes the screens and the icon model).
set -euo pipefail
cd "$(dirname "$0")/../.."
uidetect=.build/release/uidetect
data=data/description/test
out=Experiments/screen-description
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
icons=Experiments/quickstart/icon-interactivity.json

variants=(
    "all rules on (the default)|"
    "the paper's steps alone (--paper)|--paper"
    "no icon-text rows (grouping.icon_text.enabled=false)|--set grouping.icon_text.enabled=false"
    "no label above its field (grouping.label_field.enabled=false)|--set grouping.label_field.enabled=false"
    "no list rows (grouping.list_rows.enabled=false)|--set grouping.list_rows.enabled=false"
    "no trailing values (grouping.trailing_values.enabled=false)|--set grouping.trailing_values.enabled=false"
    "no figure captions (grouping.figure_captions.enabled=false)|--set grouping.figure_captions.enabled=false"
    "no ratings (grouping.ratings.enabled=false)|--set grouping.ratings.enabled=false"
)
{
    echo "# Ablation of the grouping rules on the held-out screens (seed 2026, 200 screens)"
    echo
    echo "True boxes in place of detections, no OCR, the icon model of \`run.sh\`; \`ablation.sh\` makes this table."
    echo "Each row switches one rule of ours off (the rest on), or keeps only the paper's steps."
    echo
    echo "| run | grouping errors / screen | incorrectly grouped | reduction | order perfect | order errors / screen | tab selection | segment selection |"
    echo "|---|---|---|---|---|---|---|---|"
} > "$work/table.md"
for v in "${variants[@]}"; do
    name=${v%%|*}
    # shellcheck disable=SC2206
    flags=(${v#*|})
    "$uidetect" describe --boxes-from-truth --no-ocr --no-pages --icon-model "$icons" --data "$data" --out "$work/d" "${flags[@]}" > /dev/null
    "$uidetect" evaluate-description --data "$data" --description "$work/d/description.json" --out "$work/e" > /dev/null
    python3 - "$work/e/metrics.json" "$name" >> "$work/table.md" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
def v(k): return m[k]["value"]
c = m["counts"]
pct = lambda x: "-" if x is None else f"{100 * x:.1f}%"
print(f"| {sys.argv[2]} | {v('grouping_errors_per_screen'):.3f} | {pct(v('incorrectly_grouped_share'))} | {pct(v('element_reduction'))} | "
      f"{pct(v('order_perfect_share'))} | {v('order_mean_errors'):.2f} | {pct(v('tab_button_selection'))} | {pct(v('segment_selection'))} |")
PY
    rm -rf "$work/d" "$work/e"
done
mv "$work/table.md" "$out/ablation.md"
cat "$out/ablation.md"
