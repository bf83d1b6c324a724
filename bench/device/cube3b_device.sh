#!/bin/bash
# s7-cube3's second call (bench/device/cube3b_device.sh; pack as cube_device.sh says, with main's bench_grid as .devbuild/bench/bench_grid_main):
# the final commit's tests and 3D rows, main beside, and more sweeps on the coarse levels (HOMG_GEN_SMALL_*).
set -u
NAME=cube3b DEFAULT_BUDGET=${BUDGET:-100}
. "$(dirname "$0")/device_timed.sh"
MB=$B/bench/bench_grid_main
V="--general --methods vcycle --reps 9"
timed 15 cube_gpu $B/tests/test_cube_gpu
timed 8 memcheck_cube compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu small
timed 20 bench_plain $B/bench/bench_grid --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 12 bench_main $MB $V --cases 0,1,2
timed 8 small4 env HOMG_GEN_SMALL_CELLS=3e6 HOMG_GEN_SMALL_SWEEPS=4 $B/bench/bench_grid $V --cases 0,1
timed 8 small6 env HOMG_GEN_SMALL_CELLS=3e6 HOMG_GEN_SMALL_SWEEPS=6 $B/bench/bench_grid $V --cases 0,1
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|PASSED|FAILED|CUDA vs|rc=|bench_grid on" "$L" | grep -v "^=== done" | awk '!seen[$0]++' | cut -c1-200 | tail -c 5000
