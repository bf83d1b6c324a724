#!/usr/bin/env python3
"""cupti_timeline.py TRACE [--create N] [--top K] -- host timeline of homg_gmg_create.

TRACE is tools/dev/cupti_trace.c's output of a process run with HOMG_GMG_TRACE=2
(a create starts after one cudaGetDeviceCount call and ends before three in a row).
For each create: wall time; GPU busy (union of kernels, copies, sets) and idle;
host time inside CUDA API calls by name (runtime; driver calls outside any
runtime call separately) and outside any call (the library's own CPU code);
then, for the create chosen (default: the last), the largest GPU-idle gaps with
what the host did in each and the GPU work on either side."""
import bisect
import sys
from collections import defaultdict


_names = {}


def demangle(name):
    """c++filt's name where it is on the PATH, else the mangled one."""
    if name not in _names:
        try:
            import subprocess
            _names[name] = subprocess.run(['c++filt', name], capture_output=True, text=True).stdout.strip() or name
        except OSError:
            _names[name] = name
    return _names[name]


def load(path):
    api, gpu = [], []
    for line in open(path):
        f = line.split()
        if not f or f[0] == '#':
            continue
        t = f[0]
        if t in 'RD':
            api.append((int(f[1]), int(f[2]), t, f[5] if len(f) > 5 else '?', int(f[4])))
        elif t == 'K':
            gpu.append((int(f[1]), int(f[2]), 'K ' + demangle(' '.join(f[7:]) or '?')))
        elif t == 'C':
            gpu.append((int(f[1]), int(f[2]), 'memcpy kind %s %s B' % (f[6], f[5])))
        elif t == 'S':
            gpu.append((int(f[1]), int(f[2]), 'memset %s B' % f[5]))
    api.sort()
    gpu.sort()
    return api, gpu


def creates(api):
    """[(begin_ns, end_ns)]: after a lone cudaGetDeviceCount, before three in a row."""
    rt = [a for a in api if a[2] == 'R']
    out, begin, k = [], None, 0
    while k < len(rt):
        if rt[k][3].startswith('cudaGetDeviceCount'):
            pair = k + 2 < len(rt) and all(rt[j][3].startswith('cudaGetDeviceCount') for j in (k + 1, k + 2))
            if pair and begin is not None:
                out.append((begin, rt[k][0]))
                begin = None
                k += 3
                continue
            if not pair:
                begin = rt[k][1]
        k += 1
    return out


def union(iv):
    iv = sorted(iv)
    out = []
    for s, e in iv:
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def clip(iv, lo, hi):
    """iv sorted and disjoint (union's): its parts inside [lo, hi)."""
    k = max(bisect.bisect_left(iv, [lo, lo]) - 1, 0)
    out = []
    while k < len(iv) and iv[k][0] < hi:
        s, e = iv[k]
        if e > lo:
            out.append((max(s, lo), min(e, hi)))
        k += 1
    return out


def overlap(iv, lo, hi):
    return sum(e - s for s, e in clip(iv, lo, hi))


def short(name, n=60):
    name = name.replace('K void ', 'K ').replace('void ', '')
    p = name.find('(')
    if p > 0:
        name = name[:p]
    return name if len(name) <= n else name[:n - 3] + '...'


def top_level(api):
    """Runtime calls, plus driver calls not inside a runtime call of the same thread."""
    rt = [a for a in api if a[2] == 'R']
    by_thread = defaultdict(list)
    for a in rt:
        by_thread[a[4]].append((a[0], a[1]))
    starts = {t: [iv[0] for iv in v] for t, v in by_thread.items()}
    res = list(rt)
    for a in api:
        if a[2] != 'D':
            continue
        ivs = by_thread[a[4]]
        k = bisect.bisect_right(starts.get(a[4], []), a[0]) - 1  # runtime calls of a thread do not nest
        if not (k >= 0 and ivs[k][0] <= a[0] and a[1] <= ivs[k][1]):
            res.append(a)
    res.sort()
    return res


