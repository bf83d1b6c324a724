#!/bin/bash
# s8-cube4's call (bench/device/cube4_device.sh; pack as bench/cube_device.sh says, with main's
# bench_grid as .devbuild/bench/bench_grid_main): the plain box cycles with SOR 1.1 and the way up
# from colour 0 -- tests (every cube kernel CUDA vs CPU with omega 1 and 1.1, prolongation with either
# colour; GPU solves vs CPU), memcheck / racecheck, the 3D boxes 128^3 / 256^3 / 512^3 (bench_grid
# --general) with the new default, session 7's schedule in the same binary (HOMG_CUBE_OMEGA=1
# HOMG_CUBE_SYM=1) and main's binary; test_grid_ref on CUDA.
set -u
NAME=cube4 DEFAULT_BUDGET=${BUDGET:-160}
. "$(dirname "$0")/device_timed.sh"
MB=$B/bench/bench_grid_main
V="--general --methods vcycle --reps 9 --cases 0,1,2"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 15 cube_gpu $B/tests/test_cube_gpu
timed 10 memcheck_cube compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu small
timed 12 racecheck_cube compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu small
timed 20 bench_new $B/bench/bench_grid --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 14 bench_s7 env HOMG_CUBE_OMEGA=1 HOMG_CUBE_SYM=1 $B/bench/bench_grid $V
timed 14 bench_main $MB $V
timed 10 bench_w115 env HOMG_CUBE_OMEGA=1.15 $B/bench/bench_grid $V
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 10 test_grid_gpu $B/tests/test_grid_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA vs|rc=|bench_grid on|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | awk '!seen[$0]++' | cut -c1-200 | tail -c 6000
