#!/usr/bin/env python3
"""Cut the labelled real icons of real-icons.csv out of the real-ui-screens data set.

    python3 make_real_crops.py OUT_DIR [--csv real-icons.csv] [--data /work/shared/data/real-ui-screens]
                               [--all] [--sheets] [--rows A-B]

Each row of the CSV (`split,image,class,x_min,y_min,x_max,y_max,label`, box in the image's pixels)
gives one PNG, OUT_DIR/NNNN-LABEL.png, NNNN = the row's number in the CSV (1-based, so names are
stable).  The crop is the box plus a margin of 25% of the box's longer side on each side, clipped
to the image, at the image's own resolution (no resizing): feed the folder to
`uidetect classify-icons --model MODEL OUT_DIR/*.png --json`; the true type is the file name's
LABEL part (`other` = an icon outside the vocabulary).
Rows labelled `unclear` are skipped unless --all.  --rows A-B keeps only CSV rows A..B (1-based,
inclusive; e.g. --rows 1-1463 = blocks 1 and 2, the unbiased ones).  --sheets also writes numbered contact sheets
(OUT_DIR/sheets/sheet-NN.png, 8 x 8 crops enlarged to 96 px) for looking at them.
Needs Pillow.
"""
import argparse, csv, math, os
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
MARGIN = 0.25


def crop_box(x0, y0, x1, y1, W, H, margin=MARGIN):
    m = margin * max(x1 - x0, y1 - y0)
    return (max(0, int(math.floor(x0 - m))), max(0, int(math.floor(y0 - m))),
            min(W, int(math.ceil(x1 + m))), min(H, int(math.ceil(y1 + m))))


def cut(data, row, cache={}):
    path = os.path.join(data, row['split'], 'images', row['image'])
    if path not in cache:
        cache.clear()
        cache[path] = Image.open(path).convert('RGB')
    im = cache[path]
    b = crop_box(*(float(row[k]) for k in ('x_min', 'y_min', 'x_max', 'y_max')), *im.size)
    return im.crop(b)


def sheets(items, out_dir, per=64, cols=8, cell=96):
    font = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf', 12)
    os.makedirs(out_dir, exist_ok=True)
    for s in range(0, len(items), per):
        chunk = items[s:s + per]
        rows = math.ceil(len(chunk) / cols)
        sh = Image.new('RGB', (cols * (cell + 8), rows * (cell + 22)), (255, 255, 255))
        d = ImageDraw.Draw(sh)
        for i, (num, text, im) in enumerate(chunk):
            x, y = (i % cols) * (cell + 8) + 4, (i // cols) * (cell + 22) + 2
            k = cell / max(im.size)
            t = im.resize((max(1, round(im.width * k)), max(1, round(im.height * k))), Image.BICUBIC)
            d.rectangle([x - 1, y - 1, x + cell, y + cell], outline=(160, 160, 160))
            sh.paste(t, (x + (cell - t.width) // 2, y + (cell - t.height) // 2))
            d.text((x, y + cell + 3), f'{num} {text}'[:16], font=font, fill=(200, 0, 0))
        sh.save(os.path.join(out_dir, f'sheet-{s // per:02d}.png'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out_dir')
    ap.add_argument('--csv', default=os.path.join(HERE, 'real-icons.csv'))
    ap.add_argument('--data', default='/work/shared/data/real-ui-screens')
    ap.add_argument('--all', action='store_true', help='also cut rows labelled unclear')
    ap.add_argument('--sheets', action='store_true', help='also write numbered contact sheets')
    ap.add_argument('--rows', help='A-B: only CSV rows A..B (1-based, inclusive)')
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    lo, hi = (int(v) for v in a.rows.split('-')) if a.rows else (1, float('inf'))
    items, n = [], 0
    for i, row in enumerate(csv.DictReader(open(a.csv, newline='')), 1):
        if not lo <= i <= hi:
            continue
        label = row.get('label', '')
        if label == 'unclear' and not a.all:
            continue
        im = cut(a.data, row)
        im.save(os.path.join(a.out_dir, f'{i:04d}-{label or "unlabelled"}.png'))
        items.append((i, label, im)); n += 1
    if a.sheets:
        sheets(items, os.path.join(a.out_dir, 'sheets'))
    print(f'{n} crops written to {a.out_dir}')


if __name__ == '__main__':
    main()
