#!/usr/bin/env python3
"""Writes the tiny COCO and VOC data sets the importer tests read (needs Pillow).

Both hold two 60x120 screenshots with a few boxes, including one degenerate box,
one entirely outside the image, one partly outside, and one of an unknown class.
"""
import json, os
from PIL import Image, ImageDraw

def screen(path, color):
    im = Image.new("RGB", (60, 120), (250, 250, 250))
    d = ImageDraw.Draw(im)
    d.rectangle([5, 10, 40, 20], fill=color)       # "text"
    d.rectangle([45, 10, 55, 20], fill=(0, 0, 0))  # "icon"
    d.rectangle([5, 40, 55, 90], fill=(200, 120, 40))  # "picture"
    im.save(path)

os.makedirs("coco/images", exist_ok=True)
screen("coco/images/a.png", (30, 30, 200))
screen("coco/images/b.png", (200, 30, 30))
coco = {
    "images": [{"id": 1, "file_name": "a.png", "width": 60, "height": 120},
               {"id": 2, "file_name": "b.png", "width": 60, "height": 120}],
    "categories": [{"id": 3, "name": "text"}, {"id": 7, "name": "icon"}, {"id": 9, "name": "picture"}],
    "annotations": [
        {"id": 1, "image_id": 1, "category_id": 3, "bbox": [5, 10, 36, 11], "iscrowd": 0},
        {"id": 2, "image_id": 1, "category_id": 7, "bbox": [45, 10, 11, 11], "iscrowd": 0},
        {"id": 3, "image_id": 1, "category_id": 9, "bbox": [5, 40, 51, 51], "iscrowd": 0},
        {"id": 4, "image_id": 2, "category_id": 3, "bbox": [5, 10, 0, 11], "iscrowd": 0},      # degenerate
        {"id": 5, "image_id": 2, "category_id": 7, "bbox": [70, 10, 5, 5], "iscrowd": 0},      # outside
        {"id": 6, "image_id": 2, "category_id": 9, "bbox": [50, 100, 20, 30], "iscrowd": 0},   # partly outside
        {"id": 7, "image_id": 2, "category_id": 42, "bbox": [1, 1, 5, 5], "iscrowd": 0},      # unknown category
        {"id": 8, "image_id": 2, "category_id": 9, "bbox": [0, 0, 60, 120], "iscrowd": 1},    # crowd: not an object
    ],
}
json.dump(coco, open("coco/instances.json", "w"), indent=1)

os.makedirs("voc/Annotations", exist_ok=True)
os.makedirs("voc/JPEGImages", exist_ok=True)
for stem, color, objects in [
    ("x", (30, 30, 200), [("text", 6, 11, 41, 21), ("icon", 46, 11, 56, 21), ("picture", 6, 41, 56, 91)]),
    ("y", (200, 30, 30), [("text", 6, 11, 5, 21), ("slider", 6, 100, 55, 110), ("icon", 46, 115, 56, 130)]),
]:
    screen(f"voc/JPEGImages/{stem}.png", color)
    Image.open(f"voc/JPEGImages/{stem}.png").save(f"voc/JPEGImages/{stem}.jpg", quality=95)
    os.remove(f"voc/JPEGImages/{stem}.png")
    objs = "".join(f"<object><name>{n}</name><difficult>0</difficult><bndbox><xmin>{a}</xmin><ymin>{b}</ymin>"
                   f"<xmax>{c}</xmax><ymax>{d}</ymax></bndbox></object>" for n, a, b, c, d in objects)
    open(f"voc/Annotations/{stem}.xml", "w").write(
        f"<annotation><folder>JPEGImages</folder><filename>{stem}.jpg</filename>"
        f"<size><width>60</width><height>120</height><depth>3</depth></size>{objs}</annotation>")
