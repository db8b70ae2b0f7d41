#!/usr/bin/env bash
# Icon recognition (issue 27): the classifier trained on the four Debian icon packages, scored on icon
# families it never saw and on real icons cut from screenshots; a run trained without bootstrap-icons and
# scored on them; time per screen's icons; icon types through describe; the interactivity model with and
# without the type. Release build (scripts/build.sh); needs the quickstart run of scripts/run.sh for the
# describe steps. The test sets are made by test-sets/ (Python, Pillow, CairoSVG; PyPI and Debian only).
set -euo pipefail
cd "$(dirname "$0")/../.."
uidetect=.build/release/uidetect
out=Experiments/icons
tests=${ICON_TESTS:-data/icon-tests}

# The test sets (section A-C of test-sets/README.md): never trained on.
if [ ! -d "$tests/heldout-crops" ]; then
    python3 -m venv /tmp/iv && /tmp/iv/bin/pip install -q pillow cairosvg fonttools
    bash "$out/test-sets/fetch_heldout.sh" /tmp/heldout
    /tmp/iv/bin/python "$out/test-sets/render_heldout_crops.py" "$tests/heldout-crops" --root /tmp/heldout
    /tmp/iv/bin/python "$out/test-sets/make_real_crops.py" "$tests/real-crops-unbiased" --rows 1-1463
fi

# The classifier of this record (Configs/icon-classifier.yaml with 8,000 steps) and one without bootstrap-icons.
for run in "icon-classifier-8000 --set steps=8000" \
           "no-bootstrap --set steps=8000 --set data.families=[material,font-awesome,fork-awesome] --set data.held_out_families=[bootstrap]"; do
    set -- $run
    name=$1; shift
    if [ -e "$out/$name/checkpoints/last" ]; then
        "$uidetect" train-icon-classifier --name "$name" --runs "$out" --resume
    elif [ ! -e "$out/$name/icon-classifier.safetensors" ]; then
        "$uidetect" train-icon-classifier --config Configs/icon-classifier.yaml --name "$name" --runs "$out" --set eval_interval=2000 "$@"
    fi
done

# Scores on crops: real icons (unbiased rows), each held-out family, and bootstrap for the run that never saw it.
for name in icon-classifier-8000 no-bootstrap; do
    "$uidetect" evaluate-icons --model "$out/$name" "$tests/real-crops-unbiased" | tee "$out/$name/real-crops.txt"
    "$uidetect" evaluate-icons --model "$out/$name" --json "$tests/real-crops-unbiased" > "$out/$name/real-crops.json"
    for family in "$tests"/heldout-crops/*/; do
        f=$(basename "$family")
        "$uidetect" evaluate-icons --model "$out/$name" --json "$family" > "$out/$name/heldout-$f.json"
    done
done

# Time per screen's icons (40), 1 and 2 threads; three runs.
for i in 1 2 3; do "$uidetect" bench icons --json > "$out/bench-icons-$i.json"; done
