"""Noisy detections of a COCO instances file (uidetect export-data coco), so that every error kind occurs.

Each true box is found (jittered a little) with probability 0.8, at a score that falls with its
jitter; some are found twice (duplicates), some with the wrong class, some badly localised; false
alarms are added on empty parts of the screen. The same seed gives the same file.
usage: python3 make_detections.py instances.json detections.json [seed]
"""
import json
import random
import sys

instances = json.load(open(sys.argv[1]))
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 0)
names = {c["id"]: c["name"] for c in instances["categories"]}
images = {i["id"]: i for i in instances["images"]}
out = []
for a in instances["annotations"]:
    image = images[a["image_id"]]
    iid = image.get("uidetect_image_id", image["file_name"].rsplit(".", 1)[0])
    x, y, w, h = a["bbox"]
    name = names[a["category_id"]]
    r = rng.random()
    if r < 0.2:
        continue  # missed
    jitter = 0.05 if r < 0.85 else 0.35  # the last 15%: poorly localised
    dx, dy = rng.uniform(-jitter, jitter) * w, rng.uniform(-jitter, jitter) * h
    dw, dh = rng.uniform(-jitter, jitter) * w, rng.uniform(-jitter, jitter) * h
    box = [x + dx, y + dy, x + dx + max(1, w + dw), y + dy + max(1, h + dh)]
    cls = name if rng.random() > 0.06 else rng.choice(list(names.values()))
    score = round(min(0.999, max(0.01, rng.gauss(0.75 - jitter, 0.15))), 4)
    out.append({"image_id": iid, "class": cls, "score": score, "box": box})
    if rng.random() < 0.05:  # a duplicate, a little lower
        out.append({"image_id": iid, "class": cls, "score": round(score * 0.8, 4), "box": [v + 1 for v in box]})
for image in instances["images"]:
    iid = image.get("uidetect_image_id", image["file_name"].rsplit(".", 1)[0])
    for _ in range(rng.randrange(0, 6)):  # false alarms anywhere
        w, h = rng.uniform(8, 80), rng.uniform(8, 40)
        x, y = rng.uniform(0, image["width"] - w), rng.uniform(0, image["height"] - h)
        out.append({"image_id": iid, "class": rng.choice(list(names.values())), "score": round(rng.uniform(0.05, 0.8), 4),
                    "box": [x, y, x + w, y + h]})
json.dump(out, open(sys.argv[2], "w"))
print(f"{len(out)} detections of {len(instances['annotations'])} true boxes on {len(images)} screens")
