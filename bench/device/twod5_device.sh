#!/bin/bash
# twod5_device.sh -- s14-twod5's one GPU-machine run (issue 12, the large 2D sizes' bytes): the
# finest level's cycle boundaries of a fixed sequence fused into one row-block step (cycle k's
# up step + cycle k+1's down step: u + P ec, post + pre = 3 sweeps, residual restricted;
# kernels/grid/grid_rows.cu rows_kernel<S, true, 2>, lib/grid/cycles.c homg__mg_sequence).
# Tests: the rows group (the mid step against its CPU twin), the mid group (whole solves fused
# against separate steps), compute-sanitizer memcheck / racecheck / synccheck on the rows group,
# the whole test_grid_gpu, test_grid_ref on CUDA; bench_grid of main (dc95d5e, /work/main/build at
# session start) first and again last beside this build's; ncu of the 4096^2 finest steps (main's
# down / up, this build's mid step).
# Everything travels in /work/main/.carry-twod5/: dev.tar.xz (DEV_BUILD=build DEV_FILES=
# "tests/test_grid_gpu tests/test_grid_ref bench/bench_grid" sh tools/dev/device-prep.sh),
# base.tar.xz (main's stripped bench_grid) and this script; run from main's root:
# OUT=$OUT bash .carry-twod5/twod5_device.sh (carry [".carry-twod5"]).
# Ran once at 7b32d47 (h100.md "Session 14 twod5"); since then: the ncu filters fixed (ncu's
# demangled names read rows_kernel<(int)3, (bool)1, ...>, so "rows_kernel<3" matched nothing; 4
# launches of main's ended before the 4096^2 up step), the two test bugs that run found fixed.
NAME=twod5 BUDGET=${BUDGET:-126}
. bench/device/lib.sh
carry_unpack base.tar.xz
M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 21"
NC="ncu --cache-control none --clock-control none --csv --kernel-name-base demangled --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.avg,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum"
timed 12 rows $B/tests/test_grid_gpu rows
timed 10 mid $B/tests/test_grid_gpu mid
timed 12 bench_main $M $R --methods "fft,fused-v" --out $OUT/grid_main.md
timed 30 bench_mine $B/bench/bench_grid $R --methods "fft,fused-v,fused-v mid-off,fused-v mid-T10,fused-v mid-T16" --out $OUT/grid_mine.md
timed 8 bench_main2 $M $R --methods "fused-v" --out $OUT/grid_main2.md
timed 8 tol_mine $B/bench/bench_grid --sizes 1024,4096 --reps 11 --methods tol --out $OUT/grid_tol.md
timed 8 ncu_main $NC -k "regex:rows_kernel" --launch-count 6 --log-file $OUT/ncu_main.csv $M --sizes 4096 --methods fused-v --reps 1 --out /tmp/a.md
timed 8 ncu_mine $NC -k "regex:rows_kernel<.int.3" --launch-count 2 --log-file $OUT/ncu_mine.csv $B/bench/bench_grid --sizes 4096 --methods fused-v --reps 1 --out /tmp/b.md
sanitize 9 "memcheck racecheck synccheck" $B/tests/test_grid_gpu rows
timed 10 grid_gpu $B/tests/test_grid_gpu
timed 12 grid_ref env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
for f in $OUT/ncu_*.csv; do
    [ -f "$f" ] && python3 - "$f" >> "$L" 2>&1 <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: sys.exit()
h = rows[0]; ki, mi, vi, ids = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
k = {}
for r in rows[1:]:
    n = r[ki].replace("void ", "").replace("<unnamed>::", "").replace("(anonymous namespace)::", "")
    k.setdefault(r[ids], [n[:n.find("(")] if "(" in n else n[:40], {}])[1][r[mi]] = r[vi]
for i, (n, m) in k.items():
    print("ncu %s %s %-30s %8s ns grid %s block %s regs %s inst %s smact %s dram r/w %s / %s" % (sys.argv[1].split("/")[-1][4:-4], i, n, m.get("gpu__time_duration.sum", "?"), m.get("launch__grid_size", "?"), m.get("launch__block_size", "?"), m.get("launch__registers_per_thread", "?"), m.get("smsp__inst_executed.sum", "?"), m.get("sm__cycles_active.avg", "?"), m.get("dram__bytes_read.sum", "?"), m.get("dram__bytes_write.sum", "?")))
PY
done
cat $OUT/grid_main.md $OUT/grid_mine.md $OUT/grid_main2.md $OUT/grid_tol.md > $OUT/grid_all.md 2>/dev/null
rm -f $OUT/grid_main.md $OUT/grid_mine.md $OUT/grid_main2.md $OUT/grid_tol.md
pack_logs ncu $OUT/ncu_*.csv && rm -f $OUT/ncu_*.csv
finish "^\| (1024|2048|4096)\^2 \| float32|^ncu |values differ"
