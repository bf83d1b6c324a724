#!/bin/bash
# twod2_device.sh -- s11-twod2's one GPU-machine run (issue 12): the row-block steps of
# kernels/grid/grid_rows.cu with the up step's prolongation from coarse rows loaded once a
# thread (r_coarse), and the rows steps on 2048^2 / 4096^2 against the streamed steps there.
# Tests: the rows group, the whole test_grid_gpu (default, then the rows steps forced on every
# level they fit), test_grid_ref on CUDA (forced), compute-sanitizer memcheck / racecheck /
# synccheck on the rows group; bench_grid main (019336a) before this build; ncu of the rows
# kernels at 1024^2 (8 thread rows; main and this build) and of the rows / streamed kernels at 4096^2.
# Everything travels in /work/main/.carry-twod2/: dev.tar.xz (DEV_BUILD=build DEV_FILES=
# "tests/test_grid_gpu tests/test_grid_ref bench/bench_grid" sh tools/dev/device-prep.sh),
# base.tar.xz (main's stripped bench_grid), lib.sh and this script; run from main's root:
# OUT=$OUT bash .carry-twod2/twod2_device.sh (carry [".carry-twod2"]).
# Ran once at c4034c1 (h100.md "Session 11 twod2"); since then the rows steps take every float32
# level from 1024^2 (the old "rows-all" rows are the default, bench_grid's "fused-v rows-all*"
# variants are gone: "fused-v rows<=1024^2" is the old default, "rows T8" / "rows T16" the others).
NAME=twod2 BUDGET=${BUDGET:-108}
. "$(dirname "$0")/lib.sh"
carry_unpack base.tar.xz
M=$C/bench_grid
R="--sizes 256,1024,2048,4096 --reps 21"
FORCE="HOMG_BOX_ROWS_CELLS=0 HOMG_BOX_ROWS_MAX=1e300"
NC="ncu --cache-control none --clock-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread,sm__cycles_active.avg,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum"
K="regex:rows_kernel|stream_kernel"
timed 12 rows $B/tests/test_grid_gpu rows
timed 14 bench_main $M $R --methods "fft,fused-v,warm" --out $OUT/grid_main.md
timed 18 bench_mine $B/bench/bench_grid $R --methods "fft,fused-v,fused-v rows-off,fused-v rows<=1024^2,fused-v rows T8,fused-v rows T16,warm" --out $OUT/grid_mine.md
sanitize 12 "memcheck racecheck synccheck" $B/tests/test_grid_gpu rows
timed 10 grid_gpu $B/tests/test_grid_gpu
timed 10 grid_gpu_force env $FORCE $B/tests/test_grid_gpu
timed 16 grid_ref_force env HOMG_TEST_BACKEND=cuda $FORCE $B/tests/test_grid_ref
timed 6 ncu1024_main env HOMG_BOX_ROWS_T=8 $NC -k "$K" --launch-count 4 --log-file $OUT/ncu_1024_main.csv $M --sizes 1024 --methods fused-v --reps 1 --out /tmp/a.md
timed 6 ncu1024_mine env HOMG_BOX_ROWS_T=8 $NC -k "$K" --launch-count 4 --log-file $OUT/ncu_1024_mine.csv $B/bench/bench_grid --sizes 1024 --methods fused-v --reps 1 --out /tmp/b.md
timed 10 ncu4096_stream $NC -k "$K" --launch-count 24 --log-file $OUT/ncu_4096_stream.csv $B/bench/bench_grid --sizes 4096 --methods fused-v --reps 1 --out /tmp/c.md
timed 10 ncu4096_rows env HOMG_BOX_ROWS_MAX=1e300 $NC -k "$K" --launch-count 24 --log-file $OUT/ncu_4096_rows.csv $B/bench/bench_grid --sizes 4096 --methods fused-v --reps 1 --out /tmp/d.md
for f in $OUT/ncu_*.csv; do
    [ -f "$f" ] && python3 - "$f" >> "$L" 2>&1 <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: sys.exit()
h = rows[0]; ki, mi, vi, ids = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
k = {}
for r in rows[1:]:
    k.setdefault(r[ids], [r[ki].replace("void ", "").replace("<unnamed>::", "")[:30], {}])[1][r[mi]] = r[vi]
for i, (n, m) in k.items():
    print("ncu %s %s %-34s %8s ns grid %s regs %s inst %s smact %s dram r/w %s / %s" % (sys.argv[1].split("/")[-1][4:-4], i, n, m.get("gpu__time_duration.sum", "?"), m.get("launch__grid_size", "?"), m.get("launch__registers_per_thread", "?"), m.get("smsp__inst_executed.sum", "?"), m.get("sm__cycles_active.avg", "?"), m.get("dram__bytes_read.sum", "?"), m.get("dram__bytes_write.sum", "?")))
PY
done
pack_logs ncu $OUT/ncu_*.csv && rm -f $OUT/ncu_*.csv
finish "^\| (256|1024|2048|4096)\^2 \| float32|^ncu "
