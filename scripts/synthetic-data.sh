#!/usr/bin/env bash
# The main job's synthetic data set, if missing: 2,000 screens (seed 0) in data/synthetic/all, split by app
# into data/synthetic/{train,val,test}. Needs the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
data=data/synthetic
if [ ! -d "$data/train" ]; then
    rm -rf "$data/all"
    .build/release/uidetect synth --count 2000 --seed 0 --out "$data/all"
    .build/release/uidetect split "$data/all" --out "$data" --fractions 0.8,0.1,0.1 --seed 0
fi
