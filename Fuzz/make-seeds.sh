#!/usr/bin/env bash
# Regenerates the committed seed corpora in Fuzz/Corpus: small valid files of each kind (and a few
# edge cases) for libFuzzer to mutate. Needs a release build (scripts/build.sh) and the test Python
# packages (scripts/requirements-test.txt) plus Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
uidetect=.build/release/uidetect
corpus=Fuzz/Corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p $corpus/{FuzzDetectionJSON,FuzzSafetensors,FuzzShardReader,FuzzRunConfig,FuzzImageDecode}

# Shards: a tiny synthetic one (with the description datasets), an empty one, and the h5py-made fixtures.
"$uidetect" synth --count 1 --seed 1 --size 64x64 --out "$work/s" > /dev/null
cp "$work/s/synth-00000.h5" $corpus/FuzzShardReader/synth.h5
cp Tests/ShardsTests/Fixtures/{h5py_shard,h5py_fixed_ascii,zero_screens}.h5 $corpus/FuzzShardReader/

# A tiny detector checkpoint (one training step), as `uidetect predict --checkpoint` reads it.
cat > "$work/tiny.yaml" <<YAML
name: tiny
data: {train: [$work/s], val: [$work/s]}
model: {input_width: 64, input_height: 64, alpha: 0.01, fpn_depth: 4, head_layers: 0, max_level: 5,
        scales_per_octave: 1, aspect_ratios: [1], num_classes: 13}
schedule: {warmup_steps: 0}
batch_size: 1
steps: 1
YAML
"$uidetect" train --config "$work/tiny.yaml" --runs "$work/runs" > /dev/null
cp "$work/runs/tiny/checkpoints/step-00000001/model.safetensors" $corpus/FuzzSafetensors/detector.safetensors

python3 - "$corpus" <<'PY'
import io, json, sys
import numpy as np
from PIL import Image
from safetensors.numpy import save
corpus = sys.argv[1]
def put(target, name, data):
    with open(f"{corpus}/{target}/{name}", "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

# Safetensors: a container without a detector, one with metadata, an empty one.
put("FuzzSafetensors", "plain.safetensors", save({"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.zeros((0,), np.float32)}))
put("FuzzSafetensors", "metadata.safetensors", save({"w": np.ones((1, 1, 1, 2), np.float32)}, metadata={"format": "uidetect-ssd-1", "step": "3"}))
put("FuzzSafetensors", "empty.safetensors", save({}))

# Detection JSON: our format (names and indices), escapes, extreme numbers, COCO keys, nesting.
det = lambda **k: dict({"image_id": "a", "class": "text", "score": 0.9, "box": [1, 2, 30, 40]}, **k)
put("FuzzDetectionJSON", "ours.json", json.dumps([det(), det(image_id="b", **{"class": 4}, score=0.25, box=[0.5, 0.5, 0.5, 9.75])], indent=1))
put("FuzzDetectionJSON", "escapes.json", '[{"image_id": "scr\\u0065en-0001", "class": "te\\u0078t", "score": 1e-3, "box": [0, 0, 1.7976931348623157e308, 5e-324], "note": "\\ud83d\\ude00 \\n\\t\\""}]')
put("FuzzDetectionJSON", "extra-keys.json", '[{"image_id": "0", "extra": {"k": [1, {"z": null}], "t": true, "f": false}, "class": "icon", "score": -0.0, "box": [-1E+2, 0, 0, 0]}]')
put("FuzzDetectionJSON", "coco.json", '[{"image_id": 1, "category_id": 2, "bbox": [1, 2, 3, 4], "score": 0.5}]')
put("FuzzDetectionJSON", "empty.json", "[ ]\n")

# Images: the PNG colour types and bit depths libpng converts, and baseline/progressive/grey JPEG.
rng = np.random.default_rng(0)
rgb = Image.fromarray(rng.integers(0, 256, (7, 5, 3), dtype=np.uint8), "RGB")
def png(img, **k):
    b = io.BytesIO(); img.save(b, "PNG", **k); return b.getvalue()
def jpeg(img, **k):
    b = io.BytesIO(); img.save(b, "JPEG", **k); return b.getvalue()
put("FuzzImageDecode", "rgb.png", png(rgb))
put("FuzzImageDecode", "rgba.png", png(rgb.convert("RGBA")))
put("FuzzImageDecode", "palette.png", png(rgb.convert("P")))
put("FuzzImageDecode", "grey.png", png(rgb.convert("L")))
put("FuzzImageDecode", "grey16.png", png(Image.fromarray(rng.integers(0, 65536, (4, 3), dtype=np.uint16))))
put("FuzzImageDecode", "baseline.jpg", jpeg(rgb, quality=90))
put("FuzzImageDecode", "progressive.jpg", jpeg(rgb.resize((17, 9)), progressive=True))
put("FuzzImageDecode", "grey.jpg", jpeg(rgb.convert("L")))
put("FuzzImageDecode", "subsampled.jpg", jpeg(rgb.resize((16, 16)), subsampling=2))
# What libpng's full API expands by hand (PNGDecoding): tRNS, gray with alpha, 1 bit, and Adam7
# interlacing, which Pillow does not write (chunks made here).
import struct, zlib
put("FuzzImageDecode", "palette-trns.png", png(rgb.convert("P"), transparency=0))
put("FuzzImageDecode", "grey-alpha.png", png(rgb.convert("LA")))
put("FuzzImageDecode", "bilevel.png", png(rgb.convert("1")))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
def interlaced(a):
    h, w, c = a.shape
    depth = 16 if a.dtype == np.uint16 else 8
    raw = b""
    for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
        for row in a[y0::dy, x0::dx]:
            if row.size: raw += b"\0" + row.astype(">u2" if depth == 16 else "u1").tobytes()
    header = struct.pack(">IIBBBBB", w, h, depth, {1: 0, 2: 4, 3: 2, 4: 6}[c], 0, 0, 1)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
seeded = np.random.default_rng(1)
put("FuzzImageDecode", "interlaced-rgb.png", interlaced(seeded.integers(0, 256, (7, 11, 3), dtype=np.uint8)))
put("FuzzImageDecode", "interlaced-rgba16.png", interlaced(seeded.integers(0, 65536, (6, 9, 4), dtype=np.uint16)))
PY

# Run configs: the shipped ones, and YAML's anchors, aliases, merge keys and flow style.
cp Configs/*.yaml $corpus/FuzzRunConfig/
cat > $corpus/FuzzRunConfig/anchors.yaml <<'YAML'
defaults: &d {learning_rate: 0.001, weight_decay: 0.0}
optimizer: {<<: *d, name: adamw}
model: {input_width: 128, input_height: 256, aspect_ratios: [0.5, 1, 2]}
augmentation: {}
steps: 100
YAML
printf 'steps: 10\nschedule: {name: constant, warmup_steps: 0}\n' > $corpus/FuzzRunConfig/small.yaml
ls -la $corpus/*
