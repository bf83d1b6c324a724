#!/bin/bash
# smoke2b_device.sh -- s6-smoke2's second GPU run, on the final build (the step's tail queued
# before the counted projection's host wait; the fused scalar steps reverted): bench_fluid
# --demo (frame = step + the density's colour map, range found / given) alternating with
# main's binary (.devbuild/main), test_fluid_gpu (+ memcheck: the history's side lane),
# test_grid_gpu gen.  Carry .carry-smoke2:
#   tar xJf .carry-smoke2/dev.tar.xz; bash .carry-smoke2/smoke2b_device.sh
set -u
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=smoke2b DEFAULT_BUDGET=${BUDGET:-60} MAIN=.devbuild/main
. "$(dirname "$0")/device_timed.sh"
cat .devlibs/build-id .devbuild/main/build-id >> "$L"
timed 8 fluid_gpu $B/tests/test_fluid_gpu
timed 12 memcheck_fluid compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_fluid_gpu quick
timed 8 test_gen $B/tests/test_grid_gpu gen
for k in 1 2 3; do
    timed 5 fluid_new$k $B/bench/bench_fluid --demo
    timed 5 fluid_main$k $MAIN/bench_fluid --demo
    timed 5 fluid_given$k $B/bench/bench_fluid --demo --range-given
done
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 1024|^=== |^# homg|ERROR SUMMARY|PASSED|FAILED|rc=" "$L" | grep -v "^=== done" | cut -c1-200 | tail -c 11000
