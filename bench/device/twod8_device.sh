#!/bin/bash
# twod8_device.sh -- s15-twod8's one GPU-machine run (issue 12, the small 2D sizes): exact_wide's
# two passes with the set-up data (rm's column ranges, inv_eig's rows) loaded before the PDL
# wait, each thread's inputs loaded in one batch, the block's rows side by side in shared
# memory (one vector read a term), pass 1 without the boundary term on coarse levels; the rows
# a block by size (1 up to 256^2, else 4).  Order by priority (the budget cuts the tail): the
# kernels against their CPU twin (test_grid_gpu wide), bench_grid main (7370f39) then this build
# and its knob variants, main again, ncu of the wide passes (main's and mine), compute-sanitizer
# on the wide group, the full test_grid_gpu / test_grid_half_gpu / test_grid_ref on cuda, loop
# with HOMG_BOX_EXACT_MAX=128.  Everything travels in /work/main/.carry-twod8/: dev.tar.xz
# (.devbuild/.devlibs as tools/dev/device-prep.sh packs them), base.tar.xz (main's stripped
# bench_grid as .carry-base/bench_grid) and this script; run from main's root:
# OUT=$OUT bash .carry-twod8/twod8_device.sh (carry [".carry-twod8"]).
set -u
C=.carry-twod8
rm -rf .devbuild .devlibs .carry-base; tar xJf $C/dev.tar.xz; tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=twod8 DEFAULT_BUDGET=${BUDGET:-122}
. bench/device_timed.sh
M=.carry-base/bench_grid
G=$B/bench/bench_grid
R="--sizes 256,512,1024,2048,4096 --reps 21 --methods fft,fused-v,warm"
V="--sizes 256,512,1024 --reps 21 --methods fused-v,warm"
X="--sizes 2048,4096 --reps 21 --methods fused-v"
NC="ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.max,smsp__inst_executed.sum"
echo "mine $(cat .devlibs/build-id), main $(cat .carry-base/build-id)" >> "$L"
timed 10 wide $B/tests/test_grid_gpu wide
timed 12 bench_main $M $R --out $OUT/g1_main.md
timed 10 bench_mine $G $R --out $OUT/g2_mine.md
timed 6 bench_r4s8 env HOMG_BOX_EXACT_ROWS=4 HOMG_BOX_EXACT_SPLIT=8 $G $V --out $OUT/g3_r4s8.md
timed 6 bench_r1s8 env HOMG_BOX_EXACT_ROWS=1 HOMG_BOX_EXACT_SPLIT=8 $G $V --out $OUT/g4_r1s8.md
timed 6 bench_r2s8 env HOMG_BOX_EXACT_ROWS=2 HOMG_BOX_EXACT_SPLIT=8 $G $V --out $OUT/g5_r2s8.md
timed 6 bench_r1s4 env HOMG_BOX_EXACT_ROWS=1 HOMG_BOX_EXACT_SPLIT=4 $G $V --out $OUT/g8_r1s4.md
timed 6 bench_x128 env HOMG_BOX_EXACT_MAX=128 $G $X --out $OUT/g6_x128.md
timed 6 bench_x128r1 env HOMG_BOX_EXACT_MAX=128 HOMG_BOX_EXACT_ROWS=1 $G $X --out $OUT/g7_x128r1.md
timed 12 bench_main2 $M $R --out $OUT/g9_main2.md
timed 8 ncu_main $NC -k "regex:exact_wide" --launch-count 2 --log-file $OUT/ncu_main.csv $M --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 ncu_mine $NC -k "regex:exact_wide" --launch-count 2 --log-file $OUT/ncu_mine.csv $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 ncu_mine_r4 env HOMG_BOX_EXACT_ROWS=4 $NC -k "regex:exact_wide" --launch-count 2 --log-file $OUT/ncu_mine_r4.csv $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 ncu_mine_warps ncu --clock-control none --cache-control none --section WarpStateStats --section Occupancy -k "regex:exact_wide" --launch-count 2 $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu wide
timed 10 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 --kernel-name kns=exact_wide $B/tests/test_grid_gpu wide
timed 8 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 --kernel-name kns=exact_wide $B/tests/test_grid_gpu wide
timed 20 grid_gpu $B/tests/test_grid_gpu
timed 12 grid_half_gpu $B/tests/test_grid_half_gpu
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 8 loop_x128 env HOMG_BOX_EXACT_MAX=128 $B/tests/test_grid_gpu loop
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/ncu_main.csv $OUT/ncu_mine.csv $OUT/ncu_mine_r4.csv; do [ -f $f ] && { echo "=== $f"; cat $f; } >> "$L"; rm -f $f; done
for f in $OUT/g?_*.md; do echo "=== $f"; cat $f; done > $OUT/twod8_grid.md 2>/dev/null
rm -f $OUT/g?_*.md
# the short table last: the bench rows of each run, the kernels' ncu times, the test lines
for f in g1_main g2_mine g3_r4s8 g4_r1s8 g5_r2s8 g8_r1s4 g6_x128 g7_x128r1 g9_main2; do
    echo "--- $f"
    awk -v f="$f" '/^=== /{on = index($0, f) > 0} on && (/^\| (256|512|1024|2048|4096)\^2 \| float32 \| (fft|fused-v) \|/ || / fused, warm \|/)' $OUT/twod8_grid.md | cut -c1-110
done | tail -c 6000
grep -E "^=== |gpu__time_duration|smsp__inst_executed|sm__cycles_active|registers_per" "$L" | grep -v "^=== [a-z]" | awk -F'","' '/^===/{print; next} {print $1, substr($5, 6, 28), $(NF-2), $NF}' | cut -c1-120 | tail -c 2500
grep -E "^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=|cycles" "$L" | grep -v "^=== done" | cut -c1-150 | tail -c 3000
