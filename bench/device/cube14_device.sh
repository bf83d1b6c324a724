#!/bin/bash
# s12-cube14's call (issue 9, 128^3 within 2x the FFT): level 1 (64^3 at 128^3) solved exactly in
# three launches (kernels/grid/cube_sep.*: the separable inverse x = S D^-1 S^T b, a block per
# slice, 4 x 4 tiles a thread; HOMG_CUBE_EXACT_MAX=64, or 32 for the 32^3 level; the default at
# the call = main's 16^3) with the finest level's plans it allows (HOMG_CUBE_SCHED).  Tests:
# test_cube_gpu (incl. sep vs its CPU twin, GPU solves with it), compute-sanitizer memcheck /
# racecheck / synccheck on `test_cube_gpu sepsmall` (shared memory), test_cube_split_gpu with
# HOMG_CUBE_EXACT_MAX=64, test_grid_ref on CUDA; benchmarks: bench_grid --general (cases 0,1,2)
# main's binary / this branch, the candidates.
# Started as: tar xJf .carry-cube14/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH;
#   OUT=$OUT bash .carry-cube14/cube14_device.sh   (main's bench_grid in .carry-cube14/bench_grid.xz)
# Log: $OUT/cube14.log.
set -u
C=${C:-.carry-cube14}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube14 DEFAULT_BUDGET=${BUDGET:-130}
. bench/device_timed.sh # run from the repository root
M=.mainbin # main's bench_grid, packed (the carry holds 64 MiB with main's tree)
mkdir -p $M && xz -dc $C/bench_grid.xz > $M/bench_grid && chmod +x $M/bench_grid
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
X="env HOMG_CUBE_EXACT_MAX=64"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 8 sep_gpu $B/tests/test_cube_gpu sep
timed 8 bench_main $M/bench_grid $G
timed 8 bench_new $B/bench/bench_grid $G
timed 5 x64 $X $B/bench/bench_grid $V
timed 5 x64_11 $X HOMG_CUBE_SCHED=11 $B/bench/bench_grid $V
timed 5 x64_21 $X HOMG_CUBE_SCHED=21 $B/bench/bench_grid $V
timed 5 x64_22 $X HOMG_CUBE_SCHED=22 $B/bench/bench_grid $V
timed 5 x64_13 $X HOMG_CUBE_SCHED=13 $B/bench/bench_grid $V
timed 5 x32 env HOMG_CUBE_EXACT_MAX=32 $B/bench/bench_grid $V
timed 5 x32_12_12 env HOMG_CUBE_EXACT_MAX=32 HOMG_CUBE_SCHED=12,12 $B/bench/bench_grid $V
timed 5 main2 $M/bench_grid $V
timed 5 x64_2 $X $B/bench/bench_grid $V
timed 10 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 12 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 10 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 20 cube_gpu $B/tests/test_cube_gpu
timed 12 split_gpu_x64 $X $B/tests/test_cube_split_gpu
timed 15 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA vs CPU|level 1 exact|mismatch|differ|rc=|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | awk '/^=== /{delete seen} !seen[$0]++' | cut -c1-120 | tail -c 11500
