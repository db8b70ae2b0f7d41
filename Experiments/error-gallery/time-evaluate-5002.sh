#!/usr/bin/env bash
# `uidetect evaluate` on 5,002 synthetic screens with noisy detections, before and after the error
# analysis, alternated, three runs each: usage time-evaluate-5002.sh BEFORE_UIDETECT [AFTER_UIDETECT]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=$1 after=${2:-.build/release/uidetect} work=${WORK:-/tmp/big}
if [ ! -e "$work/detections.json" ]; then
    mkdir -p "$work"
    "$after" synth --count 5002 --seed 11 --out "$work/data" > /dev/null
    "$after" export-data coco "$work/data" --out "$work/instances.json" > /dev/null
    python3 Experiments/error-gallery/make_detections.py "$work/instances.json" "$work/detections.json" 1
fi
for i in 1 2 3; do
    for v in before after; do
        bin=$before; [ "$v" = after ] && bin=$after
        rm -rf "$work/$v-$i"
        s=$(date +%s.%N)
        "$bin" evaluate --data "$work/data" --detections "$work/detections.json" --out "$work/$v-$i" > "$work/$v-$i.txt" 2>&1
        e=$(date +%s.%N)
        echo "$v run $i: $(echo "$e - $s" | bc) s"
    done
done
