#!/bin/bash
# gen_device.sh -- the general-grid session's GPU-machine run (session 5, s5-gen): the
# tests and compute-sanitizer runs of the general multigrid's kernels, then the 2048^2
# disc solve and the smoke demo's frames with the defaults and with each switch that
# the benchmark times against (HOMG_GEN_COARSE_CACHED=0: the coarsest level's sweeps
# from the level's arrays; HOMG_GEN_SWEEP_BLOCK=n: one-block sweeps for levels of <= n
# cells, off by default).  Pack with tools/dev/device-prep.sh (DEV_FILES="bench/bench_grid
# bench/bench_fluid tests/test_grid_gpu tests/test_grid_ref tests/test_fluid_gpu
# tests/test_island_gpu"); an older build's bench_grid and bench_fluid in $MAIN (optional)
# run beside as the baseline.  Everything ends before BUDGET seconds; the log in
# $OUT/gen.log, the rows and test lines last on stdout.
set -u
NAME=gen DEFAULT_BUDGET=135
. "$(dirname "$0")/device_timed.sh"
G="--general --methods vcycle --reps 21"
timed 30 test_gen $B/tests/test_grid_gpu gen
timed 20 bench_new $B/bench/bench_grid $G --cases 4,3,5,6
timed 12 fluid_new $B/bench/bench_fluid --demo
[ -n "$MAIN" ] && timed 12 bench_main $MAIN/bench_grid $G --cases 4,3
[ -n "$MAIN" ] && timed 12 fluid_main $MAIN/bench_fluid --demo
timed 25 memcheck_gen compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 25 racecheck_gen compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 15 fluid_gpu $B/tests/test_fluid_gpu
timed 10 island_gpu $B/tests/test_island_gpu
timed 10 bench_oldcoarse env HOMG_GEN_COARSE_CACHED=0 $B/bench/bench_grid $G --cases 4
timed 10 bench_sweep4096 env HOMG_GEN_SWEEP_BLOCK=4096 $B/bench/bench_grid $G --cases 4
timed 10 fluid_oldcoarse env HOMG_GEN_COARSE_CACHED=0 $B/bench/bench_fluid --demo
timed 10 fluid_sweep4096 env HOMG_GEN_SWEEP_BLOCK=4096 $B/bench/bench_fluid --demo
timed 30 test_grid_gpu_all $B/tests/test_grid_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| (2D|Neumann|1024)|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA vs CPU|differ from|rc=" "$L" |
    grep -v "^=== done" | cut -c1-200 | tail -c 11000
