"""Per seed and build: validation mAP50 at the last step, validation loss there, mean training loss
over steps 6,001-8,400; the paired differences (new - old) with their mean, sd, standard error and t;
the paired mAP50 differences at every validation; an exact sign-flip test.

Usage: python3 summarize-seeds.py DIR... (folders of <build>-seed<N>/metrics.csv runs of Configs/real-ui.yaml)."""
import csv, itertools, os, sys, statistics as st

runs = {}  # (build, seed) -> (final mAP50, final val loss, late train loss, {step: mAP50})
for d in sys.argv[1:]:
    for name in sorted(os.listdir(d)):
        f = os.path.join(d, name, 'metrics.csv')
        if not os.path.exists(f): continue
        rows = list(csv.DictReader(open(f)))
        val = [r for r in rows if r['val_map50_fraction']]
        if not val or int(val[-1]['step']) != 8400: continue
        tr = [float(r['loss']) for r in rows if r['loss'] and 6000 < int(r['step']) <= 8400]
        build, seed = name.split('-seed')
        by_step = {int(r['step']): 100 * float(r['val_map50_fraction']) for r in val}
        runs[(build, int(seed))] = (by_step[8400], float(val[-1]['val_loss']), sum(tr) / len(tr), by_step)
seeds = sorted({s for b, s in runs if ('new', s) in runs and ('old', s) in runs})
pairs = [(runs[('new', s)], runs[('old', s)]) for s in seeds]

print('seed | new mAP50 | old mAP50 | new val loss | old val loss | new train loss 6k-8.4k | old train loss')
for s, (n, o) in zip(seeds, pairs):
    print(f'{s} | {n[0]:.2f} | {o[0]:.2f} | {n[1]:.4f} | {o[1]:.4f} | {n[2]:.4f} | {o[2]:.4f}')
for i, label in enumerate(['mAP50', 'val loss', 'train loss 6k-8.4k']):
    new, old = [n[i] for n, _ in pairs], [o[i] for _, o in pairs]
    d = [a - b for a, b in zip(new, old)]
    se = st.stdev(d) / len(d) ** 0.5
    print(f'{label}: new mean {st.mean(new):.4f} (sd {st.stdev(new):.4f}), old mean {st.mean(old):.4f} (sd {st.stdev(old):.4f}); '
          f'paired new - old {st.mean(d):+.4f}, sd {st.stdev(d):.4f}, se {se:.4f}, t {st.mean(d) / se:+.2f} ({len(d) - 1} df)')

print('validation mAP50 by step, paired new - old (mean over seeds):')
for step in sorted(pairs[0][0][3]):
    d = [n[3][step] - o[3][step] for n, o in pairs]
    print(f'  step {step}: ' + ' '.join(f'{x:+.1f}' for x in d) + f'  mean {st.mean(d):+.2f}')

# Two-sided: the share of the 2^n sign patterns whose sum is at least as far from zero as the observed one.
d = [n[0] - o[0] for n, o in pairs]
hits = sum(1 for signs in itertools.product((1, -1), repeat=len(d)) if abs(sum(a * x for a, x in zip(signs, d))) >= abs(sum(d)) - 1e-12)
print(f'sign-flip test of mAP50, two-sided: {hits}/{2 ** len(d)} = {hits / 2 ** len(d):.3f}')
