#!/usr/bin/env python3
"""cupti_api.py TRACE [--creates A-B] -- host time in CUDA runtime calls of homg_gmg_create, per call kind and phase.

TRACE as for cupti_timeline.py (tools/dev/cupti_trace.c, HOMG_GMG_TRACE=2).  For the creates A..B (default: all
but the first, the cold one) the top-level runtime calls are summed by name (count, total us, mean us, per create)
and by set-up phase (cupti_phases.py's: a call that issued a GPU op takes that op's phase; any other call the phase
of the next op issued after it)."""
import bisect
import sys
from collections import defaultdict

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import cupti_timeline as ct  # noqa: E402
import cupti_phases as cp  # noqa: E402


def op_phases(path, lo, hi):
    """[(api start of the issuing call, phase)] of the GPU ops of one create, in issue order."""
    ops, rt = cp.load_corr(path)
    ops = [o for o in ops if o[1] > lo and o[0] < hi]
    ph = cp.op_phases(ops)
    by_corr = {o[3]: ph[k] for k, o in enumerate(ops)}
    issued = sorted((rt[o[3]][0], ph[k]) for k, o in enumerate(ops) if o[3] in rt)
    return by_corr, issued


def corr_of(path):
    """{(start, end): correlation id} of the runtime calls."""
    out = {}
    for line in open(path):
        f = line.split()
        if f and f[0] == 'R':
            out[(int(f[1]), int(f[2]))] = int(f[3])
    return out


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    path = args[0]
    api, _ = ct.load(path)
    cs = ct.creates(api)
    a, b = 1, len(cs) - 1
    if '--creates' in args:
        a, b = map(int, args[args.index('--creates') + 1].split('-'))
    corr = corr_of(path)
    calls = [c for c in ct.top_level(api) if c[2] == 'R']
    by_name = defaultdict(lambda: [0, 0.0])
    by_phase = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))
    wall = 0.0
    n = b - a + 1
    for i in range(a, b + 1):
        lo, hi = cs[i]
        wall += hi - lo
        by_corr, issued = op_phases(path, lo, hi)
        starts = [s for s, _ in issued]
        for c in calls:
            if c[1] <= lo or c[0] >= hi:
                continue
            name = c[3].split('_v')[0]
            p = by_corr.get(corr.get((c[0], c[1])))
            if p is None:
                k = bisect.bisect_left(starts, c[0])
                p = issued[k][1] if k < len(issued) else 'final'
            d = (c[1] - c[0]) / 1e3
            by_name[name][0] += 1
            by_name[name][1] += d
            by_phase[p][name][0] += 1
            by_phase[p][name][1] += d
    tot = sum(v[1] for v in by_name.values())
    print('creates %d-%d: wall %.3f ms a create, host in runtime calls %.3f ms a create' % (a, b, wall / n / 1e6,
                                                                                           tot / n / 1e3))
    print('%-40s %7s %9s %7s' % ('call (a create)', 'count', 'total us', 'mean us'))
    for name, (c, t) in sorted(by_name.items(), key=lambda x: -x[1][1]):
        print('%-40s %7.1f %9.1f %7.2f' % (name[:40], c / n, t / n, t / max(c, 1)))
    print('per phase: count, total us a create; its three largest call kinds (count / us)')
    for p in cp.ORDER:
        if p not in by_phase:
            continue
        d = by_phase[p]
        c = sum(v[0] for v in d.values()) / n
        t = sum(v[1] for v in d.values()) / n
        top = sorted(d.items(), key=lambda x: -x[1][1])[:3]
        print('%-9s %6.1f %8.1f | %s' % (p, c, t, ', '.join('%s %.0f/%.0f' % (k.replace('cuda', ''), v[0] / n, v[1] / n)
                                                             for k, v in top)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
