#!/usr/bin/env python3
"""Contact sheets of heldout-families.txt (PNG, under sheets/).

Needs Pillow and CairoSVG, e.g.
  python3 -m venv /tmp/iv && /tmp/iv/bin/pip install pillow cairosvg fonttools
  /tmp/iv/bin/python render_heldout.py [DIR] types     # sheets/type-NN-NAME.png, one per type
  /tmp/iv/bin/python render_heldout.py [DIR] other     # sheets/other-FAMILY.png
  /tmp/iv/bin/python render_heldout.py [DIR] pick OUT.png fam:name ...   # any glyphs, numbered
DIR is the folder fetch_heldout.sh filled (default $HELDOUT_DIR or /tmp/heldout).
"""
import io, math, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_heldout as C
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'sheets')
LAB = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf', 10)
LABB = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf', 11)
AB = {'phosphor': 'ph', 'remix': 'ri', 'mdi6': 'mdi', 'codicons': 'cod', 'elusive': 'el', 'tabler': 'tb',
      'tabler-filled': 'tbf', 'lucide': 'lu', 'heroicons': 'he', 'heroicons-solid': 'hes', 'adwaita': 'ad',
      'fa6-solid': 'fa6', 'fa6-regular': 'fa6r'}
_fonts = {}


def glyph(g, G=48):
    """Grey-scale image (0 = ink) of one glyph, fitted into G x G with a small margin."""
    if g[0] == 'svg':
        import cairosvg
        png = cairosvg.svg2png(url=g[1], output_width=G * 4, output_height=G * 4)
        im = Image.open(io.BytesIO(png)).convert('RGBA')
        bg = Image.new('RGBA', im.size, 'white'); bg.alpha_composite(im)
        im = bg.convert('L')
    else:
        key = g[1]
        if key not in _fonts:
            _fonts[key] = ImageFont.truetype(key, G * 3)
        im = Image.new('L', (G * 6, G * 6), 255)
        ImageDraw.Draw(im).text((G * 3, G * 3), chr(g[2]), font=_fonts[key], fill=0, anchor='mm')
        inv = Image.eval(im, lambda v: 255 - v)
        bb = inv.getbbox()
        if bb:
            w, h = bb[2] - bb[0], bb[3] - bb[1]; s = max(w, h) * 1.12
            cx, cy = (bb[0] + bb[2]) / 2, (bb[1] + bb[3]) / 2
            im = im.crop((int(cx - s / 2), int(cy - s / 2), int(cx + s / 2), int(cy + s / 2)))
    return im.resize((G, G), Image.LANCZOS)


def sheet(cells, out, title, cols=10, cw=118, G=48):
    """cells: (family, name, glyph, tag) -> numbered grid with family:name under each glyph."""
    ch = G + 30
    rows = max(1, math.ceil(len(cells) / cols))
    im = Image.new('RGB', (cols * cw, rows * ch + 20), 'white'); d = ImageDraw.Draw(im)
    d.text((4, 3), title, font=LABB, fill='black')
    for i, (fam, name, g, tag) in enumerate(cells):
        x = (i % cols) * cw; y = 20 + (i // cols) * ch
        d.rectangle([x, y, x + cw - 1, y + ch - 1], outline=(190, 190, 190))
        try:
            gi = glyph(g, G)
            im.paste(Image.new('RGB', (G, G), 'black'), (x + (cw - G) // 2, y + 2), Image.eval(gi, lambda v: 255 - v))
        except Exception as e:  # a broken glyph shows as a red cell
            d.rectangle([x + 2, y + 2, x + cw - 3, y + G], fill=(255, 200, 200))
        d.text((x + 2, y + 1), str(i), font=LAB, fill=(200, 0, 0))
        t = AB[fam] + ':' + name
        d.text((x + cw / 2, y + G + 4), t[:22], font=LAB, fill='black', anchor='mt')
        d.text((x + cw / 2, y + G + 15), t[22:44] + (' ' + tag if tag else ''), font=LAB, fill='black', anchor='mt')
    im.save(out)


def main(argv):
    root = C.default_root()
    if argv and os.path.isdir(argv[0]):
        root, argv = argv[0], argv[1:]
    fams = C.load_families(root)
    os.makedirs(OUT, exist_ok=True)
    mode = argv[0]
    if mode == 'pick':
        cells = []
        for fn in argv[2:]:
            f, n = fn.split(':', 1)
            if n in fams[f]:
                cells.append((f, n, fams[f][n], ''))
            else:
                print('missing', fn)
        sheet(cells, argv[1], os.path.basename(argv[1]))
        return
    rows, _ = C.parse_mapping()
    if mode == 'types':
        for i, t in enumerate(C.TYPES):
            cells = [(f, n, fams[f][n], '') for s, f, n, _ in rows if s == t and n in fams.get(f, {})]
            sheet(cells, os.path.join(OUT, f'type-{i:02d}-{t}.png'), f'{t}: {len(cells)} glyphs')
    elif mode == 'other':
        for f in C.FAMILIES:
            cells = [(f, n, fams[f][n], '') for s, ff, n, _ in rows if s == 'other' and ff == f and n in fams[f]]
            if cells:
                sheet(cells, os.path.join(OUT, f'other-{f}.png'), f'other, {f}: {len(cells)} glyphs', cols=15, cw=96)


if __name__ == '__main__':
    main(sys.argv[1:])
