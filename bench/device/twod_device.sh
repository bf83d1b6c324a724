#!/bin/bash
# twod_device.sh -- s11-twod's one GPU-machine run (issue 12: the 1024^2 finest level and the
# warm frame): the row-block fused steps of kernels/grid/grid_rows.cu (HOMG_BOX_ROWS_CELLS,
# off by default) against the CPU twins, bench_grid at 256^2 and 1024^2 with main's binary
# before this build's (fused-v, fft, the rows variants, the warm frame rows), compute-sanitizer
# on the "rows" group, ncu per-kernel durations of the warm 1024^2 frame (L2 kept warm:
# --cache-control none, as in the graph) and of the rows kernels, and test_grid_ref on CUDA and
# the whole test_grid_gpu with the rows steps forced on every level they fit.
# The device tool copies /work/main, so everything travels in /work/main/.carry-twod/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu tests/test_grid_ref
# bench/bench_grid" sh tools/dev/device-prep.sh), main's bench_grid and this script; run from
# main's root: OUT=$OUT bash .carry-twod/twod_device.sh (carry [".carry-twod"]).
# Ran once at a3e62fe (h100.md "Session 11 twod"); since then the rows steps are the 1024^2 default and
# bench_grid's rows variants are "fused-v rows-off", "rows T8", "rows T10", "rows T16", "rows r56", "rows>=512^2".
set -u
C=.carry-twod
rm -rf .devbuild .devlibs; tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=twod DEFAULT_BUDGET=${BUDGET:-130}
. bench/device_timed.sh
M=$C/bench_grid
R="--sizes 256,1024 --reps 21"
ROWS="fused-v rows,fused-v rows>=512^2,fused-v rows T10,fused-v rows T12,fused-v rows T16,fused-v rows r56"
FORCE="HOMG_BOX_ROWS_CELLS=0 HOMG_BOX_ROWS_MAX=1e300"
NC="ncu --cache-control none --clock-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.avg,smsp__inst_executed.sum"
cat .devlibs/build-id >> "$L"
timed 12 rows $B/tests/test_grid_gpu rows
timed 16 bench_main $M $R --methods "fft,fused-v,warm" --out $OUT/grid_main.md
timed 24 bench_mine $B/bench/bench_grid $R --methods "fft,fused-v,$ROWS,warm" --out $OUT/grid_mine.md
timed 12 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu rows
timed 16 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu rows
timed 10 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_grid_gpu rows
timed 16 ncu_warm $NC --launch-count 40 --log-file $OUT/ncu_warm.csv $M --sizes 1024 --methods warm --reps 1 --out /tmp/x.md
timed 10 ncu_rows env HOMG_BOX_ROWS_CELLS=1048576 $NC -k "regex:rows_kernel|stream_kernel" --launch-count 4 --log-file $OUT/ncu_rows.csv $B/bench/bench_grid --sizes 1024 --methods fused-v --reps 1 --out /tmp/y.md
timed 16 grid_ref_rows env HOMG_TEST_BACKEND=cuda $FORCE $B/tests/test_grid_ref
timed 20 grid_gpu_rows env $FORCE $B/tests/test_grid_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/ncu_warm.csv $OUT/ncu_rows.csv; do
    [ -f "$f" ] && python3 - "$f" >> "$L" 2>&1 <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: sys.exit()
h = rows[0]; ki, mi, vi = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value")
ids = h.index("ID")
k = {}
for r in rows[1:]:
    k.setdefault(r[ids], [r[ki][:40], {}])[1][r[mi]] = r[vi]
print("=== ncu", sys.argv[1].split("/")[-1])
for i, (n, m) in k.items():
    print("ncu %s %-40s %8s ns grid %s block %s regs %s inst %s" % (i, n, m.get("gpu__time_duration.sum", "?"), m.get("launch__grid_size", "?"), m.get("launch__block_size", "?"), m.get("launch__registers_per_thread", "?"), m.get("smsp__inst_executed.sum", "?")))
PY
done
grep -E "^\| (256|1024)\^2 \| float32|^=== |^ncu |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" |
    cut -c1-160 | tail -c 11500
