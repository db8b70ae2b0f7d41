#!/usr/bin/env python3
"""Check glyph-types.txt against the four installed Debian icon packages.

Verifies that
  * the sections are exactly the vocabulary of icon-recognition.md (52 types,
    in the spec's table order, `other` left out) followed by `[exclude]`;
  * every family line uses one of: material, font-awesome, fork-awesome, bootstrap;
  * every listed name exists in its family (material: _variables.scss,
    font-awesome: font-awesome.css, fork-awesome: icons.yml, bootstrap: svg/NAME.svg);
  * no glyph is listed twice (anywhere in the file, exclude included);
  * no two listed names share a codepoint (font-awesome, fork-awesome, and also
    material, whose _variables.scss has 45 codepoints with two names);
  * font-awesome / fork-awesome names are the canonical ids, not aliases.

Standard library only.  Usage:
  python3 check_names.py [glyph-types.txt] [--counts] [--coverage]
--counts prints typed / excluded / other per family; --coverage (re)writes
coverage.md beside the file, keeping its hand-written notes (after the marker).
Exit status 0 when every check passes, 1 otherwise.
"""
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = '/work/shared/specs/icon-recognition.md'
MATERIAL_SCSS = '/usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss'
FA_CSS = '/usr/share/fonts-font-awesome/css/font-awesome.css'
FORK_YML = '/usr/share/fonts-fork-awesome/icons.yml'
BOOTSTRAP_SVG = '/usr/share/bootstrap-icons/svg'
FAMILIES = ('material', 'font-awesome', 'fork-awesome', 'bootstrap')


def spec_types(path=SPEC):
    """Vocabulary names, in table order, from the spec's vocabulary table."""
    names = []
    in_table = False
    for line in open(path, encoding='utf-8'):
        if line.startswith('| name | label |'):
            in_table = True
            continue
        if in_table:
            if not line.startswith('|'):
                break
            cell = line.split('|')[1].strip()
            if cell and not set(cell) <= set('- '):
                names.append(cell)
    return names


def load_material():
    """name -> codepoint; canonical is None (material has no alias notion)."""
    text = open(MATERIAL_SCSS, encoding='utf-8').read()
    return {n: int(c, 16) for n, c in re.findall(r'"([^"]+)":\s*([0-9a-fA-F]+)', text)}


def load_font_awesome():
    """name -> (codepoint, canonical id).  In font-awesome.css the aliases of a
    glyph share one rule; the last selector of the rule is the icon's id (as in
    Font Awesome 4.7's icons.yml: times <- remove, close; cog <- gear ...)."""
    text = open(FA_CSS, encoding='utf-8').read()
    out = {}
    for sels, cp in re.findall(r'((?:\.fa-[a-z0-9-]+:before,?\s*)+)\{\s*content:\s*"\\(f[0-9a-f]+)";', text):
        names = re.findall(r'\.fa-([a-z0-9-]+):before', sels)
        for n in names:
            out[n] = (int(cp, 16), names[-1])
    return out


def load_fork_awesome():
    """name -> (codepoint, canonical id) from icons.yml (id, unicode, aliases).
    Parsed by hand so that the checker needs only the standard library."""
    out = {}
    cur = None
    in_aliases = False
    for line in open(FORK_YML, encoding='utf-8'):
        m = re.match(r'\s*-\s+name:\s', line)
        if m:
            cur = {'aliases': []}
            in_aliases = False
            continue
        if cur is None:
            continue
        m = re.match(r'\s+id:\s+(\S+)', line)
        if m:
            cur['id'] = m.group(1).strip('\'"')
            in_aliases = False
            continue
        m = re.match(r'\s+unicode:\s+(\S+)', line)
        if m:
            cur['unicode'] = int(m.group(1).strip('\'"'), 16)
            in_aliases = False
            if 'id' in cur:
                out[cur['id']] = (cur['unicode'], cur['id'])
                for a in cur['aliases']:
                    out[a] = (cur['unicode'], cur['id'])
            continue
        m = re.match(r'\s+aliases:\s*$', line)
        if m:
            in_aliases = True
            continue
        m = re.match(r'\s+-\s+(\S+)\s*$', line)
        if m and in_aliases:
            a = m.group(1).strip('\'"')
            cur['aliases'].append(a)
            if 'unicode' in cur:
                out[a] = (cur['unicode'], cur['id'])
            continue
        if re.match(r'\s+\w+:', line):
            in_aliases = False
    return out


