#!/usr/bin/env python3
"""Render the contact sheets in sheets/ from glyph-types.txt.

Needs Pillow and CairoSVG (not the standard library), e.g.
  python3 -m venv /tmp/gv && /tmp/gv/bin/pip install pillow cairosvg
  /tmp/gv/bin/python render_sheets.py types material font-awesome fork-awesome bootstrap
types: one sheet per type (sheets/type-NN-NAME.png) and the excluded glyphs per family
(sheets/exclude-FAMILY-N.png); FAMILY: every glyph of the family, green = type, red = exclude,
white = other (sheets/family-FAMILY-NN.png).
"""
import io, math, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_names as C
import cairosvg
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'sheets')
FONT = {'material': '/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf',
        'font-awesome': '/usr/share/fonts/truetype/font-awesome/fontawesome-webfont.ttf',
        'fork-awesome': '/usr/share/fonts/truetype/fork-awesome/forkawesome-webfont.ttf'}
LAB = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf', 10)
LABB = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf', 10)
AB = {'material': 'm', 'font-awesome': 'fa', 'fork-awesome': 'fk', 'bootstrap': 'b'}
FAMS = C.load_families()
_fonts = {}


def glyph(fam, name, G=56):
    """Grey-scale image of one glyph, black on white."""
    if fam == 'bootstrap':
        png = cairosvg.svg2png(url=f'{C.BOOTSTRAP_SVG}/{name}.svg', output_width=G, output_height=G)
        im = Image.open(io.BytesIO(png)).convert('RGBA')
        bg = Image.new('RGBA', im.size, 'white'); bg.alpha_composite(im)
        return bg.convert('L')
    if fam not in _fonts:
        _fonts[fam] = ImageFont.truetype(FONT[fam], G)
    im = Image.new('L', (G + 16, G + 16), 255)
    ImageDraw.Draw(im).text(((G + 16) / 2, (G + 16) / 2), chr(FAMS[fam][name][0]), font=_fonts[fam], fill=0, anchor='mm')
    return im.resize((G, G))


def sheet(cells, out, title, cols=12, cw=100, G=44):
    """cells: (family, name, tag, background colour)"""
    ch = G + 30
    rows = max(1, math.ceil(len(cells) / cols))
    im = Image.new('RGB', (cols * cw, rows * ch + 18), 'white'); d = ImageDraw.Draw(im)
    d.text((4, 3), title, font=LABB, fill='black')
    for i, (fam, name, tag, col) in enumerate(cells):
        x = (i % cols) * cw; y = 18 + (i // cols) * ch
        d.rectangle([x, y, x + cw - 1, y + ch - 1], fill=col, outline=(190, 190, 190))
        g = glyph(fam, name).resize((G, G))
        m = Image.new('RGB', (G, G), col)
        m.paste(Image.new('RGB', (G, G), 'black'), (0, 0), Image.eval(g, lambda v: 255 - v))
        im.paste(m, (x + (cw - G) // 2, y + 2))
        t = AB[fam] + ':' + name
        d.text((x + cw / 2, y + G + 4), t[:19], font=LAB, fill='black', anchor='mt')
        d.text((x + cw / 2, y + G + 15), (t[19:38] + ' ' if len(t) > 19 else '') + tag,
               font=LABB if tag else LAB, fill='black', anchor='mt')
    im.save(out)


def main(modes):
    errors, sections, entries, fams = C.check(os.path.join(HERE, 'glyph-types.txt'))
    if errors:
        sys.exit('glyph-types.txt does not pass check_names.py')
    os.makedirs(OUT, exist_ok=True)
    assign = {(f, n): s for s, f, n, _ in entries}
    for mode in modes:
        if mode == 'types':
            for s in sections:
                cells = [(f, n, '', (225, 245, 225) if s != 'exclude' else (250, 225, 225))
                         for ss, f, n, _ in entries if ss == s]
                if s != 'exclude':
                    sheet(cells, f'{OUT}/type-{sections.index(s) + 1:02d}-{s}.png', f'[{s}] {len(cells)} glyphs')
                    continue
                for fam in C.FAMILIES:
                    fc = [c for c in cells if c[0] == fam]
                    for k in range(0, len(fc), 144):
                        sheet(fc[k:k + 144], f'{OUT}/exclude-{fam}-{k // 144 + 1}.png', f'[exclude] {fam} part {k // 144 + 1}')
            continue
        fam = mode
        by_key = {}
        for n, (cp, canon) in fams[fam].items():
            if (fam, n) in C.NOT_IN_FONT:
                continue
            by_key.setdefault(cp if cp is not None else n, set()).add(canon)
        names = []
        for alts in by_key.values():   # one cell per glyph, under its listed name if any
            listed = sorted(a for a in alts if (fam, a) in assign)
            names.append(listed[0] if listed else sorted(alts)[0])
        cells = []
        for n in sorted(names):
            s = assign.get((fam, n))
            col = (255, 255, 255) if s is None else ((250, 215, 215) if s == 'exclude' else (215, 245, 215))
            cells.append((fam, n, '' if s is None else ('EXCL' if s == 'exclude' else s.upper()), col))
        for k in range(0, len(cells), 144):
            sheet(cells[k:k + 144], f'{OUT}/family-{fam}-{k // 144 + 1:02d}.png',
                  f'{fam} {k // 144 + 1} (green=type, red=exclude, white=other)')


if __name__ == '__main__':
    main(sys.argv[1:] or ['types'])