def report(api, gpu, lo, hi, idx, top, detail):
    ms = 1e-6
    calls = [a for a in top_level(api) if a[1] > lo and a[0] < hi and not a[3].startswith('cudaGetDeviceCount')]
    gops = [g for g in gpu if g[1] > lo and g[0] < hi]
    busy = union([(g[0], g[1]) for g in gops])
    wall = hi - lo
    gbusy = overlap(busy, lo, hi)
    in_api = union([(a[0], a[1]) for a in calls])
    t_api = overlap(in_api, lo, hi)
    nk = sum(1 for g in gops if g[2].startswith('K '))
    print('create %d: wall %.3f ms, GPU busy %.3f (%d kernels, %d copies/sets), GPU idle %.3f; host in CUDA calls %.3f, '
          'outside %.3f' % (idx, wall * ms, gbusy * ms, nk, len(gops) - nk, (wall - gbusy) * ms, t_api * ms,
                           (wall - t_api) * ms))
    if not detail:
        return
    agg = defaultdict(lambda: [0, 0, 0, 0])  # count, total, max, GPU idle during
    for a in calls:
        s, e = max(a[0], lo), min(a[1], hi)
        r = agg[('' if a[2] == 'R' else 'drv ') + a[3]]
        r[0] += 1
        r[1] += e - s
        r[2] = max(r[2], e - s)
        r[3] += (e - s) - overlap(busy, s, e)
    print('  host time in CUDA calls by name (ms): calls, total, max, of it GPU idle')
    for name, r in sorted(agg.items(), key=lambda x: -x[1][1])[:18]:
        print('    %-44s %5d %8.3f %7.3f %8.3f' % (name[:44], r[0], r[1] * ms, r[2] * ms, r[3] * ms))
    # GPU-idle gaps: between GPU ops (and the window's ends)
    edges = [lo] + [x for iv in busy for x in iv] + [hi]
    gaps = []
    for k in range(0, len(edges) - 1, 2):
        s, e = max(edges[k], lo), min(edges[k + 1], hi)
        if e > s:
            gaps.append((e - s, s, e))
    gaps.sort(reverse=True)
    tot = sum(g[0] for g in gaps)
    hist = [(10e3, 0, 0), (50e3, 0, 0), (200e3, 0, 0), (1e12, 0, 0)]
    hc = [[0, 0] for _ in hist]
    for g in gaps:
        for j, h in enumerate(hist):
            if g[0] < h[0]:
                hc[j][0] += 1
                hc[j][1] += g[0]
                break
    print('  GPU-idle gaps: %d, %.3f ms; < 10 us: %d (%.3f ms), 10-50 us: %d (%.3f), 50-200 us: %d (%.3f), '
          '>= 200 us: %d (%.3f)' % (len(gaps), tot * ms, hc[0][0], hc[0][1] * ms, hc[1][0], hc[1][1] * ms, hc[2][0],
                                    hc[2][1] * ms, hc[3][0], hc[3][1] * ms))
    # where the host was during the GPU-idle time, by call name (outside: the library's CPU code)
    calls.sort()
    starts = [a[0] for a in calls]
    longest = max([a[1] - a[0] for a in calls] or [0])

    def calls_in(s, e):
        k = bisect.bisect_left(starts, s - longest)
        while k < len(calls) and calls[k][0] < e:
            if calls[k][1] > s:
                yield calls[k]
            k += 1

    where = defaultdict(int)
    for _, s, e in gaps:
        out = (e - s) - overlap(in_api, s, e)
        where['(outside CUDA calls)'] += out
        for a in calls_in(s, e):
            where[('' if a[2] == 'R' else 'drv ') + a[3]] += min(a[1], e) - max(a[0], s)
    print('  GPU idle by what the host was doing (ms):')
    for name, t in sorted(where.items(), key=lambda x: -x[1])[:12]:
        print('    %-44s %8.3f' % (name[:44], t * ms))
    # the host's longest stretches outside CUDA calls (its own CPU code), with the calls on either side
    stretches = []
    prev_end, prev_name = lo, '(start)'
    for a in sorted(calls):
        if a[0] > prev_end:
            stretches.append((a[0] - prev_end, prev_end, prev_name, a[3]))
        if a[1] > prev_end:
            prev_end, prev_name = a[1], a[3]
    if hi > prev_end:
        stretches.append((hi - prev_end, prev_end, prev_name, '(end)'))
    stretches.sort(reverse=True)
    print('  host stretches outside CUDA calls: %d, %.3f ms; longest (us, at ms, GPU idle us): after call -> before call'
          % (len(stretches), sum(x[0] for x in stretches) * ms))
    for d, s0, n0, n1 in stretches[:top]:
        print('    %7.1f at %7.3f (idle %5.1f): %s -> %s' % (d * 1e-3, (s0 - lo) * ms, (d - overlap(busy, s0, s0 + d)) *
                                                           1e-3, n0.split('_v')[0], n1.split('_v')[0]))
    # a coarse picture: per 0.5 ms slice, GPU busy and host-in-calls percentages
    step = 500000
    row = []
    for t0 in range(lo, hi, step):
        t1 = min(t0 + step, hi)
        row.append('%3d/%3d' % (100 * overlap(busy, t0, t1) // (t1 - t0), 100 * overlap(in_api, t0, t1) // (t1 - t0)))
    print('  per 0.5 ms: GPU busy % / host in CUDA calls %')
    for k in range(0, len(row), 10):
        print('    %5.1f ms: %s' % (k * 0.5, ' '.join(row[k:k + 10])))
    print('  largest GPU-idle gaps (us, at ms from start): host calls in the gap; GPU op before -> after')
    for d, s, e in gaps[:top]:
        before = [g for g in gops if g[1] <= s]
        after = [g for g in gops if g[0] >= e]
        inn = defaultdict(lambda: [0, 0])
        for a in calls_in(s, e):
            inn[a[3]][0] += 1
            inn[a[3]][1] += min(a[1], e) - max(a[0], s)
        desc = ', '.join('%s x%d %.0f' % (n.replace('cuda', '').split('_v')[0], c[0], c[1] * 1e-3)
                         for n, c in sorted(inn.items(), key=lambda x: -x[1][1])[:4])
        outside = d - overlap(in_api, s, e)
        print('    %7.1f at %7.3f: outside calls %.0f; %s; %s -> %s' %
              (d * 1e-3, (s - lo) * ms, outside * 1e-3, desc, short(before[-1][2], 40) if before else '-',
               short(after[0][2], 40) if after else '-'))


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    path, pick, top = args[0], -1, 15
    if '--create' in args:
        pick = int(args[args.index('--create') + 1])
    if '--top' in args:
        top = int(args[args.index('--top') + 1])
    api, gpu = load(path)
    cs = creates(api)
    if not cs:
        print('no creates marked in %s (HOMG_GMG_TRACE=2?): %d API calls, %d GPU ops' % (path, len(api), len(gpu)))
        return 1
    pick = pick if pick >= 0 else len(cs) - 1
    for k, (lo, hi) in enumerate(cs):
        report(api, gpu, lo, hi, k, top, k == pick)
    return 0


if __name__ == '__main__':
    sys.exit(main())