def load_bootstrap():
    return {f[:-4]: None for f in os.listdir(BOOTSTRAP_SVG) if f.endswith('.svg')}


def load_families():
    """family -> {name: (codepoint or None, canonical name)}"""
    mat = load_material()
    return {
        'material': {n: (c, n) for n, c in mat.items()},
        'font-awesome': load_font_awesome(),
        'fork-awesome': load_fork_awesome(),
        'bootstrap': {n: (None, n) for n in load_bootstrap()},
    }


# Names whose codepoint is not in the family's font (checked once with fontTools
# against the installed fonts: every other name of the four packages has a glyph).
NOT_IN_FONT = {('material', 'goat')}  # U+EBFF, absent from MaterialIcons-Regular.ttf


def glyph_count(fam, names):
    """Number of distinct glyphs of a family (codepoints for the fonts), without
    the names that have no glyph in the font."""
    if fam == 'bootstrap':
        return len(names)
    return len({cp for n, (cp, _) in names.items() if (fam, n) not in NOT_IN_FONT})


def parse(path):
    """Returns (sections in order, entries, errors).  entries: list of
    (section, family, name, line number)."""
    sections, entries, errors = [], [], []
    section = None
    for no, raw in enumerate(open(path, encoding='utf-8'), 1):
        line = raw.split('#', 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r'\[([a-z_]+)\]', line)
        if m:
            section = m.group(1)
            sections.append(section)
            continue
        m = re.fullmatch(r'([a-z-]+):(.*)', line)
        if not m:
            errors.append(f'line {no}: cannot parse: {raw.rstrip()}')
            continue
        fam, rest = m.group(1), m.group(2).split()
        if section is None:
            errors.append(f'line {no}: family line before any section')
            continue
        if fam not in FAMILIES:
            errors.append(f'line {no}: unknown family {fam!r}')
            continue
        for name in rest:
            entries.append((section, fam, name, no))
    return sections, entries, errors


def check(path):
    errors = []
    types = [t for t in spec_types() if t != 'other']
    if len(types) != 52:
        errors.append(f'spec table gives {len(types)} types, expected 52')
    sections, entries, perr = parse(path)
    errors += perr
    want = types + ['exclude']
    if sections != want:
        missing = [s for s in want if s not in sections]
        extra = [s for s in sections if s not in want]
        dup = [s for s, k in Counter(sections).items() if k > 1]
        errors.append(f'sections differ from the spec order: missing={missing} extra={extra} '
                      f'repeated={dup}' + ('' if missing or extra or dup else ' (order differs)'))
    fams = load_families()
    seen = {}
    seen_cp = {}
    for sec, fam, name, no in entries:
        table = fams[fam]
        if name not in table:
            errors.append(f'line {no}: [{sec}] {fam}: {name!r} does not exist')
            continue
        if (fam, name) in NOT_IN_FONT:
            errors.append(f'line {no}: {fam}: {name} has no glyph in the font')
        if (fam, name) in seen:
            errors.append(f'line {no}: {fam}: {name} listed twice (also line {seen[(fam, name)][1]}, [{seen[(fam, name)][0]}])')
        seen[(fam, name)] = (sec, no)
        cp, canon = table[name]
        if fam in ('font-awesome', 'fork-awesome') and canon != name:
            errors.append(f'line {no}: {fam}: {name} is an alias; list the canonical id {canon!r}')
        if cp is not None:
            key = (fam, cp)
            if key in seen_cp and seen_cp[key][0] != name:
                other, osec, ono = seen_cp[key]
                errors.append(f'line {no}: {fam}: {name} shares codepoint U+{cp:04X} with {other} '
                              f'(line {ono}, [{osec}])')
            else:
                seen_cp[key] = (name, sec, no)
    return errors, sections, entries, fams


