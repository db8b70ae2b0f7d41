#!/usr/bin/env bash
# Runs the whole test suite once per OpenBLAS kernel set, to show that no test depends on the
# rounding of one machine's GEMM kernels (OpenBLAS picks its kernels per CPU; other machines
# round differently). Usage: scripts/test-kernels.sh [CORETYPE ...]
# (default: Cooperlake SkylakeX Haswell Zen). A kernel set this CPU cannot run (its probe dies,
# e.g. SkylakeX without AVX-512) or that OpenBLAS replaces by another one already run
# (Cooperlake without AVX512_BF16 becomes Haswell) is reported and skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
cores=("$@")
((${#cores[@]})) || cores=(Cooperlake SkylakeX Haswell Zen)

# The kernels OpenBLAS really uses for a requested core type, after one small sgemm (which
# dies with SIGILL when the CPU lacks the kernels' instructions).
probe() {
    OPENBLAS_CORETYPE="$1" python3 - <<'PY'
import ctypes, ctypes.util
blas = ctypes.CDLL(ctypes.util.find_library("openblas") or "libopenblas.so.0")
n = 64
a = (ctypes.c_float * (n * n))(*([0.5] * (n * n)))
c = (ctypes.c_float * (n * n))()
blas.cblas_sgemm(101, 111, 111, n, n, n, ctypes.c_float(1), a, n, a, n, ctypes.c_float(0), c, n)
blas.openblas_get_corename.restype = ctypes.c_char_p
print(blas.openblas_get_corename().decode())
PY
}

declare -A ran=()
failed=() passed=() skipped=()
for core in "${cores[@]}"; do
    actual=$(probe "$core" 2>/dev/null)
    status=$?
    if [ $status -ne 0 ]; then
        echo "== $core: skipped: this CPU cannot run OpenBLAS's $core kernels (the probe ended with status $status)"
        skipped+=("$core")
        continue
    fi
    if [ -n "${ran[$actual]:-}" ]; then
        echo "== $core: skipped: OpenBLAS uses $actual kernels for it on this CPU, already run"
        skipped+=("$core")
        continue
    fi
    [ "$actual" = "$core" ] || echo "== $core: OpenBLAS uses $actual kernels for it on this CPU"
    echo "== $core ($actual kernels): scripts/test.sh"
    log=$(mktemp)
    if OPENBLAS_CORETYPE="$core" scripts/test.sh >"$log" 2>&1; then
        passed+=("$core")
    else
        failed+=("$core")
        grep -E "error:|failed" "$log" | grep -v "with 0 failures" | head -20
    fi
    tail -n 1 "$log"
    rm -f "$log"
    ran[$actual]=1
done
echo
echo "passed: ${passed[*]:-none}; failed: ${failed[*]:-none}; skipped: ${skipped[*]:-none}"
((${#failed[@]} == 0))
