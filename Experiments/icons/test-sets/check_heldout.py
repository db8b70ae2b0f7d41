#!/usr/bin/env python3
"""Check heldout-families.txt against the fetched icon families (and load them for other scripts).

    bash fetch_heldout.sh DIR                   # once: fetch the pinned packages into DIR
    python3 check_heldout.py DIR [--coverage]   # DIR defaults to $HELDOUT_DIR or /tmp/heldout

Checks: the sections are the spec's 52 types in order, then [other]; every family named is
known; every listed name exists in its family (charmap entry or SVG file) and, for fonts, its
codepoint is in the font's cmap (needs fontTools; skipped with a note if it is missing); no
glyph (codepoint / SVG file) is listed twice in a family, under whatever name.
--coverage prints the glyphs per type and family as a Markdown table.
Standard library only (fontTools optional).
"""
import json, logging, os, re, sys
logging.getLogger("fontTools").setLevel(logging.ERROR)
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
MAPPING = os.path.join(HERE, 'heldout-families.txt')

TYPES = ('back forward close menu more home search expand collapse add delete edit share settings refresh '
         'download upload send filter sort done bookmark attach info help notifications favorite star like '
         'dislike copy play pause next previous volume mute microphone camera video photos profile people '
         'cart location calendar clock mail chat phone lock cloud').split()
SECTIONS = TYPES + ['other']

QF = 'qtawesome/fonts/'
# family -> (kind, glyph source, names source)
FAMILIES = OrderedDict([
    ('phosphor',        ('font', QF + 'phosphor-1.3.0.ttf', QF + 'phosphor-charmap-1.3.0.json')),
    ('remix',           ('font', QF + 'remixicon-2.5.0.ttf', QF + 'remixicon-charmap-2.5.0.json')),
    ('mdi6',            ('font', QF + 'materialdesignicons6-webfont-6.9.96.ttf',
                         QF + 'materialdesignicons6-webfont-charmap-6.9.96.json')),
    ('codicons',        ('font', QF + 'codicon-0.0.36.ttf', QF + 'codicon-charmap-0.0.36.json')),
    ('elusive',         ('font', QF + 'elusiveicons-webfont-2.0.ttf', QF + 'elusiveicons-webfont-charmap-2.0.json')),
    ('tabler',          ('svg', 'tabler/outline', None)),
    ('tabler-filled',   ('svg', 'tabler/filled', None)),
    ('lucide',          ('svg', 'lucide', None)),
    ('heroicons',       ('svg', 'heroicons/outline', None)),
    ('heroicons-solid', ('svg', 'heroicons/solid', None)),
    ('adwaita',         ('svgtree', 'adwaita/usr/share/icons/Adwaita/scalable', '-symbolic.svg')),
    ('fa6-solid',       ('font', QF + 'fontawesome6-solid-webfont-6.7.2.ttf',
                         QF + 'fontawesome6-solid-webfont-charmap-6.7.2.json')),
    ('fa6-regular',     ('font', QF + 'fontawesome6-regular-webfont-6.7.2.ttf',
                         QF + 'fontawesome6-regular-webfont-charmap-6.7.2.json')),
])


def default_root():
    return os.environ.get('HELDOUT_DIR', '/tmp/heldout')


def load_family(root, fam):
    """name -> glyph: ('font', ttf path, codepoint) or ('svg', svg path)."""
    kind, src, names = FAMILIES[fam]
    out = {}
    if kind == 'font':
        cmap = json.load(open(os.path.join(root, names)))
        ttf = os.path.join(root, src)
        for n, cp in cmap.items():
            out[n] = ('font', ttf, int(cp, 16) if isinstance(cp, str) else int(cp))
    elif kind == 'svg':
        d = os.path.join(root, src)
        for f in sorted(os.listdir(d)):
            if f.endswith('.svg'):
                out[f[:-4]] = ('svg', os.path.join(d, f))
    else:  # svgtree: Adwaita symbolic icons, name = file name less '-symbolic.svg'
        d = os.path.join(root, src)
        for ctx in sorted(os.listdir(d)):
            for f in sorted(os.listdir(os.path.join(d, ctx))):
                if f.endswith(names):
                    out.setdefault(f[:-len(names)], ('svg', os.path.join(d, ctx, f)))
    return out


