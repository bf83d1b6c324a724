#!/bin/bash
# gen2_device.sh -- the general-grid session's GPU-machine run (session 5, s5-gen2):
# the island labelling's GPU test and memcheck, the 2048^2 disc solve with its
# set_operator, the smoke demo's frames with the defaults and with each switch,
# main's bench_grid and bench_fluid beside ($MAIN), then the other tests.  Pack with
# tools/dev/device-prep.sh (DEV_FILES="bench/bench_grid bench/bench_fluid
# tests/test_grid_gpu tests/test_grid_ref tests/test_fluid_gpu tests/test_island_gpu").
# Everything ends before BUDGET seconds; the log in $OUT/gen2.log, rows last on stdout.
set -u
NAME=gen2 DEFAULT_BUDGET=135
. "$(dirname "$0")/device_timed.sh"
G="--general --methods vcycle --reps 21"
timed 12 bench_new $B/bench/bench_grid $G --cases 4
[ -n "$MAIN" ] && timed 12 bench_main $MAIN/bench_grid $G --cases 4
for v in ${GRID_ENVS:-}; do timed 8 "bench_$v" env "$v" $B/bench/bench_grid $G --cases 4; done
timed 10 fluid_new $B/bench/bench_fluid --demo
[ -n "$MAIN" ] && timed 10 fluid_main $MAIN/bench_fluid --demo
for v in ${FLUID_ENVS:-}; do timed 8 "fluid_$v" env "$v" $B/bench/bench_fluid --demo; done
timed 40 island_gpu stdbuf -oL $B/tests/test_island_gpu
timed 30 memcheck_island compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_island_gpu
[ -n "${SAN_GEN:-}" ] && timed 25 memcheck_gen compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 12 fluid_gpu $B/tests/test_fluid_gpu
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 15 test_gen $B/tests/test_grid_gpu gen
timed 10 bench_new_more $B/bench/bench_grid $G --cases 3,5
[ -n "$MAIN" ] && timed 10 bench_main_more $MAIN/bench_grid $G --cases 3,5
NCU="ncu --clock-control none --metrics gpu__time_duration.sum"
timed 25 ncu_islands $NCU -k "regex:init_kernel|hook_kernel|compress_kernel|mark_kernel" --launch-count 24 \
    $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 4
timed 30 ncu_fluid $NCU --launch-skip 4000 --launch-count 160 $B/bench/bench_fluid --demo
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
# ncu: kernel name and time (us) per profiled launch, summed per name
awk '/, Context [0-9]+, Stream/ {k=$0; sub(/^ +/, "", k); sub(/^void /, "", k); sub(/[<(].*/, "", k)} /gpu__time_duration.sum/ {t=$NF; gsub(/,/, "", t); if ($(NF-1)=="msecond") t*=1000; if ($(NF-1)=="nsecond") t/=1000; s[k]+=t; c[k]++} /^=== ncu_fluid/ {for (x in s) printf "ncu %s: %d launches, %.1f us\n", x, c[x], s[x] >> "'$OUT'/ncu_islands.txt"; delete s; delete c} END {for (x in s) printf "ncu %s: %d launches, %.1f us\n", x, c[x], s[x]}' "$L" > "$OUT/ncu_fluid.txt"
grep -E "^\| (2D|Neumann|1024)|^=== |ERROR SUMMARY|PASSED|FAILED|differ from|big case|rc=" "$L" |
    grep -v "^=== done" | cut -c1-200 | tail -c 8000
echo "--- ncu islands"; cat "$OUT/ncu_islands.txt" 2>/dev/null
echo "--- ncu fluid (160 launches)"; sort -t, -k2 "$OUT/ncu_fluid.txt" | head -40
