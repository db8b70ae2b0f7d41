#!/usr/bin/env bash
# Sorts fuzz findings by where they fail: the first stack frame outside the sanitizer, libFuzzer and
# libc's memory functions, i.e. whose code did the bad access or spun (ours, or a Debian library's).
#   Experiments/fuzzing/triage.sh FuzzShardReader
set -euo pipefail
cd "$(dirname "$0")/../.."
target=$1
bin=Fuzz/.build/release/$target
for f in Fuzz/.build/findings/$target/*; do
    [ -f "$f" ] || continue
    frame=$("$bin" -timeout=5 -rss_limit_mb=2560 -malloc_limit_mb=2048 "$f" 2>&1 | grep -E '^ +#[0-9]+ ' \
        | grep -vE 'compiler-rt|libFuzzer|fuzzer::|__asan|__sanitizer|libc\.so|memcpy|memmove|memset' | head -1 \
        | sed -E 's/^ +#[0-9]+ 0x[0-9a-f]+ (in )?//; s/ \(BuildId.*//; s/\+0x[0-9a-f]+\)/)/' || true)
    printf '%-58s %s\n' "$(basename "$f")" "${frame:-(no stack: ran clean here)}"
done
