#!/usr/bin/env python3
"""Render test crops of every glyph of heldout-families.txt, styled like icons cut from app screenshots.

    /tmp/iv/bin/python render_heldout_crops.py OUT_DIR [--root DIR] [--seed N] [--variants 3]
                                               [--only FAMILY ...]

DIR is the folder fetch_heldout.sh filled (default $HELDOUT_DIR or /tmp/heldout).  Writes
OUT_DIR/FAMILY/NNNNN-FAMILY-TYPE.png for every glyph listed (the 52 types and [other]; TYPE is the
vocabulary name or `other`; FAMILY is the family with '-' written '_', e.g. `fa6_solid`, so the
type is the part after the last '-') and OUT_DIR/index.csv (one row per file: what was drawn).
NNNNN runs over the mapping's order (sections, then families, then names; 3 variants each).

Renderers are independent of the training engine: Pillow/FreeType for the icon fonts (drawn
directly at the target size, sub-pixel placed), CairoSVG for the SVG families (drawn directly at
the target size by rewriting the root viewBox).  Per glyph, `--variants` crops, each:
  * glyph side g (its ink box's longer side; the glyph keeps its own aspect, centred in the
    g x g square) drawn from {16, 20, 24, 32, 48} px;
  * a colour scheme: dark glyph on white / light grey (45%); white glyph on a saturated or dark
    background (30%); blue/red/green tinted glyph on white or near-white (25%);
  * sometimes (25%) the glyph sits in a filled circle or rounded square of side ~1.5 g (FAB-like
    or a light tinted disc); the box is then that shape, otherwise the g x g square;
  * crop = the box plus an independent random margin of 0-50% of the box's side on each side;
  * one in three variants (with 3: exactly one, random which) is JPEG-compressed (quality 60-85) and decoded
    before saving as PNG.
Stroke weights are the family's own (no dilation/erosion).  Deterministic: every glyph's random
choices come from a generator seeded with (seed, family, name), so output does not depend on order,
on --only, or on the process.  Needs Pillow >= 10.1 (float font sizes), CairoSVG; one core.
"""
import argparse, csv, io, os, random, re, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_heldout as C
from PIL import Image, ImageDraw, ImageFont

SIDES = (16, 20, 24, 32, 48)
REF = 512  # reference size (px) at which ink boxes are measured

DARK_FG = [(0, 0, 0), (33, 33, 33), (51, 51, 51), (66, 66, 66), (95, 99, 104), (117, 117, 117),
           (28, 28, 30), (60, 64, 67), (84, 84, 84), (17, 24, 39)]
LIGHT_BG = [(255, 255, 255)] * 4 + [(250, 250, 250), (245, 245, 245), (242, 242, 247), (238, 238, 238),
                                    (248, 249, 250), (241, 243, 244)]
SAT_BG = [(25, 118, 210), (33, 150, 243), (63, 81, 181), (0, 122, 255), (211, 47, 47), (244, 67, 54),
          (233, 30, 99), (56, 142, 60), (76, 175, 80), (0, 150, 136), (103, 58, 183), (156, 39, 176),
          (255, 152, 0), (245, 124, 0), (255, 87, 34), (3, 169, 244), (66, 103, 178), (255, 59, 48),
          (52, 199, 89), (98, 0, 238), (26, 115, 232), (0, 121, 107)]
DARK_BG = [(18, 18, 18), (33, 33, 33), (48, 48, 48), (28, 28, 30), (38, 50, 56), (0, 0, 0), (44, 44, 46),
           (55, 71, 79), (13, 27, 42), (30, 41, 59)]
WHITE_FG = [(255, 255, 255)] * 3 + [(250, 250, 250), (240, 240, 240), (224, 224, 224)]
TINT_FG = {'blue': [(0, 122, 255), (25, 118, 210), (33, 150, 243), (26, 115, 232), (63, 81, 181)],
           'red': [(211, 47, 47), (244, 67, 54), (255, 59, 48), (229, 57, 53), (220, 38, 38)],
           'green': [(56, 142, 60), (76, 175, 80), (52, 199, 89), (15, 157, 88), (22, 163, 74)]}


def hexc(c):
    return '#%02x%02x%02x' % c


