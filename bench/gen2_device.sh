#!/bin/bash
# gen2_device.sh -- the general-grid session's GPU-machine run (session 5, s5-gen2):
# the island labelling's GPU test and memcheck, the 2048^2 disc solve with its
# set_operator, the smoke demo's frames with the defaults and with each switch,
# main's bench_grid and bench_fluid beside ($MAIN), then the other tests.  Pack with
# tools/dev/device-prep.sh (DEV_FILES="bench/bench_grid bench/bench_fluid
# tests/test_grid_gpu tests/test_grid_ref tests/test_fluid_gpu tests/test_island_gpu").
# Everything ends before BUDGET seconds; the log in $OUT/gen2.log, rows last on stdout.
set -u
B=${B:-.devbuild}
MAIN=${MAIN:-}
OUT=${OUT:-/tmp/homg-out}
L=$OUT/gen2.log
mkdir -p "$OUT"
: > "$L"
deadline=$(($(date +%s) + ${BUDGET:-135}))
S=""
timed() { # LIMIT TAG COMMAND...
    local lim=$1 tag=$2 left t0 rc
    shift 2
    left=$((deadline - $(date +%s)))
    [ "$left" -lt "$lim" ] && lim=$left
    if [ "$lim" -lt 3 ]; then S="$S\n$tag: not run (budget)"; return; fi
    t0=$(date +%s%N)
    echo "=== $tag: $*" >> "$L"
    timeout "$lim" "$@" >> "$L" 2>&1
    rc=$?
    S="$S\n$tag: rc=$rc $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$L" 2>&1
date -u >> "$L"
G="--general --methods vcycle --reps 21"
timed 15 island_gpu $B/tests/test_island_gpu
timed 12 bench_new $B/bench/bench_grid $G --cases 4
[ -n "$MAIN" ] && timed 12 bench_main $MAIN/bench_grid $G --cases 4
timed 10 fluid_new $B/bench/bench_fluid --demo
[ -n "$MAIN" ] && timed 10 fluid_main $MAIN/bench_fluid --demo
for v in ${FLUID_ENVS:-}; do timed 10 "fluid_$v" env "$v" $B/bench/bench_fluid --demo; done
timed 30 memcheck_island compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_island_gpu
[ -n "${SAN_GEN:-}" ] && timed 25 memcheck_gen compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu gen
[ -n "${SAN_GEN:-}" ] && timed 25 racecheck_gen compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 12 fluid_gpu $B/tests/test_fluid_gpu
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 20 test_gen $B/tests/test_grid_gpu gen
timed 8 bench_new_more $B/bench/bench_grid $G --cases 3,5
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| (2D|Neumann|1024)|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA vs CPU|differ from|rc=" "$L" |
    grep -v "^=== done" | cut -c1-220 | tail -c 11000
