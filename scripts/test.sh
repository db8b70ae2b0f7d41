#!/usr/bin/env bash
# Set up and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
# The suite is XCTest; the empty Swift Testing pass would close the log with "0 tests".
# shellcheck disable=SC2046
swift test $(scripts/build-flags.sh) --disable-swift-testing "$@"
