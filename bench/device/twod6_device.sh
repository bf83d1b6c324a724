#!/bin/bash
# twod6_device.sh -- s14-twod6's one GPU-machine run (issue 12, the small 2D sizes): the exact
# 32^2 coarsest solve by the sine bases' symmetry (kernels/grid/grid_exact.cuh, half the
# multiply-adds of the dense products).  Order by priority (the budget cuts the tail): the
# kernel against its CPU twin (test_grid_gpu exact), bench_grid main (265c62b = 6a99788's code,
# /work/main/build) then this build then main again, ncu of one 256^2 fused-v cycle (main's
# kernels, then mine), compute-sanitizer on the exact group, the coarse/cluster/quick groups.
# Everything travels in /work/main/.carry-twod6/: dev.tar.xz (DEV_BUILD=build
# DEV_FILES="tests/test_grid_gpu tests/test_grid_ref bench/bench_grid" sh tools/dev/device-prep.sh),
# base.tar.xz (main's stripped bench_grid as .carry-base/bench_grid) and this script; run from
# main's root: OUT=$OUT bash .carry-twod6/twod6_device.sh (carry [".carry-twod6"]).
# (The 17:25 run had --kernel-name regex:coarse_exact, not a valid filter: racecheck and synccheck
# did not run; kns= is the form twod4_device.sh used.)
set -u
C=.carry-twod6
rm -rf .devbuild .devlibs .carry-base; tar xJf $C/dev.tar.xz; tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=twod6 DEFAULT_BUDGET=${BUDGET:-100}
. bench/device_timed.sh
M=.carry-base/bench_grid
G=$B/bench/bench_grid
R="--sizes 256,1024,2048 --reps 21 --methods fft,fused-v,warm"
NC="ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.max,smsp__inst_executed.sum"
K="regex:owned|coarse_exact"
echo "mine $(cat .devlibs/build-id), main $(cat .carry-base/build-id)" >> "$L"
timed 8 exact $B/tests/test_grid_gpu exact
timed 14 bench_main $M $R --out $OUT/g1_main.md
timed 14 bench_mine $G $R --out $OUT/g2_mine.md
timed 14 bench_main2 $M $R --out $OUT/g3_main2.md
timed 8 ncu_main $NC -k "$K" --launch-count 7 --log-file $OUT/ncu_main.csv $M --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 ncu_mine $NC -k "$K" --launch-count 7 --log-file $OUT/ncu_mine.csv $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu exact
timed 8 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 --kernel-name kns=coarse_exact $B/tests/test_grid_gpu exact
timed 8 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 --kernel-name kns=coarse_exact $B/tests/test_grid_gpu exact
timed 10 coarse $B/tests/test_grid_gpu coarse
timed 10 clusters $B/tests/test_grid_gpu clusters
timed 10 quick $B/tests/test_grid_gpu quick
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/ncu_main.csv $OUT/ncu_mine.csv; do [ -f $f ] && { echo "=== $f"; cat $f; } >> "$L"; rm -f $f; done
for f in $OUT/g?_*.md; do echo "=== $f"; cat $f; done > $OUT/twod6_grid.md 2>/dev/null
rm -f $OUT/g?_*.md
# the short table last: the bench rows of each run, the exact kernel's ncu lines, the step lines
for f in g1_main g2_mine g3_main2; do
    echo "--- $f"
    awk -v f="$f" '/^=== /{on = index($0, f) > 0} on && (/^\| (256|1024|2048)\^2 \| float32/ || /warm/)' $OUT/twod6_grid.md | cut -c1-160
done | tail -c 5000
grep -E "^=== |coarse_exact.*gpu__time_duration" "$L" | cut -c1-40,100-240 | tail -c 2500
grep -E "^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" | cut -c1-150 | tail -c 3000