def load_families(root):
    return OrderedDict((f, load_family(root, f)) for f in FAMILIES)


def glyph_id(g):
    """What identifies a glyph: the codepoint in its font, or the SVG file's content."""
    if g[0] == 'font':
        return ('cp', g[2])
    return ('svg', open(g[1], 'rb').read())


def parse_mapping(path=MAPPING):
    """[(section, family, name, line number)] and the list of sections in file order."""
    rows, sections, sec = [], [], None
    for ln, line in enumerate(open(path, encoding='utf-8'), 1):
        s = line.split('#', 1)[0].strip()
        if not s:
            continue
        m = re.fullmatch(r'\[([a-z]+)\]', s)
        if m:
            sec = m.group(1); sections.append(sec); continue
        fam, sep, names = s.partition(':')
        if not sep or sec is None:
            raise SystemExit(f'{path}:{ln}: expected `family: names` inside a section')
        for n in names.split():
            rows.append((sec, fam.strip(), n, ln))
    return rows, sections


def main(argv):
    args = [a for a in argv if not a.startswith('--')]
    root = args[0] if args else default_root()
    rows, sections = parse_mapping()
    errors = []
    if sections != SECTIONS:
        errors.append(f'sections are {sections}, expected the 52 types in spec order then [other]')
    fams = load_families(root)
    try:
        from fontTools.ttLib import TTFont
        cmaps = {}
    except ImportError:
        TTFont = None
        print('note: fontTools missing, codepoints are not checked against the fonts')
    seen = {}
    counts = {}
    for sec, fam, name, ln in rows:
        if fam not in fams:
            errors.append(f'line {ln}: unknown family {fam!r}'); continue
        g = fams[fam].get(name)
        if g is None:
            errors.append(f'line {ln}: {fam}: no glyph named {name!r}'); continue
        if g[0] == 'font' and TTFont is not None:
            if g[1] not in cmaps:
                cmaps[g[1]] = set(TTFont(g[1], lazy=True).getBestCmap())
            if g[2] not in cmaps[g[1]]:
                errors.append(f'line {ln}: {fam}: {name} U+{g[2]:04X} is not in {os.path.basename(g[1])}')
        key = (fam, glyph_id(g))
        if key in seen:
            errors.append(f'line {ln}: {fam}: {name} is the same glyph as {seen[key][1]} (line {seen[key][0]})')
        else:
            seen[key] = (ln, name)
        counts.setdefault(sec, {}).setdefault(fam, 0)
        counts[sec][fam] += 1
    for e in errors:
        print('ERROR', e)
    n_typed = sum(1 for r in rows if r[0] != 'other')
    print(f'{len(rows)} glyphs listed ({n_typed} typed, {len(rows) - n_typed} other) in '
          f'{len({r[1] for r in rows})} families; {len(errors)} errors')
    if '--coverage' in argv:
        fl = list(FAMILIES)
        print('| type | ' + ' | '.join(fl) + ' | total |')
        print('| --- |' + ' ---: |' * (len(fl) + 1))
        for sec in SECTIONS:
            c = counts.get(sec, {})
            print(f'| {sec} | ' + ' | '.join(str(c.get(f, 0)) for f in fl) + f' | {sum(c.values())} |')
        tot = {f: sum(counts.get(s, {}).get(f, 0) for s in TYPES) for f in fl}
        print('| **all 52 types** | ' + ' | '.join(str(tot[f]) for f in fl) + f' | {sum(tot.values())} |')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
