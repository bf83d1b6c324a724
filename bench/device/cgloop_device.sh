#!/bin/bash
# cgloop_device.sh -- s14-cgloop's one GPU-machine run (issue 12): the general (CG) solver's
# tolerance solves with their iterations in a device loop (lib/grid/general_loop.c,
# kernels/grid/gen_loop.cu, memory branch_begin/end: IF nodes in a WHILE body).  Tests:
# test_grid_gpu whole, compute-sanitizer memcheck on its "genloop" group (the new kernels are
# one-thread, no shared memory: no racecheck / synccheck); bench_grid --general from main
# (dc95d5e, /work/main/build at session start) beside this build (tol = 0 rows: unchanged
# path), then this build's "tol" rows (device loop against HOMG_GRID_DEVICE_LOOP=0).
# Everything travels in /work/main/.carry-cgloop/: dev.tar.xz (DEV_BUILD=build DEV_FILES=
# "tests/test_grid_gpu bench/bench_grid" sh tools/dev/device-prep.sh), base.tar.xz (main's
# stripped bench_grid as .carry-base/bench_grid) and this script; run from main's root:
# tar xJf .carry-cgloop/dev.tar.xz; OUT=$OUT bash .carry-cgloop/cgloop_device.sh
set -u
C=.carry-cgloop
rm -rf .devbuild .devlibs .carry-base; tar xJf $C/dev.tar.xz; tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
export HOMG_GRID_LOOP_VERBOSE=1 # a refused device loop says why (stderr, into the log)
NAME=cgloop DEFAULT_BUDGET=${BUDGET:-130}
. bench/device_timed.sh
M=.carry-base/bench_grid
CASES="0,4,5,6,15"
cat .devlibs/build-id >> "$L"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$L" 2>&1
timed 26 grid_gpu $B/tests/test_grid_gpu
timed 28 memcheck_genloop env HOMG_TEST_GENLOOP_SHORT=1 compute-sanitizer --error-exitcode 99 --tool memcheck $B/tests/test_grid_gpu genloop
timed 20 bench_main $M --general --reps 9 --cases $CASES --methods vcycle --out $OUT/general_main.md
timed 20 bench_mine $B/bench/bench_grid --general --reps 9 --cases $CASES --methods vcycle --out $OUT/general_mine.md
timed 30 bench_tol $B/bench/bench_grid --general --reps 9 --cases $CASES --methods tol --out $OUT/general_tol.md
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
cat $OUT/general_main.md $OUT/general_mine.md $OUT/general_tol.md > $OUT/general_all.md 2>/dev/null
rm -f $OUT/general_main.md $OUT/general_mine.md $OUT/general_tol.md
grep -E "^\| |^=== |general .* to |refused|ERROR SUMMARY|PASSED|FAILED|rc=" "$L" | grep -v "^=== done" | cut -c1-230 | tail -c 11500
