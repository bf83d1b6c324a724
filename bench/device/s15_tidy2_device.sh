#!/bin/bash
# s15_tidy2_device.sh -- s15-tidy2's one GPU-machine run (a tidying: the 2D box solver's knobs; defaults
# unchanged).  Order by priority (the budget cuts the tail): bench_grid main (86ab6e1,
# /work/main/build) then this build, the GPU tests (test_grid_gpu whole, test_grid_half_gpu,
# test_grid_ref on CUDA), memcheck on test_grid_gpu rows / owned / mid, main and this build again.
# Everything travels in /work/main/.carry-tidy2/: dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/
# test_grid_gpu tests/test_grid_half_gpu tests/test_grid_ref bench/bench_grid" sh
# tools/dev/device-prep.sh), base.tar.xz (main's stripped bench_grid as .carry-base/bench_grid)
# and this script; run from main's root: OUT=$OUT bash .carry-tidy2/s15_tidy2_device.sh
# (carry [".carry-tidy2"]).
set -u
C=.carry-tidy2
rm -rf .devbuild .devlibs .carry-base
tar xJf $C/dev.tar.xz
tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=s15_tidy2 DEFAULT_BUDGET=${BUDGET:-105}
. bench/device_timed.sh
M=.carry-base/bench_grid
G=$B/bench/bench_grid
R="--sizes 256,1024,2048,4096 --reps 21 --methods fft,fused-v,warm"
echo "mine $(cat .devlibs/build-id), main $(cat .carry-base/build-id | tr '\n' ' ')" >> "$L"
timed 10 bench_main $M $R --out $OUT/g1_main.md
timed 10 bench_mine $G $R --out $OUT/g2_mine.md
timed 30 grid_gpu $B/tests/test_grid_gpu
timed 10 grid_half_gpu $B/tests/test_grid_half_gpu
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 8 memcheck_rows compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu rows
timed 8 memcheck_owned compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu owned
timed 14 memcheck_mid compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu mid
timed 9 bench_main2 $M $R --out $OUT/g3_main2.md
timed 9 bench_mine2 $G $R --out $OUT/g4_mine2.md
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/g?_*.md; do echo "=== $f"; cat $f; done > $OUT/s15_tidy2_grid.md 2>/dev/null
rm -f $OUT/g?_*.md
# the short table last: the bench rows of each run, then the tests' and sanitizers' lines
for f in g1_main g2_mine g3_main2 g4_mine2; do
    echo "--- $f"
    awk -v f="$f" '/^=== /{on = index($0, f) > 0} on && /^\| (256|1024|2048|4096)\^2 \|/' $OUT/s15_tidy2_grid.md | cut -c1-160
done | tail -c 7000
grep -E "^=== |ERROR SUMMARY|PASSED|FAILED|rc=|CPU .* launches|mid .* launches" "$L" | grep -v "^=== done" | cut -c1-170 | tail -c 4000
