#!/usr/bin/env bash
# The main job on the built-in default: set up, build (release), check the engine, benchmark it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product uidetect 2>&1 | grep -v '^\[' || true
uidetect=".build/release/uidetect"
[ -x "$uidetect" ] || { echo "run: build failed" >&2; exit 1; }
"$uidetect" selfcheck
"$uidetect" bench engine "$@"
