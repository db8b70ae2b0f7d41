#!/usr/bin/env python3
"""Reads a YOLO data set the way Ultralytics does, without Ultralytics (PyYAML and numpy only).

Usage: ultralytics_layout.py DATA.yaml OUT.json
data.yaml by yaml.safe_load; `path` absent means the YAML's folder (check_det_dataset); each split's
folder is searched recursively for images; a label file is img2label_paths' (the last /images/ made
/labels/, extension .txt); labels are read with numpy and turned into pixel boxes x0 y0 x1 y1 with the
image size from its PNG header. Writes {"names": [...], "splits": {split: {stem: {"size": [w, h],
"classes": [...], "boxes": [[x0, y0, x1, y1], ...]}}}}.
"""
import glob, json, os, struct, sys

import numpy as np
import yaml

def img2label_paths(img_paths):  # as ultralytics/data/utils.py
    sa, sb = f"{os.sep}images{os.sep}", f"{os.sep}labels{os.sep}"
    return [sb.join(x.rsplit(sa, 1)).rsplit(".", 1)[0] + ".txt" for x in img_paths]

def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])

yaml_path = sys.argv[1]
data = yaml.safe_load(open(yaml_path))
assert isinstance(data["names"], list), "names must be a list"
assert "train" in data and "val" in data, "Ultralytics needs train and val"
root = data.get("path") or os.path.dirname(os.path.abspath(yaml_path))
out = {"names": data["names"], "splits": {}}
for split in ("train", "val", "test"):
    if not data.get(split):
        continue
    entries = data[split] if isinstance(data[split], list) else [data[split]]
    images = sorted(f for e in entries for f in glob.glob(os.path.join(root, e, "**", "*.*"), recursive=True)
                    if f.rsplit(".", 1)[-1].lower() in ("png", "jpg", "jpeg"))
    found = {}
    for image, label in zip(images, img2label_paths(images)):
        w, h = png_size(image)
        rows = np.loadtxt(label, ndmin=2) if os.path.getsize(label) else np.zeros((0, 5))
        assert rows.shape[1] == 5, label
        cx, cy, bw, bh = rows[:, 1] * w, rows[:, 2] * h, rows[:, 3] * w, rows[:, 4] * h
        boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1)
        found[os.path.splitext(os.path.basename(image))[0]] = {
            "size": [w, h], "classes": rows[:, 0].astype(int).tolist(), "boxes": boxes.tolist()}
    out["splits"][split] = found
json.dump(out, open(sys.argv[2], "w"))
