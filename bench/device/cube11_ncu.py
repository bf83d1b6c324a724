# ncu --csv (gpu__time_duration.sum, launch__grid_size per launch) of `bench_grid --general --methods vcycle
# --reps 1 --cases N` -> the kernels of one quiet (timed) solve: a solve starts at the largest-grid
# csp_pre_kernel (the finest level's pass from zero); monitored solves hold an error / scalars kernel.
# usage: python3 cube11_ncu.py ncu.csv [which quiet solve, default the last]
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
hdr = rows[0]
ki, mi, vi, ui, ii = (hdr.index(x) for x in ("Kernel Name", "Metric Name", "Metric Value", "Metric Unit", "ID"))
launch = collections.OrderedDict()
for r in rows[1:]:
    d = launch.setdefault(int(r[ii]), {"name": r[ki].split("(")[0].replace("void ", "")})
    v = float(r[vi].replace(",", ""))
    if r[mi] == "gpu__time_duration.sum":
        u = r[ui]
        d["us"] = v / 1000.0 if u in ("nsecond", "ns") else (v if u in ("usecond", "us") else v * 1000.0)
    elif r[mi] == "launch__grid_size":
        d["grid"] = int(v)
    elif r[mi] == "launch__registers_per_thread":
        d["regs"] = int(v)
seq = list(launch.values())
pre = [i for i, d in enumerate(seq) if d["name"].startswith("csp_pre_kernel")]
big = max(seq[i].get("grid", 0) for i in pre)
starts = [i for i in pre if seq[i].get("grid", 0) == big] + [len(seq)]
solves = [seq[a:b] for a, b in zip(starts, starts[1:])]
quiet = [s for s in solves if not any("error" in d["name"] or "scalar" in d["name"] for d in s)]
print("launches profiled %d, solves %d (quiet %d)" % (len(seq), len(solves), len(quiet)))
pick = quiet[int(sys.argv[2])] if len(sys.argv) > 2 else quiet[-1]
# the last quiet solve ends where the next monitored solve's first kernel would start: drop anything after its
# final csp_sweep_kernel / unsplit of the finest level (the benchmark's own copies are not kernels)
t = collections.OrderedDict()
for d in pick:
    k = (d["name"], d.get("grid", 0), d.get("regs", 0))
    e = t.setdefault(k, [0, 0.0])
    e[0] += 1
    e[1] += d.get("us", 0.0)
tot = sum(e[1] for e in t.values())
print("one quiet solve: %d launches, sum of kernel durations %.1f us" % (len(pick), tot))
print("| kernel | blocks | registers | launches | us | us/launch | share |")
print("|---|---:|---:|---:|---:|---:|---:|")
for (n, g, rg), (c, us) in t.items():
    print("| %s | %d | %d | %d | %.1f | %.2f | %.1f%% |" % (n, g, rg, c, us, us / c, 100 * us / tot))
print("\nlaunch order (name blocks us):")
print("; ".join("%s %d %.1f" % (d["name"].replace("_kernel", ""), d.get("grid", 0), d.get("us", 0)) for d in pick))
