#!/usr/bin/env python3
"""List the Icon and ImageButton boxes of a split of real-ui-screens (helper for real-icons.csv).

    python3 real_boxes.py DATA_DIR SPLIT > boxes.csv     # DATA_DIR = .../real-ui-screens

Prints CSV `split,image,class,x_min,y_min,x_max,y_max` in pixels of the image (a YOLO line
`cls cx cy w h` normalised; a polygon line `cls x1 y1 x2 y2 ...` gives its bounding box), in the
order of sorted image names and then of the lines of each label file.  Needs Pillow (image sizes).
"""
import csv, os, sys
from PIL import Image

CLASSES = {6: 'Icon', 8: 'ImageButton'}


def boxes(data, split):
    idir, ldir = os.path.join(data, split, 'images'), os.path.join(data, split, 'labels')
    for img in sorted(os.listdir(idir)):
        lab = os.path.join(ldir, os.path.splitext(img)[0] + '.txt')
        if not os.path.exists(lab):
            continue
        W, H = Image.open(os.path.join(idir, img)).size
        for line in open(lab):
            v = line.split()
            if not v or int(v[0]) not in CLASSES:
                continue
            c, p = int(v[0]), [float(t) for t in v[1:]]
            if len(p) == 4:
                cx, cy, w, h = p
                x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
            else:
                xs, ys = p[0::2], p[1::2]
                x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            yield (split, img, CLASSES[c], round(x0 * W, 1), round(y0 * H, 1), round(x1 * W, 1), round(y1 * H, 1))


if __name__ == '__main__':
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(['split', 'image', 'class', 'x_min', 'y_min', 'x_max', 'y_max'])
    for row in boxes(sys.argv[1], sys.argv[2]):
        w.writerow(row)