def counts(entries, fams):
    """{family: {section: n}} plus totals, excluded and other per family."""
    per = defaultdict(Counter)
    for sec, fam, name, no in entries:
        per[fam][sec] += 1
    total = {fam: glyph_count(fam, fams[fam]) for fam in FAMILIES}
    return per, total


def coverage_md(path, entries, fams, types):
    """Markdown coverage report: glyphs per type and family, excluded, other."""
    per, total = counts(entries, fams)
    short = {'material': 'material', 'font-awesome': 'font-awesome', 'fork-awesome': 'fork-awesome',
             'bootstrap': 'bootstrap'}
    out = ['# Coverage of glyph-types.txt', '',
           'Generated by `python3 check_names.py --coverage` from `glyph-types.txt`. '
           'Counts are glyphs (one per codepoint / SVG file), not names.', '',
           '## Glyphs per type', '',
           '| type | ' + ' | '.join(short[f] for f in FAMILIES) + ' | total |',
           '| --- | ' + ' | '.join('---:' for _ in FAMILIES) + ' | ---: |']
    tot_type = {}
    for t in types:
        row = [per[f][t] for f in FAMILIES]
        tot_type[t] = sum(row)
        out.append(f'| {t} | ' + ' | '.join(str(x) for x in row) + f' | {sum(row)} |')
    typed = {f: sum(per[f][t] for t in types) for f in FAMILIES}
    excl = {f: per[f]['exclude'] for f in FAMILIES}
    other = {f: total[f] - typed[f] - excl[f] for f in FAMILIES}
    def row(label, d):
        return f'| **{label}** | ' + ' | '.join(str(d[f]) for f in FAMILIES) + f' | {sum(d.values())} |'
    out += [row('all 52 types', typed), row('excluded', excl), row('other (unlisted)', other),
            row('glyphs in the family', total), '']
    low = [t for t in types if tot_type[t] < 3]
    out += ['## Types with fewer than 3 glyphs in total', '']
    out += [f'- {t}: {tot_type[t]}' for t in low] or ['None: every type has at least 3 glyphs over the four families.']
    out += ['', '## Thin spots (0 or 1 glyph of a type in a family)', '',
            'Each of the 52 types has at least one glyph in every family except where a 0 is listed.', '',
            '| type | ' + ' | '.join(short[f] for f in FAMILIES) + ' | total |',
            '| --- | ' + ' | '.join('---:' for _ in FAMILIES) + ' | ---: |']
    for t in types:
        r = [per[f][t] for f in FAMILIES]
        if min(r) <= 1:
            out.append(f'| {t} | ' + ' | '.join(('**0**' if x == 0 else str(x)) for x in r) + f' | {sum(r)} |')
    return out


def main(argv):
    path = os.path.join(HERE, 'glyph-types.txt')
    args = [a for a in argv if not a.startswith('--')]
    if args:
        path = args[0]
    errors, sections, entries, fams = check(path)
    if '--coverage' in argv and not errors:
        types = [t for t in spec_types() if t != 'other']
        lines = coverage_md(path, entries, fams, types)
        out = os.path.join(os.path.dirname(os.path.abspath(path)), 'coverage.md')
        marker = '<!-- hand-written notes below: kept by check_names.py --coverage -->'
        kept = [marker]
        if os.path.exists(out):
            old = open(out, encoding='utf-8').read()
            if marker in old:
                kept = [marker] + old.split(marker, 1)[1].strip('\n').split('\n')
        lines += [''] + kept
        open(out, 'w', encoding='utf-8').write('\n'.join(lines) + '\n')
        print(f'wrote {out}')
    if '--counts' in argv:
        per, total = counts(entries, fams)
        for fam in FAMILIES:
            listed = sum(per[fam].values())
            print(f'{fam}: glyphs {total[fam]}, typed {listed - per[fam]["exclude"]}, '
                  f'excluded {per[fam]["exclude"]}, other {total[fam] - listed}')
    for e in errors:
        print('ERROR', e)
    n = len(entries)
    if errors:
        print(f'FAILED: {len(errors)} error(s) in {path}')
        return 1
    print(f'OK: {path}: {len(sections) - 1} types + exclude, {n} glyphs listed, '
          f'all names exist, none listed twice, one name per codepoint, canonical ids')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
