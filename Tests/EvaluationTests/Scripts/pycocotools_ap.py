#!/usr/bin/env python3
"""AP at IoU 0.5 per category by pycocotools, for the Swift cross-check.

Reads a JSON file {"datasets": [{"gt": <COCO ground truth>, "dets": [<COCO results>]}]}
and writes {"aps": [{category_id: ap or null}]}: area "all", no per-image
detection cap, IoU threshold 0.5 only.
"""
import contextlib, io, json, sys

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

def evaluate(gt, dets):
    with contextlib.redirect_stdout(io.StringIO()):
        coco = COCO()
        coco.dataset = gt
        coco.createIndex()
        cat_ids = sorted(c["id"] for c in gt["categories"])
        if not dets:
            return {str(c): (0.0 if any(a["category_id"] == c for a in gt["annotations"]) else None) for c in cat_ids}
        results = coco.loadRes(dets)
        ev = COCOeval(coco, results, "bbox")
        ev.params.iouThrs = np.array([0.5])
        ev.params.maxDets = [10 ** 9]
        ev.params.areaRng = [[0, 1e10]]
        ev.params.areaRngLbl = ["all"]
        ev.evaluate()
        ev.accumulate()
    out = {}
    for k, c in enumerate(ev.params.catIds):
        p = ev.eval["precision"][0, :, k, 0, -1]
        out[str(c)] = None if (p < 0).any() else float(np.mean(p))
    return out

data = json.load(open(sys.argv[1]))
json.dump({"aps": [evaluate(d["gt"], d["dets"]) for d in data["datasets"]]}, open(sys.argv[2], "w"))
