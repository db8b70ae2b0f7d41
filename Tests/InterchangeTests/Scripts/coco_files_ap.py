#!/usr/bin/env python3
"""AP at IoU 0.5 per category by pycocotools, reading an instances file and a results file as written.

Usage: coco_files_ap.py INSTANCES.json RESULTS.json OUT.json
Writes {category name: AP or null}: area "all", no per-image detection cap, IoU 0.5 only.
"""
import contextlib, io, json, sys

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

instances, results, out = sys.argv[1:4]
with contextlib.redirect_stdout(io.StringIO()):
    truth = COCO(instances)
    run = COCOeval(truth, truth.loadRes(results), "bbox")
    run.params.iouThrs = np.array([0.5])
    run.params.maxDets = [10 ** 9]
    run.params.areaRng, run.params.areaRngLbl = [[0, 1e10]], ["all"]
    run.evaluate()
    run.accumulate()
names = {c["id"]: c["name"] for c in truth.dataset["categories"]}
precision = run.eval["precision"][0, :, :, 0, -1]  # recall thresholds x categories
json.dump({names[c]: (None if (precision[:, k] < 0).any() else float(precision[:, k].mean()))
           for k, c in enumerate(run.params.catIds)}, open(out, "w"))
