#!/usr/bin/env python3
"""AP50-95 and AP50 by area range per category by pycocotools, for the Swift cross-check.

Reads a JSON file {"area_ranges": [[lo, hi], ...], "datasets": [{"gt": <COCO ground truth>,
"dets": [<COCO results>]}]} and writes {"figures": [{category_id: {"ap50_95": ap or null,
"ap50_by_area": [ap or null per range]}}]}: COCO's IoU thresholds (np.linspace(0.5, 0.95, 10)),
101 recall points, no per-image detection cap; ranges as pycocotools reads them (closed).
"""
import contextlib, io, json, sys

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

def evaluate(gt, dets, ranges):
    cat_ids = sorted(c["id"] for c in gt["categories"])
    with contextlib.redirect_stdout(io.StringIO()):
        coco = COCO()
        coco.dataset = gt
        coco.createIndex()
        if not dets:
            def zero(cond):
                return 0.0 if cond else None
            return {str(c): {"ap50_95": zero(any(a["category_id"] == c for a in gt["annotations"])),
                             "ap50_by_area": [zero(any(a["category_id"] == c and lo <= a["area"] <= hi for a in gt["annotations"]))
                                              for lo, hi in ranges]} for c in cat_ids}
        results = coco.loadRes(dets)
        ev = COCOeval(coco, results, "bbox")
        ev.params.maxDets = [10 ** 9]
        ev.params.areaRng = [[0, 1e10]] + ranges
        ev.params.areaRngLbl = ["all"] + ["r%d" % i for i in range(len(ranges))]
        ev.evaluate()
        ev.accumulate()
    p = ev.eval["precision"]   # [T, R, K, A, M]
    assert list(ev.params.iouThrs) == list(np.linspace(0.5, 0.95, 10))
    out = {}
    for k, c in enumerate(ev.params.catIds):
        def ap(t, a):
            v = p[t, :, k, a, -1]
            return None if (v < 0).any() else float(np.mean(v))
        per_t = [ap(t, 0) for t in range(p.shape[0])]
        out[str(c)] = {"ap50_95": None if None in per_t else float(np.mean(p[:, :, k, 0, -1])),
                       "ap50_by_area": [ap(0, a + 1) for a in range(len(ranges))]}
    return out

data = json.load(open(sys.argv[1]))
json.dump({"figures": [evaluate(d["gt"], d["dets"], data["area_ranges"]) for d in data["datasets"]]}, open(sys.argv[2], "w"))
