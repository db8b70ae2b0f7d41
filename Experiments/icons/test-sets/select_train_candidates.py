#!/usr/bin/env python3
"""How rows 1464-1835 of real-icons.csv were picked: train-split `Icon` boxes that look like the
thin types, found by template matching (kept so the selection can be redone; not needed to use the CSV).

    python3 select_train_candidates.py HELDOUT_DIR OUT.csv [--data /work/shared/data/real-ui-screens]

Every train `Icon` crop (box + 25% margin, make_real_crops.crop_box) is cut to 24 x 24 grey, its ink
taken as |pixel - median of the border| and normalised; it is scored by its best correlation with a
few held-out glyphs per type (rendered with and without a margin).  The top 48 crops for send, attach,
dislike, mute, volume, upload and the top 24 for like, photos, delete, bookmark, cloud, filter, copy
are written (duplicates once, in that order) with an empty label, to be labelled by eye.  The
matching is crude: most of what it returned were play triangles, carets, hearts, bells and houses,
and it found no paperclip, thumb down or muted speaker at all.
Needs Pillow, CairoSVG, numpy.
"""
import argparse, csv, os, sys
import numpy as np
from PIL import Image
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_heldout as C, render_heldout as R, make_real_crops as M
import real_boxes

TEMPLATES = {
    'send': [('phosphor', 'paper-plane-tilt'), ('phosphor', 'paper-plane-right'), ('mdi6', 'send'), ('lucide', 'send'),
             ('fa6-solid', 'paper-plane'), ('remix', 'send-plane-fill'), ('heroicons', 'paper-airplane'), ('tabler', 'send')],
    'attach': [('phosphor', 'paperclip'), ('mdi6', 'paperclip'), ('mdi6', 'attachment'), ('lucide', 'paperclip'),
               ('fa6-solid', 'paperclip'), ('remix', 'attachment-2')],
    'dislike': [('phosphor', 'thumbs-down'), ('mdi6', 'thumb-down'), ('mdi6', 'thumb-down-outline'), ('lucide', 'thumbs-down'),
                ('fa6-solid', 'thumbs-down'), ('fa6-regular', 'thumbs-down')],
    'like': [('phosphor', 'thumbs-up'), ('mdi6', 'thumb-up'), ('mdi6', 'thumb-up-outline'), ('lucide', 'thumbs-up'), ('fa6-solid', 'thumbs-up')],
    'mute': [('phosphor', 'speaker-x'), ('phosphor', 'speaker-slash'), ('mdi6', 'volume-off'), ('mdi6', 'volume-mute'),
             ('lucide', 'volume-x'), ('fa6-solid', 'volume-xmark'), ('remix', 'volume-mute-fill')],
    'volume': [('phosphor', 'speaker-high'), ('mdi6', 'volume-high'), ('lucide', 'volume-2'), ('fa6-solid', 'volume-high'), ('remix', 'volume-up-fill')],
    'upload': [('mdi6', 'upload'), ('lucide', 'upload'), ('mdi6', 'cloud-upload'), ('heroicons', 'arrow-up-tray'), ('remix', 'upload-cloud-2-line')],
    'photos': [('mdi6', 'image'), ('lucide', 'image'), ('fa6-regular', 'image'), ('phosphor', 'image')],
    'delete': [('mdi6', 'delete'), ('lucide', 'trash-2'), ('fa6-solid', 'trash-can'), ('phosphor', 'trash')],
    'bookmark': [('mdi6', 'bookmark'), ('mdi6', 'bookmark-outline'), ('lucide', 'bookmark'), ('fa6-regular', 'bookmark')],
    'cloud': [('mdi6', 'cloud'), ('mdi6', 'cloud-outline'), ('lucide', 'cloud')],
    'filter': [('mdi6', 'filter'), ('mdi6', 'filter-outline'), ('lucide', 'funnel'), ('mdi6', 'filter-variant')],
    'copy': [('mdi6', 'content-copy'), ('lucide', 'copy'), ('fa6-regular', 'copy')],
}
TOP = {'send': 48, 'attach': 48, 'dislike': 48, 'mute': 48, 'volume': 48, 'upload': 48}
S = 24


def unit(a):
    a = a - a.mean(); n = np.linalg.norm(a)
    return a / n if n > 0 else a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('heldout_dir'); ap.add_argument('out_csv')
    ap.add_argument('--data', default='/work/shared/data/real-ui-screens')
    a = ap.parse_args()
    fams = C.load_families(a.heldout_dir)
    tm = {}
    for t, lst in TEMPLATES.items():
        vs = []
        for f, n in lst:
            g = R.glyph(fams[f][n], S)
            big = Image.new('L', (int(S * 1.5), int(S * 1.5)), 255); big.paste(g, (int(S * 0.25), int(S * 0.25)))
            for im in (g, big.resize((S, S))):
                vs.append(unit((255 - np.asarray(im, dtype=np.float32)).ravel()))
        tm[t] = np.stack(vs)
    rows = [r for r in real_boxes.boxes(a.data, 'train') if r[2] == 'Icon']
    keys = ('split', 'image', 'class', 'x_min', 'y_min', 'x_max', 'y_max')
    feats = []
    for r in rows:
        g = np.asarray(M.cut(a.data, dict(zip(keys, r))).convert('L').resize((S, S), Image.BILINEAR), dtype=np.float32)
        bg = np.median(np.concatenate([g[0], g[-1], g[:, 0], g[:, -1]]))
        feats.append(unit(np.abs(g - bg).ravel()))
    F = np.stack(feats)
    order, seen = [], set()
    for t, m in tm.items():
        for i in np.argsort(-(F @ m.T).max(1))[:TOP.get(t, 24)]:
            if int(i) not in seen:
                seen.add(int(i)); order.append(int(i))
    with open(a.out_csv, 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n'); w.writerow(list(keys) + ['label'])
        for i in order:
            w.writerow(list(rows[i]) + [''])
    print(f'{len(order)} candidates written to {a.out_csv}')


if __name__ == '__main__':
    main()
