#!/bin/bash
# s9-cube6's call: the 3D box's coarse levels (<= 16^3) in one block (kernels/grid/cube_coarse.cu) --
# test_cube_gpu (the block against its CPU twin and the cube kernels' launches, GPU solves block /
# launches / CPU), compute-sanitizer memcheck / racecheck / synccheck on `test_cube_gpu block`,
# bench_cube_block (64^3 .. 512^3: launches per solve, time, block on / off, FFT; the coarse cycle
# alone), bench_grid --general (cases 0,1,2) with the block (default), without it
# (HOMG_CUBE_BLOCK_CELLS=0, same binary) and main's binary; test_grid_ref on CUDA, test_grid_gpu;
# ncu of one block launch.  Pack: tools/dev/device-prep.sh with DEV_FILES="bench/bench_grid
# bench/bench_cube_block tests/test_cube_gpu tests/test_grid_ref tests/test_grid_gpu", main's
# stripped bench_grid added as .devbuild/bench/bench_grid_main.  Log: $OUT/cube6.log.
set -u
NAME=cube6 DEFAULT_BUDGET=${BUDGET:-180}
. bench/device_timed.sh # run from the repository root
MB=$B/bench/bench_grid_main
V="--general --methods vcycle --reps 9 --cases 0,1,2"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 30 cube_gpu $B/tests/test_cube_gpu
timed 15 memcheck_blk compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu block
timed 25 racecheck_blk compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu block
timed 15 synccheck_blk compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_cube_gpu block
timed 30 bench_block $B/bench/bench_cube_block --sizes 64,128,256,512 --reps 9
timed 15 bench_new $B/bench/bench_grid --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 12 bench_off env HOMG_CUBE_BLOCK_CELLS=0 $B/bench/bench_grid $V
timed 12 bench_main $MB $V
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 12 test_grid_gpu $B/tests/test_grid_gpu
timed 25 ncu_block ncu --clock-control none -k cube_block_kernel --launch-count 1 $B/bench/bench_cube_block --sizes 64 --reps 1
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| |^=== |ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK|PASSED|FAILED|block [0-9]|CUDA block|rc=|Duration|Registers|Shared Memory|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | awk '!seen[$0]++' | cut -c1-220 | tail -c 11000
