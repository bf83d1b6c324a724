# ncu --csv (gpu__time_duration.sum per launch) -> per-kernel table per frame (a frame = one advect_velocity launch).
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
hdr = rows[0]; ki = hdr.index("Kernel Name"); mi = hdr.index("Metric Name"); vi = hdr.index("Metric Value"); ui = hdr.index("Metric Unit")
ids = hdr.index("ID")
t = collections.OrderedDict(); n = collections.Counter(); seq = []
for r in rows[1:]:
    if r[mi] != "gpu__time_duration.sum": continue
    v = float(r[vi].replace(",", "")); u = r[ui]
    v = v / 1000.0 if u in ("nsecond", "ns") else (v if u in ("usecond", "us") else v * 1000.0)
    k = r[ki].split("(")[0].split("<")[0].replace("void ", "")
    t[k] = t.get(k, 0) + v; n[k] += 1; seq.append((k, v))
# whole frames: from the first advect_velocity launch to the last
starts = [i for i, (k, _) in enumerate(seq) if k.startswith("fluid_advect_velocity")]
if len(starts) >= 2:
    fr = len(starts) - 1; seq = seq[starts[0]:starts[-1]]
    t = collections.OrderedDict(); n = collections.Counter()
    for k, v in seq: t[k] = t.get(k, 0) + v; n[k] += 1
else:
    fr = 1
print("frames %d, launches per frame %.1f, GPU busy per frame %.1f us (sum of kernel durations, serialised by ncu)" % (fr, len(seq) / fr, sum(t.values()) / fr))
print("| kernel | launches/frame | us/frame | us/launch |")
print("|---|---|---|---|")
for k, v in sorted(t.items(), key=lambda kv: -kv[1]):
    print("| %s | %.2f | %.1f | %.2f |" % (k, n[k] / fr, v / fr, v / n[k]))
