#!/usr/bin/env bash
# The main job on the built-in default: set up and build (release); check the engine;
# synthesize the default data set if it is missing and split it by app; print its
# statistics and draw one screen; then measure the input pipeline and the engine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product uidetect 2>&1 | grep -v '^\[' || true
uidetect=".build/release/uidetect"
[ -x "$uidetect" ] || { echo "run: build failed" >&2; exit 1; }

"$uidetect" selfcheck

data=data/synthetic
if [ ! -d "$data/train" ]; then
    rm -rf "$data/all"
    "$uidetect" synth --count 2000 --seed 0 --out "$data/all"
    "$uidetect" split "$data/all" --out "$data" --fractions 0.8,0.1,0.1 --seed 0
fi
"$uidetect" stats "$data/train"
"$uidetect" show "$data/train/train-00000.h5" --index 0 --out "$data/example.png"

"$uidetect" bench data --data "$data/train"
"$uidetect" bench engine "$@"
