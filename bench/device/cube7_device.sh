#!/bin/bash
# s10-cube7's call: the plain 3D box's finest level split by colour (kernels/grid/cube_split*) --
# test_cube_split_gpu (every split kernel CUDA vs its CPU twin, GPU solves split / natural / CPU),
# compute-sanitizer memcheck on `test_cube_split_gpu small` (no shared memory: no race/sync check),
# bench_cube_split (each pass alone, natural vs split, 128^3 .. 512^3), bench_grid --general
# (cases 0,1,2) with the split (default), without it (HOMG_CUBE_SPLIT=0, same binary) and main's
# binary (.carry-base/bench_grid.xz: /work/main/build/bench/bench_grid, main c321091, stripped); then test_cube_gpu and test_grid_ref on
# CUDA (general.c changed).  Pack: DEV_BUILD=build DEV_FILES="tests/test_cube_split_gpu
# tests/test_cube_gpu tests/test_grid_ref bench/bench_grid bench/bench_cube_split" sh
# tools/dev/device-prep.sh; .carry-dev/dev.tar.xz, .carry-base/bench_grid.xz and this script copied into
# one ignored folder C of the checkout the device tool sends, carried; `bash $C/cube7_device.sh`.
# Log: $OUT/cube7.log.
set -u
C=${C:-.carry-cube7} # the pack, main's bench_grid.xz and this script (the device tool sends the session's checkout)
tar xJf $C/dev.tar.xz
xz -dc $C/bench_grid.xz > .devbuild/bench/bench_grid_main && chmod +x .devbuild/bench/bench_grid_main
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube7 DEFAULT_BUDGET=${BUDGET:-170}
. bench/device_timed.sh # run from the repository root
MB=$B/bench/bench_grid_main
V="--general --methods vcycle --reps 9 --cases 0,1,2"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 50 split_gpu $B/tests/test_cube_split_gpu
timed 20 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_split_gpu small
timed 20 bench_passes $B/bench/bench_cube_split --sizes 128,256,512 --reps 21
timed 18 bench_new $B/bench/bench_grid --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 14 bench_nosplit env HOMG_CUBE_SPLIT=0 $B/bench/bench_grid $V
timed 14 bench_main $MB $V
timed 30 cube_gpu $B/tests/test_cube_gpu
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| |^=== |ERROR SUMMARY|PASSED|FAILED|levels,|CUDA split|mismatch|differ|rc=|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | awk '!seen[$0]++' | cut -c1-200 | tail -c 11000
