#!/usr/bin/env bash
# Imports the real screenshots of ../shared/data/real-ui-screens into shards (if missing)
# and trains Configs/real-ui.yaml on them; extra arguments go to `uidetect train`
# (e.g. --resume, --name NAME, --set steps=1000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
uidetect=".build/release/uidetect"
scripts/import-real-ui.sh
"$uidetect" train --config Configs/real-ui.yaml "$@"
