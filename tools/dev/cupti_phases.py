#!/usr/bin/env python3
"""cupti_phases.py TRACE [--create N] [--list] -- GPU idle of homg_gmg_create per set-up phase.

TRACE as for cupti_timeline.py (tools/dev/cupti_trace.c, HOMG_GMG_TRACE=2).  Each GPU op
gets a phase from its kernel name (refine, fem, transfer, smoother, format, omega, coarse,
final); a copy, set or library kernel (cub) takes the phase of the next named kernel.  A
GPU-idle gap belongs to the op after it, and is
  queued: that op's API call had returned before the gap began (the GPU's own turnaround),
  late:   the host was still issuing it when the gap began; 'after read' where a read or sync (memcpy
          device-to-host, cudaStreamSynchronize) ended inside the gap or at its start.
Per phase: ops, GPU busy, gaps by size (< 10 us, 10-50, >= 50) and by cause.  --list: every
gap of the create >= 3 us with its phase, cause, the host calls in it and the ops either side."""
import bisect
import re
import sys
from collections import defaultdict

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import cupti_timeline as ct  # noqa: E402

PHASES = [
    ('refine', r'refine_|facet_markers'),
    ('fem', r'fem_|part_|tag_values'),
    ('transfer', r'prolong_|scan_total|cusparse::|transpose_(count|place|sort|rank)'),
    ('smoother', r'scale_kernel|spai|diag_kernel|sainv|jacobi'),
    ('format', r'widths_kernel|ell_from_csr|csr_to_ell|ell_convert'),
    ('omega', r'random_kernel|ell_kernel|ell_batch|diag_update|dot_kernel|ell_chain|power'),
    ('coarse', r'dense_|xxtrf|getrf|potrf|trsm|gemm|copy_info|potrs'),
    ('final', r'bandwidths'),
]
ORDER = [p for p, _ in PHASES] + ['?']
READS = ('cudaMemcpyAsync', 'cudaMemcpy_', 'cudaStreamSynchronize', 'cudaDeviceSynchronize', 'cudaEventSynchronize')


def phase_of(name):
    if not name.startswith('K ') or 'cub::' in name:
        return None
    for p, rx in PHASES:
        if re.search(rx, name):
            return p
    return '?'


def load_corr(path):
    """GPU ops with their correlation ids [(start, end, name, corr)] and runtime calls by id {corr: (start, end, name)}."""
    ops, rt = [], {}
    for line in open(path):
        f = line.split()
        if f and f[0] == 'R':
            rt.setdefault(int(f[3]), (int(f[1]), int(f[2]), f[5] if len(f) > 5 else '?'))
        if not f or f[0] not in 'KCS':
            continue
        if f[0] == 'K':
            name = 'K ' + ct.demangle(' '.join(f[7:]) or '?')
        elif f[0] == 'C':
            name = 'memcpy kind %s %s B' % (f[6], f[5])
        else:
            name = 'memset %s B' % f[5]
        ops.append((int(f[1]), int(f[2]), name, int(f[3])))
    ops.sort()
    return ops, rt


def op_phases(ops):
    """Each op's phase: named kernels by name (phase_of), the rest take the next named one's."""
    ph = [phase_of(o[2]) for o in ops]
    nxt = '?'
    for k in range(len(ops) - 1, -1, -1):
        if ph[k] is None:
            ph[k] = nxt
        else:
            nxt = ph[k]
    return ph


