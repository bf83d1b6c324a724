#!/bin/bash
# s11-cube10's call: the plain V-cycles' sweeps per level and cycle (HOMG_CUBE_SCHED, lib/grid/general.c
# cycle_sweeps; default "22,33,22;12,33,22").  bench_grid --general (cases 0,1,2: the 3D Dirichlet box
# to error 1e-4 at 128^3 / 256^3 / 512^3): this branch (vcycle,fft), main's binary (vcycle,fft; $C/bench_grid.xz:
# /work/main/build/bench/bench_grid, stripped), this binary with session 10's schedule (HOMG_CUBE_SCHED=0)
# and with the other plans the CPU experiment kept (tools/dev/cube_schedules.c CS_PLAN), then the default
# and main again (noise); test_cube_split_gpu (default, and a plan with 3 sweeps in the cube block),
# compute-sanitizer memcheck on `test_cube_split_gpu small`, racecheck + synccheck on `test_cube_gpu
# block` (the shared-memory block now runs the plan's sweeps), test_cube_gpu, test_grid_ref on CUDA.
# Pack: DEV_BUILD=build DEV_FILES="tests/test_cube_gpu tests/test_cube_split_gpu tests/test_grid_ref
# bench/bench_grid" sh tools/dev/device-prep.sh; the pack, bench_grid.xz and this script copied into the
# ignored folder C of the checkout the device tool sends (/work/main/.carry-cube10), carried;
# `bash $C/cube10_device.sh`.  Log: $OUT/cube10.log.
set -u
C=${C:-.carry-cube10}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
xz -dc $C/bench_grid.xz > .devbuild/bench/bench_grid_main && chmod +x .devbuild/bench/bench_grid_main
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube10 DEFAULT_BUDGET=${BUDGET:-132}
. bench/device_timed.sh # run from the repository root
MB=$B/bench/bench_grid_main
V="--general --methods vcycle --reps 9 --cases 0,1,2"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 15 bench_new $B/bench/bench_grid --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 15 bench_main $MB --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 8 plan_0 env HOMG_CUBE_SCHED=0 $B/bench/bench_grid $V
for p in "12,33,22" "12,33" "22,33;12,33" "12,32,22" "12,33,33,22" "22,32;12,32" "22,33,33,22;12,33,33,22"; do
    timed 8 "plan_$p" env HOMG_CUBE_SCHED="$p" $B/bench/bench_grid $V
done
timed 8 bench_new2 $B/bench/bench_grid $V
timed 8 bench_main2 $MB $V
timed 20 split_gpu $B/tests/test_cube_split_gpu
timed 20 split_gpu_12_33 env HOMG_CUBE_SCHED=12,33 $B/tests/test_cube_split_gpu
timed 15 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_split_gpu small
timed 10 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu block
timed 10 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_cube_gpu block
timed 15 cube_gpu $B/tests/test_cube_gpu
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^\| [0-9]+\^3|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA split|mismatch|differ|rc=|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | cut -c1-180 | tail -c 11500
