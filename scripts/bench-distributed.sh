#!/usr/bin/env bash
# Data-parallel training on this machine: 1 rank x 2 threads against 2 ranks x 1 thread (MPI over
# shared memory/TCP), the `bench` network on the synthetic training screens, REPEATS runs of each
# interleaved (default 3). Prints one line per run and the medians: images/s over the logged windows
# after the first (warm-up) and, for 2 ranks, the mean time of one gradient sum (allreduce).
# Needs the release build and data/synthetic/train (scripts/run.sh makes both). Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
uidetect=.build/release/uidetect
repeats=${REPEATS:-3}
steps=${STEPS:-120}
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
common=(--config Configs/bench.yaml --runs "$runs" --set steps="$steps" --set log_interval=20
        --set eval_interval=100000 --set checkpoint_interval=100000 --set data.val=[])

# images/s: median of the "N images/s" windows after the first; allreduce: the "summing over" line.
summarise() {
    local log=$1
    local rate ms
    rate=$(grep -o '[0-9.]* images/s' "$log" | awk 'NR>1 {print $1}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    ms=$(grep -o 'calls, [0-9.]* ms each' "$log" | awk '{print $2}' || true)
    echo "$rate ${ms:--}"
}

declare -a one two twoms
for r in $(seq 1 "$repeats"); do
    "$uidetect" train "${common[@]}" --name "one-$r" --set threads=2 > "$runs/one-$r.out" 2>&1
    read -r rate _ < <(summarise "$runs/one-$r/train.log")
    one+=("$rate"); echo "run $r: 1 rank x 2 threads: $rate images/s"
    mpirun "${root[@]}" -np 2 --bind-to none "$uidetect" train "${common[@]}" --name "two-$r" --set threads=1 > "$runs/two-$r.out" 2>&1
    read -r rate ms < <(summarise "$runs/two-$r/train.log")
    two+=("$rate"); twoms+=("$ms"); echo "run $r: 2 ranks x 1 thread: $rate images/s, $ms ms per gradient sum"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median: 1 rank x 2 threads $(median "${one[@]}") images/s; 2 ranks x 1 thread $(median "${two[@]}") images/s, $(median "${twoms[@]}") ms per gradient sum"
