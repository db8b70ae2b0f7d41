#!/usr/bin/env python3
"""Tables of Experiments/icons/README.md from the evaluate-icons JSON files that run.sh writes.

    python3 summarize.py RUN_FOLDER...      # e.g. icon-classifier-8000 no-bootstrap

Per run: the figures on real crops and on each held-out family (relatives of the training families,
mdi6 and fa6-*, apart), the families pooled, then accuracy per type pooled over the non-relative
families and real crops, and the most frequent confusions. Standard library only.
"""
import glob, json, os, sys

RELATIVES = {'mdi6', 'fa6_solid', 'fa6_regular'}


def load(path):
    with open(path) as f:
        return json.load(f)


def row(name, j):
    return (f"| {name} | {j['crops']} | {j['vocabulary_crops']} | {100 * j['top1_accuracy']:.1f}% "
            f"| {100 * j['label_precision']:.1f}% | {100 * j['coverage']:.1f}% |")


def pooled(results):
    """Figures over several evaluations at one threshold: sums of their counts."""
    crops = sum(j['crops'] for j in results)
    vocab = sum(j['vocabulary_crops'] for j in results)
    correct = sum(v['correct'] for j in results for t, v in j['per_type'].items() if t != 'other')
    given = sum(j['labels_given'] for j in results)
    right = sum(j['labels_right'] for j in results)
    covered = sum(j['coverage'] * j['vocabulary_crops'] for j in results)
    return {'crops': crops, 'vocabulary_crops': vocab, 'top1_accuracy': correct / vocab,
            'labels_given': given, 'labels_right': right,
            'label_precision': right / given if given else 0, 'coverage': covered / vocab,
            'per_type': merge_types(results), 'confusions': merge_confusions(results)}


def merge_types(results):
    out = {}
    for j in results:
        for t, v in j['per_type'].items():
            o = out.setdefault(t, {'crops': 0, 'correct': 0})
            o['crops'] += v['crops']
            o['correct'] += v['correct']
    return out


def merge_confusions(results):
    out = {}
    for j in results:
        for c in j['confusions']:
            key = (c['truth'], c['named'])
            out[key] = out.get(key, 0) + c['times']
    return [{'truth': a, 'named': b, 'times': n} for (a, b), n in sorted(out.items(), key=lambda kv: -kv[1])]


def main(runs):
    for run in runs:
        print(f"\n### {os.path.basename(run.rstrip('/'))}\n")
        print("| crops | crops | of the 52 types | top-1 | label precision | coverage |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        real = load(os.path.join(run, 'real-crops.json'))
        print(row('real icons (unbiased rows)', real))
        families = {os.path.basename(p)[len('heldout-'):-len('.json')]: load(p) for p in sorted(glob.glob(os.path.join(run, 'heldout-*.json')))}
        for name, j in families.items():
            if name not in RELATIVES:
                print(row(name, j))
        others = pooled([j for n, j in families.items() if n not in RELATIVES])
        print(row('**families pooled (no relatives)**', others))
        for name in sorted(RELATIVES & families.keys()):
            print(row(f'{name} (relative)', families[name]))
        everything = pooled([others, real])
        print("\nTop-1 per type, families pooled (no relatives) and real icons:\n")
        print("| type | rendered crops | rendered top-1 | real crops | real top-1 |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for t, v in others['per_type'].items():
            r = real['per_type'].get(t, {'crops': 0, 'correct': 0})
            rt = f"{100 * r['correct'] / r['crops']:.0f}%" if r['crops'] else '-'
            print(f"| {t} | {v['crops']} | {100 * v['correct'] / v['crops']:.0f}% | {r['crops']} | {rt} |" if v['crops'] else f"| {t} | 0 | - | {r['crops']} | {rt} |")
        print("\nMost frequent confusions (truth as named), families pooled and real icons: "
              + ", ".join(f"{c['truth']} as {c['named']} {c['times']}x" for c in everything['confusions'][:15]))


if __name__ == '__main__':
    main(sys.argv[1:])
