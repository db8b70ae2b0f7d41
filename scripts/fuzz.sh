#!/usr/bin/env bash
# Builds the fuzz targets of Fuzz/ (libFuzzer with AddressSanitizer) and runs each for a while.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     # default: 600 s for each of the five targets
#   UIDETECT_FUZZ_JOBS=2 scripts/fuzz.sh 600  # two targets at a time (one core each)
#
# Each target starts from its committed seeds (Fuzz/Corpus/TARGET) plus what earlier runs on this
# machine found (Fuzz/.build/corpus/TARGET). An input that crashes, leaks past the memory limit or
# hangs is saved in Fuzz/.build/findings/TARGET/ and the script exits non-zero: turn each one into
# a regression test of the normal suite (the input as a fixture, the error it should get).
# The toolchain's own libFuzzer is used: nothing to install beyond scripts/setup.sh's packages.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzDetectionJSON FuzzSafetensors FuzzShardReader FuzzRunConfig FuzzImageDecode)
jobs=${UIDETECT_FUZZ_JOBS:-1}

# lld: gold fails on the sanitizer runtimes' debug info. -O keeps the executions per second up; bounds checks and overflow traps stay on, and ASan adds the rest.
# C targets of the package (Yams's libyaml) get coverage and ASan too.
swift build --package-path Fuzz -c release $(scripts/build-flags.sh) \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld

bin=$(swift build --package-path Fuzz -c release --show-bin-path)
mkdir -p Fuzz/.build/corpus Fuzz/.build/findings Fuzz/.build/logs

run_one() {
    local target=$1 seconds=$2 bin=$3
    local corpus=Fuzz/.build/corpus/$target findings=Fuzz/.build/findings/$target log=Fuzz/.build/logs/$target.log
    mkdir -p "$corpus" "$findings"
    # Limits: an input may take 2 GB and 20 s at most; anything above is a finding (the readers check
    # declared sizes before allocating, so a few hundred bytes must never cost gigabytes).
    # Leak checking is off: HDF5 and Tesseract keep caches for the life of the process.
    # Debian's libhdf5 1.10.8 itself reads out of bounds on some damaged files (Experiments/fuzzing):
    # in fork mode the shard target goes on past such an input and keeps it for triage.
    local extra=()
    [ "$target" = FuzzShardReader ] && extra=(-fork=1 -ignore_crashes=1)
    "$bin/$target" "$corpus" "Fuzz/Corpus/$target" "${extra[@]}" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=2048 \
        -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$findings/" > "$log" 2>&1 || true
    local execs cov found
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    found=$(find "$findings" -type f | wc -l)
    printf '%-18s %6s s  %10s runs  %6s edges  %4s corpus  %2s findings  (log %s)\n' \
        "$target" "$seconds" "$execs" "$cov" "$(ls "$corpus" | wc -l)" "$found" "$log"
}
export -f run_one
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} "$seconds" "$bin"

if find Fuzz/.build/findings -type f | grep -q .; then
    echo "findings (crash, out-of-memory or timeout inputs; delete each once it is a regression test):"
    find Fuzz/.build/findings -type f
    exit 1
fi
