#!/bin/bash
# twod7_device.sh -- s15-twod7's one GPU-machine run (issue 12, the small 2D sizes): the exact
# coarsest solve moved up the hierarchy, 64^2 or 128^2 in two launches of many blocks
# (kernels/grid/grid_exact_wide.cu, HOMG_BOX_EXACT_MAX; ROWS/SPLIT the blocks' shape).  Order by
# priority (the budget cuts the tail): the kernels against their CPU twin (test_grid_gpu wide),
# bench_grid main (fbe12cb, /work/main/build) then this build by knob, main again, ncu of one
# 256^2 fused-v solve's first kernels, compute-sanitizer on the wide group, solve tests by knob.
# Everything travels in /work/main/.carry-twod7/: dev.tar.xz (DEV_BUILD=build
# DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh tools/dev/device-prep.sh), base.tar.xz
# (main's stripped bench_grid as .carry-base/bench_grid) and this script; run from main's root:
# OUT=$OUT bash .carry-twod7/twod7_device.sh (carry [".carry-twod7"]).
set -u
C=.carry-twod7
rm -rf .devbuild .devlibs .carry-base; tar xJf $C/dev.tar.xz; tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=twod7 DEFAULT_BUDGET=${BUDGET:-112}
. bench/device_timed.sh
M=.carry-base/bench_grid
G=$B/bench/bench_grid
R="--sizes 256,512,1024,2048 --reps 21 --methods fft,fused-v,warm"
V="--sizes 256,512,1024,2048 --reps 21 --methods fused-v,warm"
NC="ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.max,smsp__inst_executed.sum"
echo "mine $(cat .devlibs/build-id), main $(cat .carry-base/build-id)" >> "$L"
timed 10 wide $B/tests/test_grid_gpu wide
timed 9 bench_main $M $R --out $OUT/g1_main.md
timed 9 bench_mine $G $R --out $OUT/g2_mine.md
timed 9 bench_x128 env HOMG_BOX_EXACT_MAX=128 $G $R --out $OUT/g3_x128.md
timed 9 bench_x64 env HOMG_BOX_EXACT_MAX=64 $G $R --out $OUT/g4_x64.md
timed 7 bench_x128r1 env HOMG_BOX_EXACT_MAX=128 HOMG_BOX_EXACT_ROWS=1 $G $V --out $OUT/g5_x128r1.md
timed 7 bench_x128r4s8 env HOMG_BOX_EXACT_MAX=128 HOMG_BOX_EXACT_ROWS=4 HOMG_BOX_EXACT_SPLIT=8 $G $V --out $OUT/g6_x128r4s8.md
timed 7 bench_x128r1s8 env HOMG_BOX_EXACT_MAX=128 HOMG_BOX_EXACT_ROWS=1 HOMG_BOX_EXACT_SPLIT=8 $G $V --out $OUT/g7_x128r1s8.md
timed 7 bench_x64r1s8 env HOMG_BOX_EXACT_MAX=64 HOMG_BOX_EXACT_ROWS=1 HOMG_BOX_EXACT_SPLIT=8 $G $V --out $OUT/g8_x64r1s8.md
timed 9 bench_main2 $M $R --out $OUT/g9_main2.md
timed 8 ncu_x128 env HOMG_BOX_EXACT_MAX=128 $NC -k "regex:owned|exact_wide" --launch-count 6 --log-file $OUT/ncu_x128.csv $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 ncu_x64 env HOMG_BOX_EXACT_MAX=64 $NC -k "regex:owned|exact_wide" --launch-count 6 --log-file $OUT/ncu_x64.csv $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu wide
timed 10 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 --kernel-name kns=exact_wide $B/tests/test_grid_gpu wide
timed 8 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 --kernel-name kns=exact_wide $B/tests/test_grid_gpu wide
timed 10 quick_x128 env HOMG_BOX_EXACT_MAX=128 $B/tests/test_grid_gpu quick
timed 10 quick_x64 env HOMG_BOX_EXACT_MAX=64 $B/tests/test_grid_gpu quick
timed 8 loop_x128 env HOMG_BOX_EXACT_MAX=128 $B/tests/test_grid_gpu loop
timed 8 coarse $B/tests/test_grid_gpu coarse
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/ncu_x128.csv $OUT/ncu_x64.csv; do [ -f $f ] && { echo "=== $f"; cat $f; } >> "$L"; rm -f $f; done
for f in $OUT/g?_*.md; do echo "=== $f"; cat $f; done > $OUT/twod7_grid.md 2>/dev/null
rm -f $OUT/g?_*.md
# the short table last: the bench rows of each run, the kernels' ncu times, the test lines
for f in g1_main g2_mine g3_x128 g4_x64 g5_x128r1 g6_x128r4s8 g7_x128r1s8 g8_x64r1s8 g9_main2; do
    echo "--- $f"
    awk -v f="$f" '/^=== /{on = index($0, f) > 0} on && (/^\| (256|512|1024|2048)\^2 \| float32/ || /warm/)' $OUT/twod7_grid.md | cut -c1-150
done | tail -c 6500
grep -E "^=== |gpu__time_duration" "$L" | grep -v "^=== [a-z]" | cut -c1-30,100-200 | tail -c 1500
grep -E "^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=|cycles" "$L" | grep -v "^=== done" | cut -c1-150 | tail -c 3000
