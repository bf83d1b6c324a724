#!/bin/bash
# smoke6_device.sh -- s6-smoke's GPU run (session 6): the general solver's coarsest level
# as a stored matrix (coarse_matrix / coarse_apply) against main's binaries (.devbuild/main,
# packed beside this build) and against this build with HOMG_GEN_COARSE_MATRIX=0 (the
# sweeps): bench_fluid --demo, bench_grid --general (vcycle rows, 3D up to 256^3), the smoke
# demo headless through EGL; then the GPU tests, test_grid_ref on CUDA, memcheck / racecheck
# of the new kernels and ncu of them.  Carry .carry-smoke (dev.tar.xz + this script) and .gl:
#   tar xJf .carry-smoke/dev.tar.xz; bash .carry-smoke/smoke6_device.sh
# Everything ends before BUDGET seconds; the log in $OUT/smoke6.log, rows last on stdout.
set -u
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
. ./.gl/gl-env.sh > /dev/null 2>&1
NAME=smoke6 DEFAULT_BUDGET=135 MAIN=.devbuild/main
. "$(dirname "$0")/device_timed.sh"
cat .devlibs/build-id >> "$L"
G="--general --methods vcycle --reps 5 --max3d 256"
timed 10 fluid_new $B/bench/bench_fluid --demo
timed 10 fluid_main $MAIN/bench_fluid --demo
timed 10 fluid_sweeps env HOMG_GEN_COARSE_MATRIX=0 $B/bench/bench_fluid --demo
timed 12 test_gen $B/tests/test_grid_gpu gen
timed 25 bench_new $B/bench/bench_grid $G
timed 25 bench_main $MAIN/bench_grid $G
timed 12 fluid_gpu $B/tests/test_fluid_gpu
SM="--size 1024 --frames 300 --backend cuda --vsync 0 --stats"
timed 10 smoke_new $B/demo/smoke $SM --png "$OUT/smoke-new.png"
timed 10 smoke_main $MAIN/smoke $SM --png "$OUT/smoke-main.png"
timed 8 fluid_new2 $B/bench/bench_fluid --demo
timed 8 fluid_main2 $MAIN/bench_fluid --demo
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 15 memcheck_gen compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 15 racecheck_gen compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu gen
NCU="ncu --clock-control none --metrics gpu__time_duration.sum"
timed 12 ncu_coarse_new $NCU -k "regex:coarse_(apply|solve|matrix)_kernel" --launch-count 8 $B/bench/bench_fluid --demo
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| (1024|2D|3D|Neumann|19|20)|^=== |^stats|frames on|ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" |
    grep -v "^=== done" | cut -c1-200 | tail -c 9000
echo "--- ncu (us)"
awk '/, Context [0-9]+, Stream/ {k=$0; sub(/^ +/, "", k); sub(/^void /, "", k); sub(/[<(].*/, "", k)}
     !/^===/ && /gpu__time_duration.sum/ {t=$NF; gsub(/,/, "", t); if ($(NF-1)=="msecond") t*=1000; if ($(NF-1)=="nsecond") t/=1000;
       printf "%s %.1f\n", k, t}' "$L" | tail -12
