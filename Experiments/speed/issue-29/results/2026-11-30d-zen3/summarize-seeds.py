# Usage: python3 summarize-seeds.py DIR... (folders of <build>-seed<N>/metrics.csv runs of Configs/real-ui.yaml).
"""Per seed and build: validation mAP50 at the last step, validation loss there, mean training loss
over steps 6,001-8,400; then the paired differences (new - old) with their mean, sd, standard error and t."""
import csv, sys, os, statistics as st
dirs = sys.argv[1:]
runs = {}
for d in dirs:
    for name in sorted(os.listdir(d)):
        f = os.path.join(d, name, 'metrics.csv')
        if not os.path.exists(f): continue
        rows = list(csv.DictReader(open(f)))
        val = [r for r in rows if r['val_map50_fraction']]
        if not val or int(val[-1]['step']) != 8400: continue
        tr = [float(r['loss']) for r in rows if r['loss'] and 6000 < int(r['step']) <= 8400]
        build, seed = name.split('-seed')
        runs[(build, int(seed))] = (100 * float(val[-1]['val_map50_fraction']), float(val[-1]['val_loss']), sum(tr) / len(tr))
seeds = sorted({s for b, s in runs if ('new', s) in runs and ('old', s) in runs})
print('seed | new mAP50 | old mAP50 | new val loss | old val loss | new train loss 6k-8.4k | old train loss')
for s in seeds:
    n, o = runs[('new', s)], runs[('old', s)]
    print(f'{s} | {n[0]:.2f} | {o[0]:.2f} | {n[1]:.4f} | {o[1]:.4f} | {n[2]:.4f} | {o[2]:.4f}')
for i, label in enumerate(['mAP50', 'val loss', 'train loss 6k-8.4k']):
    new = [runs[('new', s)][i] for s in seeds]; old = [runs[('old', s)][i] for s in seeds]
    d = [a - b for a, b in zip(new, old)]
    se = st.stdev(d) / len(d) ** 0.5
    print(f'{label}: new mean {st.mean(new):.4f} (sd {st.stdev(new):.4f}), old mean {st.mean(old):.4f} (sd {st.stdev(old):.4f}); '
          f'paired new - old {st.mean(d):+.4f}, sd {st.stdev(d):.4f}, se {se:.4f}, t {st.mean(d) / se:+.2f} ({len(d) - 1} df)')
# Paired differences of validation mAP50 at every validation step.
print('validation mAP50 by step, paired new - old (mean over seeds):')
for step in ['1400', '2800', '4200', '5600', '7000', '8400']:
    d = []
    for s in seeds:
        vals = []
        for b in ('new', 'old'):
            for dd in dirs:
                f = os.path.join(dd, f'{b}-seed{s}', 'metrics.csv')
                if os.path.exists(f):
                    vals.append(next(100 * float(r['val_map50_fraction']) for r in csv.DictReader(open(f)) if r['step'] == step and r['val_map50_fraction']))
        d.append(vals[0] - vals[1])
    print(f'  step {step}: ' + ' '.join(f'{x:+.1f}' for x in d) + f'  mean {st.mean(d):+.2f}')
# Exact sign-flip test of the mAP50 differences (two-sided): the share of the 2^n sign patterns whose
# mean is at least as far from zero as the observed one.
import itertools
d = [runs[('new', s)][0] - runs[('old', s)][0] for s in seeds]
obs = abs(sum(d))
hits = sum(1 for signs in itertools.product((1, -1), repeat=len(d)) if abs(sum(a * x for a, x in zip(signs, d))) >= obs - 1e-12)
print(f'sign-flip test of mAP50, two-sided: {hits}/{2 ** len(d)} = {hits / 2 ** len(d):.3f}')
