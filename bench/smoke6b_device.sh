#!/bin/bash
# smoke6b_device.sh -- s6-smoke's second GPU run: smoke6_device.sh's comparison after the
# fluid step's u and v advection became one launch (advect_velocity) and the solve history
# one device-to-host copy (grid.c history_part), against main's binaries (.devbuild/main):
# bench_fluid --demo (twice each, and HOMG_GEN_COARSE_MATRIX=0), the smoke demo, the whole
# test_grid_gpu and test_fluid_gpu, test_grid_ref on CUDA, bench_grid --general (vcycle
# rows), memcheck of test_fluid_gpu.  Carry .carry-smoke (dev.tar.xz, this script,
# device_timed.sh) and .gl:  tar xJf .carry-smoke/dev.tar.xz; bash .carry-smoke/smoke6b_device.sh
set -u
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
. ./.gl/gl-env.sh > /dev/null 2>&1
NAME=smoke6b DEFAULT_BUDGET=135 MAIN=.devbuild/main
. "$(dirname "$0")/device_timed.sh"
cat .devlibs/build-id >> "$L"
G="--general --methods vcycle --reps 5 --max3d 256"
SM="--size 1024 --frames 300 --backend cuda --vsync 0 --stats"
timed 10 fluid_new $B/bench/bench_fluid --demo
timed 10 fluid_main $MAIN/bench_fluid --demo
timed 12 fluid_gpu $B/tests/test_fluid_gpu
timed 10 smoke_new $B/demo/smoke $SM --png "$OUT/smoke-new.png"
timed 10 smoke_main $MAIN/smoke $SM --png "$OUT/smoke-main.png"
timed 8 fluid_new2 $B/bench/bench_fluid --demo
timed 8 fluid_main2 $MAIN/bench_fluid --demo
timed 8 fluid_sweeps env HOMG_GEN_COARSE_MATRIX=0 $B/bench/bench_fluid --demo
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 25 grid_gpu $B/tests/test_grid_gpu
timed 12 memcheck_fluid compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_fluid_gpu quick
timed 10 smoke_new2 $B/demo/smoke $SM --png "$OUT/smoke-new2.png"
timed 10 smoke_main2 $MAIN/smoke $SM --png "$OUT/smoke-main2.png"
timed 20 bench_new $B/bench/bench_grid $G
timed 20 bench_main $MAIN/bench_grid $G
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| (1024|2D|3D|Neumann|19|20)|^=== |^stats|frames on|ERROR SUMMARY|PASSED|FAILED|differ|rc=" "$L" |
    grep -v "^=== done" | cut -c1-230 | tail -c 11000