def analyse(path, pick, listing):
    api, _ = ct.load(path)
    cs = ct.creates(api)
    if not cs:
        print('no creates marked in %s' % path)
        return 1
    lo, hi = cs[pick]
    ops, rt = load_corr(path)
    ops = [o for o in ops if o[1] > lo and o[0] < hi]
    calls = sorted(a for a in ct.top_level(api) if a[1] > lo and a[0] < hi)
    starts = [a[0] for a in calls]
    # the host's reads: syncs, and the copies whose op is device-to-host (kind 2)
    reads = sorted([(rt[o[3]][1], 'read') for o in ops if o[2].startswith('memcpy kind 2') and o[3] in rt] +
                   [(a[1], a[3]) for a in calls if a[3].startswith(READS) and not a[3].startswith('cudaMemcpy')])
    ph = op_phases(ops)
    st = defaultdict(lambda: defaultdict(float))
    prev_end = lo
    rows = []
    for k, o in enumerate(ops):
        p = ph[k]
        st[p]['ops'] += 1
        st[p]['busy'] += o[1] - o[0]
        gap = o[0] - prev_end
        if gap > 0:
            call = rt.get(o[3])
            late = call is not None and call[1] > prev_end  # still issuing it when the GPU ran dry
            after_read = late and any(prev_end - 2000 <= t <= o[0] for t, _ in window(reads, prev_end - 2000, o[0]))
            cause = 'queued' if not late else ('after read' if after_read else 'late')
            size = '<10' if gap < 10e3 else ('10-50' if gap < 50e3 else '>=50')
            st[p]['gaps'] += 1
            st[p]['idle'] += gap
            st[p]['n' + size] += 1
            st[p]['t' + size] += gap
            st[p]['n ' + cause] += 1
            st[p]['t ' + cause] += gap
            rows.append((prev_end, o[0], p, cause, k))
        prev_end = max(prev_end, o[1])
    tail = hi - prev_end
    print('create %d: wall %.3f ms, %d GPU ops, tail after the last op %.1f us' % (pick, (hi - lo) / 1e6, len(ops),
                                                                                 tail / 1e3))
    print('%-9s %5s %8s %8s | %5s %8s | %-13s %-13s %-13s | %-13s %-13s %-13s' %
          ('phase', 'ops', 'busy us', 'idle us', 'gaps', 'idle/op', '<10 n/us', '10-50 n/us', '>=50 n/us', 'queued n/us',
           'late n/us', 'afterread n/us'))
    tot = defaultdict(float)
    for p in ORDER:
        if p not in st:
            continue
        s = st[p]
        for key, v in s.items():
            tot[key] += v
        prow(p, s)
    prow('all', tot)
    if listing:
        print('gaps >= 3 us: start ms, us, phase, cause; host calls in the gap; op before -> op after')
        for s, e, p, cause, k in rows:
            if e - s < 3e3:
                continue
            inn = defaultdict(lambda: [0, 0.0])
            j = max(bisect.bisect_left(starts, s) - 1, 0)
            while j < len(calls) and calls[j][0] < e:
                if calls[j][1] > s and not calls[j][3].startswith('cudaGetDeviceCount'):
                    inn[calls[j][3].split('_v')[0]][0] += 1
                    inn[calls[j][3].split('_v')[0]][1] += min(calls[j][1], e) - max(calls[j][0], s)
                j += 1
            desc = ', '.join('%s x%d %.0f' % (n.replace('cuda', ''), c[0], c[1] / 1e3)
                             for n, c in sorted(inn.items(), key=lambda x: -x[1][1])[:4])
            print('  %7.3f %6.1f %-8s %-10s %s; %s -> %s' % ((s - lo) / 1e6, (e - s) / 1e3, p, cause, desc,
                                                             ct.short(ops[k - 1][2], 32) if k else '-',
                                                             ct.short(ops[k][2], 32)))
    return 0


def window(reads, lo, hi):
    k = bisect.bisect_left(reads, (lo, ''))
    while k < len(reads) and reads[k][0] <= hi:
        yield reads[k]
        k += 1


def prow(p, s):
    def pair(n, t):
        return '%4d %8.1f' % (s[n], s[t] / 1e3)
    print('%-9s %5d %8.1f %8.1f | %5d %8.2f | %s %s %s | %s %s %s' %
          (p, s['ops'], s['busy'] / 1e3, s['idle'] / 1e3, s['gaps'], s['idle'] / 1e3 / max(s['gaps'], 1),
           pair('n<10', 't<10'), pair('n10-50', 't10-50'), pair('n>=50', 't>=50'), pair('n queued', 't queued'),
           pair('n late', 't late'), pair('n after read', 't after read')))


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    pick = int(args[args.index('--create') + 1]) if '--create' in args else -1
    api, _ = ct.load(args[0])
    n = len(ct.creates(api))
    return analyse(args[0], pick if pick >= 0 else n - 1, '--list' in args)


if __name__ == '__main__':
    sys.exit(main())
