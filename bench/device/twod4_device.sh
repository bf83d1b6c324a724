#!/bin/bash
# twod4_device.sh -- s14-twod4's one GPU-machine run (issue 12, the small 2D sizes): the pair
# steps of kernels/grid/grid_pair.cu (two coarse levels in one launch each way, redundant
# halos; lib/grid/cycles.c pairs float32 levels <= HOMG_BOX_PAIR_CELLS below the finest).
# Order by priority (the budget cuts the tail): the pair twin comparison, bench_grid main
# (dc95d5e, /work/main/build at session start) then this build (default = pairs <= 128^2,
# pairs off, pairs <= 512^2) then main again, compute-sanitizer on the small pair group, ncu of
# one 256^2 fused-v cycle (main's kernels, then mine), the whole test_grid_gpu, test_grid_ref
# on CUDA.  Everything travels in /work/main/.carry-twod4/: dev.tar.xz (DEV_BUILD=build
# DEV_FILES="tests/test_grid_gpu tests/test_grid_ref bench/bench_grid" sh tools/dev/device-prep.sh),
# base.tar.xz (main's stripped bench_grid as .carry-base/bench_grid) and this script; run from
# main's root: OUT=$OUT bash .carry-twod4/twod4_device.sh (carry [".carry-twod4"]).
set -u
C=.carry-twod4
rm -rf .devbuild .devlibs .carry-base; tar xJf $C/dev.tar.xz; tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=twod4 DEFAULT_BUDGET=${BUDGET:-132}
. bench/device_timed.sh
M=.carry-base/bench_grid
G=$B/bench/bench_grid
R="--sizes 256,1024 --reps 21 --methods fft,fused-v,warm"
NC="ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.avg,smsp__inst_executed.sum"
K="regex:owned|pair_|coarse_exact"
echo "mine $(cat .devlibs/build-id), main $(cat .carry-base/build-id)" >> "$L"
timed 10 pair $B/tests/test_grid_gpu pairs
timed 12 bench_main $M $R --out $OUT/g1_main.md
timed 12 bench_mine $G $R --out $OUT/g2_mine.md
timed 12 bench_off env HOMG_BOX_PAIR_CELLS=0 $G $R --out $OUT/g3_off.md
timed 12 bench_512 env HOMG_BOX_PAIR_CELLS=262144 $G $R --out $OUT/g4_512.md
timed 12 bench_main2 $M $R --out $OUT/g5_main2.md
timed 12 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu pair
timed 10 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 --kernel-name kns=pair_ $B/tests/test_grid_gpu pair
timed 16 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 --kernel-name kns=pair_ $B/tests/test_grid_gpu pair
timed 10 ncu_main $NC -k "$K" --launch-count 7 --log-file $OUT/ncu_main.csv $M --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 10 ncu_mine $NC -k "$K" --launch-count 5 --log-file $OUT/ncu_mine.csv $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 20 grid_gpu $B/tests/test_grid_gpu
timed 20 grid_ref env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/ncu_main.csv $OUT/ncu_mine.csv; do [ -f $f ] && { echo "=== $f"; cat $f; } >> "$L"; rm -f $f; done
for f in $OUT/g?_*.md; do echo "=== $f"; cat $f; done > $OUT/twod4_grid.md 2>/dev/null
rm -f $OUT/g?_*.md
# the short table last: the bench rows of each run, then the step lines
for f in g1_main g2_mine g3_off g4_512 g5_main2; do
    echo "--- $f"
    awk -v f="$f" '/^=== /{on = index($0, f) > 0} on && (/^\| (256|1024)\^2 \| float32/ || /warm/)' $OUT/twod4_grid.md | cut -c1-160
done | tail -c 6000
grep -E "^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" | cut -c1-150 | tail -c 5000
