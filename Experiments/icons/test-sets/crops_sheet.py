#!/usr/bin/env python3
"""Contact sheet of a seeded random sample of crops (for looking at them).

    /tmp/iv/bin/python crops_sheet.py DIR OUT.png [--n 200] [--seed 0] [--cols 20] [--cell 72]

DIR holds crops named NNNN[N]-...-TYPE.png (any depth: heldout-crops/FAMILY/*.png, real-crops/*.png).
Each cell shows the crop enlarged (bicubic, aspect kept) to CELL px, its native size in the corner,
and its number and type (and family for the held-out crops) below.  Needs Pillow.
"""
import argparse, math, os, random
from PIL import Image, ImageDraw, ImageFont


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir'); ap.add_argument('out')
    ap.add_argument('--n', type=int, default=200); ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--cols', type=int, default=20); ap.add_argument('--cell', type=int, default=72)
    a = ap.parse_args()
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(a.dir) for f in fs
                   if f.endswith('.png') and f[:1].isdigit())
    pick = sorted(random.Random(a.seed).sample(files, min(a.n, len(files))), key=os.path.basename)
    font = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf', 10)
    C, cw, ch = a.cell, a.cell + 6, a.cell + 26
    rows = math.ceil(len(pick) / a.cols)
    sh = Image.new('RGB', (a.cols * cw, rows * ch), (200, 200, 200))
    d = ImageDraw.Draw(sh)
    for i, p in enumerate(pick):
        im = Image.open(p).convert('RGB')
        x, y = (i % a.cols) * cw + 3, (i // a.cols) * ch + 2
        k = C / max(im.size)
        t = im.resize((max(1, round(im.width * k)), max(1, round(im.height * k))), Image.BICUBIC)
        d.rectangle([x, y, x + C - 1, y + C - 1], fill=(128, 128, 128))
        sh.paste(t, (x + (C - t.width) // 2, y + (C - t.height) // 2))
        parts = os.path.basename(p)[:-4].split('-')
        d.text((x + C - 1, y + C - 1), f'{im.width}x{im.height}', font=font, fill=(255, 255, 0),
               anchor='rd', stroke_width=1, stroke_fill=(0, 0, 0))
        d.text((x, y + C + 1), ' '.join(parts[:-1])[:14], font=font, fill=(0, 0, 0))
        d.text((x, y + C + 12), parts[-1][:14], font=font, fill=(160, 0, 0))
    sh.save(a.out)
    print(f'{len(pick)} of {len(files)} crops -> {a.out}')


if __name__ == '__main__':
    main()
