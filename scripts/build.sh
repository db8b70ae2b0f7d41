#!/usr/bin/env bash
# Sets up and builds `uidetect` in release mode, tuned for this machine's CPU; shows the
# compiler's output only when it fails. The binary is .build/release/uidetect. Extra arguments go to `swift build`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mkdir -p .build
echo "build: compiling uidetect (release, tuned for this CPU; a few minutes the first time)" >&2
# shellcheck disable=SC2046
if ! swift build -c release $(scripts/build-flags.sh) --product uidetect "$@" > .build/release-build.log 2>&1; then
    cat .build/release-build.log >&2
    echo "build: failed (the log above)" >&2
    exit 1
fi
