#!/usr/bin/env bash
# Times `uidetect evaluate` (release build) three times under the shared CPU lock and prints each
# wall time: usage time-evaluate.sh UIDETECT DATA DETECTIONS OUT_PREFIX
set -euo pipefail
bin=$1 data=$2 dets=$3 out=$4
for i in 1 2 3; do
    flock /tmp/uidetect-cpu.lock bash -c "s=\$(date +%s.%N); '$bin' evaluate --data '$data' --detections '$dets' --out '$out-$i' > '$out-$i.txt' 2>&1; e=\$(date +%s.%N); echo \"run $i: \$(echo \"\$e - \$s\" | bc) s\""
done
