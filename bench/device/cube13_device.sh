#!/bin/bash
# s12-cube13's call (issue 9, 128^3 within 2x the FFT): the 16^3 level solved exactly in one
# launch (kernels/grid/cube_exact.*: the separable operator's eigen-decomposition per axis, six
# small transforms in one thread block; HOMG_CUBE_EXACT=1, off by default at the call) in place
# of the V-cycle from 16^3 down (8 launches and the cube block a cycle), with the plans it allows
# (HOMG_CUBE_SCHED: 12,22 = V(2,2) on level 1 instead of V(3,2), CPU model 6.5e-5 after 3 cycles
# at 128^3).  Tests: test_cube_gpu (incl. exact vs its CPU twin and GPU solves with it),
# test_cube_split_gpu as is and with HOMG_CUBE_EXACT=1, compute-sanitizer memcheck / racecheck /
# synccheck on `test_cube_gpu exact` (shared memory), test_grid_ref on CUDA; benchmarks:
# bench_grid --general (cases 0,1,2) main's binary / this branch, the candidates, repeats.
# Started as: tar xJf .carry-cube13/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH;
#   OUT=$OUT bash .carry-cube13/cube13_device.sh   (main's bench_grid in .carry-cube13/bench_grid.xz)
# Log: $OUT/cube13.log.
set -u
C=${C:-.carry-cube13}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube13 DEFAULT_BUDGET=${BUDGET:-128}
. bench/device_timed.sh # run from the repository root
M=.mainbin # main's bench_grid, packed (the carry holds 64 MiB with main's tree)
mkdir -p $M && xz -dc $C/bench_grid.xz > $M/bench_grid && chmod +x $M/bench_grid
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
X="env HOMG_CUBE_EXACT=1"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 20 cube_gpu $B/tests/test_cube_gpu
timed 8 bench_main $M/bench_grid $G
timed 8 bench_new $B/bench/bench_grid $G
timed 5 exact $X $B/bench/bench_grid $V
timed 5 exact_12_22 $X HOMG_CUBE_SCHED=12,22 $B/bench/bench_grid $V
timed 5 exact_12_32_12 $X HOMG_CUBE_SCHED=12,32,12 $B/bench/bench_grid $V
timed 5 exact_12_23 $X HOMG_CUBE_SCHED=12,23 $B/bench/bench_grid $V
timed 5 exact_22_22_12_22 $X "HOMG_CUBE_SCHED=22,22;12,22" $B/bench/bench_grid $V
timed 5 exact_12_33_11 $X HOMG_CUBE_SCHED=12,33,11 $B/bench/bench_grid $V
timed 5 main2 $M/bench_grid $V
timed 5 exact_12_22_2 $X HOMG_CUBE_SCHED=12,22 $B/bench/bench_grid $V
timed 5 exact_2 $X $B/bench/bench_grid $V
timed 10 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu exact
timed 10 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu exact
timed 10 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_cube_gpu exact
timed 12 split_gpu_exact $X $B/tests/test_cube_split_gpu
timed 12 split_gpu $B/tests/test_cube_split_gpu
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA vs CPU|CUDA exact|mismatch|differ|rc=|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | grep -v "exact [0-9]*\.[01] " | awk '/^=== /{delete seen} !seen[$0]++' | cut -c1-120 | tail -c 11500
