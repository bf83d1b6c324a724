#!/bin/bash
# smoke2_device.sh -- s6-smoke2's GPU run: the fluid step's tail queued before the counted
# projection's host wait, and the CG's scalar steps in the last block of dot2/update_ur
# (HOMG_GEN_FUSE_STEP=0: the separate launches, same binary), against main's binaries
# (.devbuild/main): bench_fluid --demo (its frame column: step + the density's colour map),
# test_grid_gpu gen (+ memcheck, racecheck), test_fluid_gpu, test_grid_ref on CUDA, the
# whole bench_grid --general vcycle table.  Carry .carry-smoke2 (dev.tar.xz, this script,
# device_timed.sh):  tar xJf .carry-smoke2/dev.tar.xz; bash .carry-smoke2/smoke2_device.sh
set -u
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=smoke2 DEFAULT_BUDGET=${BUDGET:-138} MAIN=.devbuild/main
. "$(dirname "$0")/device_timed.sh"
cat .devlibs/build-id >> "$L"
G="--general --methods vcycle --reps 5 --max3d 256"
timed 14 test_gen $B/tests/test_grid_gpu gen
timed 10 fluid_new $B/bench/bench_fluid --demo
timed 10 fluid_main $MAIN/bench_fluid --demo
timed 10 fluid_nofuse env HOMG_GEN_FUSE_STEP=0 $B/bench/bench_fluid --demo
timed 12 fluid_gpu $B/tests/test_fluid_gpu
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 20 bench_new $B/bench/bench_grid $G
timed 20 bench_main $MAIN/bench_grid $G
timed 12 memcheck_gen compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 12 racecheck_gen compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 8 fluid_new2 $B/bench/bench_fluid --demo
timed 8 fluid_main2 $MAIN/bench_fluid --demo
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| (1024|2D|3D|Neumann|19|20)|^=== |frames on|ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|gen .*CUDA vs CPU|rc=" "$L" |
    grep -v "^=== done" | cut -c1-200 | tail -c 11000
