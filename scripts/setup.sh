#!/usr/bin/env bash
# Installs the C libraries UIDetect links against (Debian packages), quietly when already there.
# With --tests, also the Python packages the test suite checks our files against
# (scripts/requirements-test.txt, pinned); with --bench, those and PyTorch (scripts/requirements-bench.txt).
set -euo pipefail
cd "$(dirname "$0")/.."

# Libraries linked (OpenBLAS, HDF5, libpng, TurboJPEG, FreeType, Open MPI for data-parallel training),
# Tesseract for OCR (its header at build time; describe loads the library when it runs), the font the
# synthetic screens and overlays draw text with,
# Tesseract's English data, mpirun, h5dump, which the tests read our shards with, and the four icon packages whose
# glyphs the synthetic screens draw and the icon classifier learns from (icon-recognition.md).
packages=(pkg-config libopenblas-dev libhdf5-dev hdf5-tools libpng-dev libturbojpeg0-dev libfreetype-dev fonts-dejavu-core
          libtesseract-dev tesseract-ocr-eng libopenmpi-dev openmpi-bin
          fonts-material-design-icons-iconfont fonts-font-awesome fonts-fork-awesome bootstrap-icons)
# --bench: also oneDNN, whose bf16 and int8 GEMMs Experiments/mixed-precision measures against OpenBLAS.
if [ "${1:-}" = "--bench" ]; then packages+=(libdnnl-dev); fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: 'swift' is not on PATH; UIDetect needs Swift 6.0 or later" >&2
    exit 1
fi

# --tests: the Python packages the test suite checks our files against; --bench: those and the
# ones the benchmarks compare against (PyTorch's CPU build: a few hundred MB, so only on request).
requirements=""
case "${1:-}" in
    --tests) requirements=scripts/requirements-test.txt ;;
    --bench) requirements=scripts/requirements-bench.txt ;;
esac
if [ -n "$requirements" ]; then
    log=$(mktemp)
    if ! python3 -m pip install -q --disable-pip-version-check -r "$requirements" >"$log" 2>&1; then
        cat "$log" >&2
        echo "setup: could not install the Python packages of $requirements" >&2
        exit 1
    fi
    rm -f "$log"
fi
