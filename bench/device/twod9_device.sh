#!/bin/bash
# twod9_device.sh -- s15-twod9's one GPU-machine run (issue 12, 256^2 to 1e-4 in <= 40 us): exact_wide's
# two passes with the sine bases' symmetry folds (pass 1 folds its input, pass 2 sums even and odd
# modes apart and writes a point with its mirror).  Order by priority (the budget cuts the tail):
# the kernels against their CPU twin on the real bases (test_grid_gpu wide), bench_grid main
# (7e3d246) / mine / main / mine alternating, ncu of the two wide passes (main's and mine),
# compute-sanitizer memcheck / racecheck / synccheck on the wide group, the full test_grid_gpu,
# test_grid_half_gpu, test_grid_ref on cuda.  Everything travels in /work/main/.carry-twod9/:
# dev.tar.xz (tools/dev/device-prep.sh's pack), base.tar.xz (main's stripped bench_grid as
# .carry-base/bench_grid) and this script; run from main's root:
# OUT=$OUT bash .carry-twod9/twod9_device.sh (carry [".carry-twod9"]).
set -u
C=.carry-twod9
rm -rf .devbuild .devlibs .carry-base; tar xJf $C/dev.tar.xz; tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=twod9 DEFAULT_BUDGET=${BUDGET:-112}
. bench/device_timed.sh
M=.carry-base/bench_grid
G=$B/bench/bench_grid
R="--sizes 256,512,1024 --reps 31 --methods fft,fused-v,warm"
NC="ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.max,smsp__inst_executed.sum"
echo "mine $(cat .devlibs/build-id), main $(cat .carry-base/build-id)" >> "$L"
timed 10 wide $B/tests/test_grid_gpu wide
timed 10 bench_main1 $M $R --out $OUT/g1_main1.md
timed 10 bench_mine1 $G $R --out $OUT/g2_mine1.md
timed 10 bench_main2 $M $R --out $OUT/g3_main2.md
timed 10 bench_mine2 $G $R --out $OUT/g4_mine2.md
timed 8 ncu_main $NC -k "regex:exact_wide" --launch-count 2 --log-file $OUT/ncu_main.csv $M --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 ncu_mine $NC -k "regex:exact_wide" --launch-count 2 --log-file $OUT/ncu_mine.csv $G --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 8 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu wide
timed 10 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 --kernel-name kns=exact_wide $B/tests/test_grid_gpu wide
timed 8 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 --kernel-name kns=exact_wide $B/tests/test_grid_gpu wide
timed 20 grid_gpu $B/tests/test_grid_gpu
timed 12 grid_half_gpu $B/tests/test_grid_half_gpu
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/ncu_main.csv $OUT/ncu_mine.csv; do [ -f $f ] && { echo "=== $f"; cat $f; } >> "$L"; rm -f $f; done
for f in $OUT/g?_*.md; do echo "=== $f"; cat $f; done > $OUT/twod9_grid.md 2>/dev/null
rm -f $OUT/g?_*.md
# the short table last: the bench rows of each run, the kernels' ncu times, the test lines
for f in g1_main1 g2_mine1 g3_main2 g4_mine2; do
    echo "--- $f"
    awk -v f="$f" '/^=== /{on = index($0, f) > 0} on && (/^\| (256|512|1024)\^2 \| float32 \| (fft|fused-v) \|/ || / fused, warm \|/)' $OUT/twod9_grid.md | cut -c1-130
done | tail -c 5000
grep -E "^=== |gpu__time_duration|smsp__inst_executed|sm__cycles_active|registers_per" "$L" | grep -v "^=== [a-z]" | awk -F'","' '/^===/{print; next} {print $1, substr($5, 6, 28), $(NF-2), $NF}' | cut -c1-120 | tail -c 2500
grep -E "^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" | cut -c1-150 | tail -c 3000
