#!/bin/bash
# gen3_device.sh -- the general-grid session's one GPU-machine run (session 5, s5-gen3):
# set_operator of the 2048^2 discs (island labelling with L1-cached loads) and the smoke
# demo's frames (the coarsest level's sweeps from registers; HOMG_GEN_SMALL_* and
# HOMG_GEN_COARSE_SWEEPS variants), main's bench_grid and bench_fluid beside ($MAIN),
# then the GPU tests, memcheck / racecheck of the changed kernels and ncu of them.
# Pack with tools/dev/device-prep.sh (DEV_FILES="bench/bench_grid bench/bench_fluid
# tests/test_grid_gpu tests/test_grid_ref tests/test_fluid_gpu tests/test_island_gpu").
# Everything ends before BUDGET seconds; the log in $OUT/gen3.log, rows last on stdout.
set -u
NAME=gen3 DEFAULT_BUDGET=160
. "$(dirname "$0")/device_timed.sh"
G="--general --methods vcycle --reps 21 --cases 4"
timed 12 bench_new $B/bench/bench_grid $G
[ -n "$MAIN" ] && timed 12 bench_main $MAIN/bench_grid $G
timed 10 fluid_new $B/bench/bench_fluid --demo
[ -n "$MAIN" ] && timed 10 fluid_main $MAIN/bench_fluid --demo
timed 20 island_gpu stdbuf -oL $B/tests/test_island_gpu
timed 12 test_gen $B/tests/test_grid_gpu gen
timed 10 fluid_gpu $B/tests/test_fluid_gpu
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 25 memcheck_island compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_island_gpu
timed 20 racecheck_gen compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu gen
for v in ${FLUID_ENVS:-}; do timed 8 "fluid_$v" env ${v//,/ } $B/bench/bench_fluid --demo; done
timed 8 fluid_new2 $B/bench/bench_fluid --demo
[ -n "$MAIN" ] && timed 8 fluid_main2 $MAIN/bench_fluid --demo
for v in ${GRID_ENVS:-}; do timed 8 "bench_$v" env ${v//,/ } $B/bench/bench_grid $G; done
timed 20 memcheck_gen compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu gen
NCU="ncu --clock-control none --metrics gpu__time_duration.sum"
timed 15 ncu_coarse_new $NCU -k regex:coarse_solve_kernel --launch-skip 100 --launch-count 6 $B/bench/bench_fluid --demo
[ -n "$MAIN" ] && timed 15 ncu_coarse_main $NCU -k regex:coarse_solve_kernel --launch-skip 100 --launch-count 6 \
    $MAIN/bench_fluid --demo
timed 20 ncu_islands $NCU -k "regex:hook_kernel|compress_kernel" --launch-count 16 \
    $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 4
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| (2D|1024)|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|mismatch|rc=|set_operator" "$L" |
    grep -v "^=== done" | cut -c1-180 | tail -c 7000
echo "--- ncu (us)"
awk '/, Context [0-9]+, Stream/ {k=$0; sub(/^ +/, "", k); sub(/^void /, "", k); sub(/[<(].*/, "", k)}
     /^=== ncu/ {tag=$2}
     !/^===/ && /gpu__time_duration.sum/ {t=$NF; gsub(/,/, "", t); if ($(NF-1)=="msecond") t*=1000; if ($(NF-1)=="nsecond") t/=1000;
       printf "%s %s %.1f\n", tag, k, t}' "$L" | tail -40