def mix(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


# ---------------------------------------------------------------- glyph masks at the target size

class FontGlyph:
    """An icon-font glyph: ink box measured once at REF px, then drawn at any size and position."""
    _fonts = {}

    def __init__(self, ttf, cp):
        self.ttf, self.ch = ttf, chr(cp)
        f = ImageFont.truetype(ttf, REF)
        im = Image.new('L', (REF * 3, REF * 3), 0)
        ImageDraw.Draw(im).text((REF, 2 * REF), self.ch, font=f, fill=255, anchor='ls')
        bb = im.getbbox()
        if not bb:
            raise ValueError('empty glyph')
        # ink box relative to the baseline origin, in REF px
        self.bb = (bb[0] - REF, bb[1] - 2 * REF, bb[2] - REF, bb[3] - 2 * REF)
        self.aspect = (bb[2] - bb[0]) / (bb[3] - bb[1])

    def mask(self, W, H, cx, cy, g):
        """L image W x H: the glyph with its ink box's longer side g, ink centre at (cx, cy)."""
        x0, y0, x1, y1 = self.bb
        k = g / max(x1 - x0, y1 - y0)
        font = ImageFont.truetype(self.ttf, REF * k)
        ox, oy = cx - (x0 + x1) / 2 * k, cy - (y0 + y1) / 2 * k
        im = Image.new('L', (W, H), 0)
        ImageDraw.Draw(im).text((ox, oy), self.ch, font=font, fill=255, anchor='ls')
        return im


SVG_OPEN = re.compile(r'<svg\b[^>]*>', re.S)
SVG_ATTR = re.compile(r'\s(width|height|viewBox|preserveAspectRatio)\s*=\s*("[^"]*"|\'[^\']*\')', re.S)


class SvgGlyph:
    """An SVG icon: ink box measured once (alpha, so grey/opacity parts count), drawn by CairoSVG
    directly at the target size by replacing the root element's viewBox/width/height."""

    def __init__(self, path):
        import cairosvg
        self.cairosvg = cairosvg
        src = open(path, encoding='utf-8').read()
        m = SVG_OPEN.search(src)
        tag = m.group(0)
        attrs = {k: v[1:-1] for k, v in SVG_ATTR.findall(tag)}
        if 'viewBox' in attrs:
            vx, vy, vw, vh = (float(v) for v in re.split(r'[\s,]+', attrs['viewBox'].strip()))
        else:
            vx, vy = 0.0, 0.0
            vw, vh = (float(re.match(r'[\d.]+', attrs[k]).group(0)) for k in ('width', 'height'))
        self.pre, self.post = src[:m.start()], src[m.end():]
        self.tag = SVG_ATTR.sub('', tag)
        # measure the ink at REF px for the longer side of the viewBox
        s = REF / max(vw, vh)
        W, H = round(vw * s), round(vh * s)
        a = self._render(W, H, vx, vy, vw, vh)
        bb = a.getbbox()
        if not bb:
            raise ValueError('empty glyph')
        self.ub = (vx + bb[0] / s, vy + bb[1] / s, vx + bb[2] / s, vy + bb[3] / s)  # user units
        self.aspect = (bb[2] - bb[0]) / (bb[3] - bb[1])

    def _render(self, W, H, vx, vy, vw, vh):
        tag = self.tag[:-1].rstrip('/').rstrip()
        closing = '/>' if self.tag.rstrip().endswith('/>') else '>'
        tag += f' width="{W}" height="{H}" viewBox="{vx:.6f} {vy:.6f} {vw:.6f} {vh:.6f}" ' \
               f'preserveAspectRatio="none"{closing}'
        svg = self.pre + tag + self.post
        png = self.cairosvg.svg2png(bytestring=svg.encode('utf-8'), output_width=W, output_height=H)
        return Image.open(io.BytesIO(png)).convert('RGBA').getchannel('A')

    def mask(self, W, H, cx, cy, g):
        x0, y0, x1, y1 = self.ub
        k = g / max(x1 - x0, y1 - y0)  # px per user unit
        ucx, ucy = (x0 + x1) / 2, (y0 + y1) / 2
        vx, vy = ucx - cx / k, ucy - cy / k
        return self._render(W, H, vx, vy, W / k, H / k)


def load_glyph(g):
    return FontGlyph(g[1], g[2]) if g[0] == 'font' else SvgGlyph(g[1])


# ---------------------------------------------------------------- styles

def pick_style(rng):
    """(scheme, glyph colour, page background, container or None)."""
    r = rng.random()
    container = None
    if r < 0.45:
        scheme = 'dark_on_light'
        fg, bg = rng.choice(DARK_FG), rng.choice(LIGHT_BG)
        if rng.random() < 0.25:
            # light grey disc/tile on a white or light page
            container = mix(bg, (200, 200, 200), rng.uniform(0.25, 0.6))
    elif r < 0.75:
        scheme = 'white_on_dark' if rng.random() < 0.4 else 'white_on_saturated'
        fg = rng.choice(WHITE_FG)
        col = rng.choice(DARK_BG if scheme == 'white_on_dark' else SAT_BG)
        if rng.random() < 0.25:
            # FAB-like: coloured disc/tile on a light (mostly) or dark page
            container = col
            bg = rng.choice(LIGHT_BG) if rng.random() < 0.75 else rng.choice(DARK_BG)
            if bg == col:
                bg = (255, 255, 255)
        else:
            bg = col  # toolbar / bar of that colour
    else:
        hue = rng.choice(sorted(TINT_FG))
        scheme = 'tint_' + hue
        fg = rng.choice(TINT_FG[hue])
        bg = rng.choice(LIGHT_BG[:6])
        if rng.random() < 0.25:
            container = mix(fg, (255, 255, 255), rng.uniform(0.80, 0.90))  # light tinted disc
    shape = None
    if container is not None:
        shape = 'circle' if rng.random() < 0.6 else 'rounded_square'
    return scheme, fg, bg, container, shape


def shape_mask(W, H, x0, y0, side, shape, rng, ss=4):
    """Anti-aliased L mask of a circle / rounded square whose box is (x0, y0, side)."""
    im = Image.new('L', (W * ss, H * ss), 0)
    d = ImageDraw.Draw(im)
    box = [x0 * ss, y0 * ss, (x0 + side) * ss - 1, (y0 + side) * ss - 1]
    if shape == 'circle':
        d.ellipse(box, fill=255)
    else:
        d.rounded_rectangle(box, radius=side * ss * rng.uniform(0.18, 0.30), fill=255)
    return im.resize((W, H), Image.BOX)


def render_variant(glyph, rng):
    g = rng.choice(SIDES)
    scheme, fg, bg, container, shape = pick_style(rng)
    side = g if container is None else round(g * rng.uniform(1.4, 1.6))
    ml, mt, mr, mb = (rng.uniform(0, 0.5) * side for _ in range(4))
    W, H = max(1, round(ml + side + mr)), max(1, round(mt + side + mb))
    # the box starts at a (possibly fractional) position; keep its side exact
    bx, by = ml, mt
    if container is not None:
        bx, by = round(bx), round(by)  # shapes sit on whole pixels, as UI layouts mostly do
    img = Image.new('RGB', (W, H), bg)
    if container is not None:
        img.paste(Image.new('RGB', (W, H), container), (0, 0), shape_mask(W, H, bx, by, side, shape, rng))
    m = glyph.mask(W, H, bx + side / 2, by + side / 2, g)
    img.paste(Image.new('RGB', (W, H), fg), (0, 0), m)
    info = dict(glyph_px=g, box_px=side, scheme=scheme, fg=hexc(fg), bg=hexc(bg),
                container=(shape or ''), container_colour=(hexc(container) if container else ''),
                box_x=f'{bx:.2f}', box_y=f'{by:.2f}', width=W, height=H)
    return img, info


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out_dir')
    ap.add_argument('--root', default=C.default_root())
    ap.add_argument('--seed', type=int, default=20241126)
    ap.add_argument('--variants', type=int, default=3)
    ap.add_argument('--only', nargs='*', help='families to render (numbers stay those of a full run)')
    a = ap.parse_args()
    fams = C.load_families(a.root)
    rows, _ = C.parse_mapping()
    os.makedirs(a.out_dir, exist_ok=True)
    fields = ['file', 'family', 'glyph', 'type', 'variant', 'glyph_px', 'box_px', 'scheme', 'fg', 'bg',
              'container', 'container_colour', 'box_x', 'box_y', 'width', 'height', 'jpeg_quality',
              'glyph_aspect']
    index, num, t0, errors = [], 0, time.time(), 0
    for sec, fam, name, ln in rows:
        fd = fam.replace('-', '_')
        base = num
        num += a.variants
        if a.only and fam not in a.only:
            continue
        rng = random.Random(f'{a.seed}:{fam}:{name}')
        try:
            glyph = load_glyph(fams[fam][name])
        except Exception as e:
            print(f'ERROR line {ln}: {fam}:{name}: {e}', file=sys.stderr)
            errors += 1
            continue
        os.makedirs(os.path.join(a.out_dir, fd), exist_ok=True)
        jpeg_v = rng.randrange(3)  # variants v with v % 3 == jpeg_v are JPEG'd: one in three
        for v in range(a.variants):
            img, info = render_variant(glyph, rng)
            q = ''
            if v % 3 == jpeg_v:
                q = rng.randint(60, 85)
                buf = io.BytesIO()
                img.save(buf, 'JPEG', quality=q)
                img = Image.open(io.BytesIO(buf.getvalue())).convert('RGB')
            rel = os.path.join(fd, f'{base + v:05d}-{fd}-{sec}.png')
            img.save(os.path.join(a.out_dir, rel))
            index.append(dict(file=rel, family=fam, glyph=name, type=sec, variant=v, jpeg_quality=q,
                              glyph_aspect=f'{glyph.aspect:.3f}', **info))
        if len(index) % 900 < a.variants:
            print(f'{len(index)} crops, {time.time() - t0:.0f} s', file=sys.stderr)
    with open(os.path.join(a.out_dir, 'index.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(index)
    print(f'{len(index)} crops of {len(index) // max(1, a.variants)} glyphs written to {a.out_dir} '
          f'({errors} errors, {time.time() - t0:.0f} s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
