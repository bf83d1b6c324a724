#!/bin/bash
# s12-cube15's call (issue 9, 128^3 within 2x the FFT): cube14's three-launch exact solve of a
# <= 64-a-side box level made fast (kernels/grid/cube_sep.cu: a block per tile of TW columns
# of a slice, 4x the blocks at TW 16, b -> scratch -> x; HOMG_CUBE_SEP_TW=16/32/64; used with
# HOMG_CUBE_EXACT_MAX=32 / 64, the default at the call = main's 16^3 path).  Tests: test_cube_gpu
# (sep vs its CPU twin at every TW, GPU solves with it), test_cube_split_gpu with
# HOMG_CUBE_EXACT_MAX=64, compute-sanitizer memcheck / racecheck / synccheck on
# `test_cube_gpu sepsmall`; ncu of the three passes at 128^3; bench_grid --general (cases 0,1,2)
# main's binary / this branch's knobs.
# Started as: tar xJf .carry-cube15/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH;
#   OUT=$OUT bash .carry-cube15/cube15_device.sh   (main's bench_grid in .carry-cube15/bench_grid.xz)
# Log: $OUT/cube15.log.
set -u
C=${C:-.carry-cube15}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube15 DEFAULT_BUDGET=${BUDGET:-128}
. bench/device_timed.sh # run from the repository root
M=.mainbin # main's bench_grid, packed
mkdir -p $M && xz -dc $C/bench_grid.xz > $M/bench_grid && chmod +x $M/bench_grid
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
X="env HOMG_CUBE_EXACT_MAX=64"
NCU="ncu --clock-control none -k regex:cube_sep_pass -c 3 --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 10 sep_gpu $B/tests/test_cube_gpu sep
timed 10 bench_main $M/bench_grid $G
timed 10 bench_new $B/bench/bench_grid $G
timed 6 x64 $X $B/bench/bench_grid $V
timed 6 x64_tw32 $X HOMG_CUBE_SEP_TW=32 $B/bench/bench_grid $V
timed 6 x64_tw64 $X HOMG_CUBE_SEP_TW=64 $B/bench/bench_grid $V
timed 6 x32 env HOMG_CUBE_EXACT_MAX=32 $B/bench/bench_grid $V
timed 6 x32_tw32 env HOMG_CUBE_EXACT_MAX=32 HOMG_CUBE_SEP_TW=32 $B/bench/bench_grid $V
timed 6 main2 $M/bench_grid $V
timed 6 x64_2 $X $B/bench/bench_grid $V
timed 6 x16_2 env HOMG_CUBE_EXACT_MAX=16 $B/bench/bench_grid $V
timed 25 ncu_x64 $X $NCU $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 0
timed 10 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 12 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 10 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 15 cube_gpu $B/tests/test_cube_gpu
timed 15 split_gpu_x64 $X $B/tests/test_cube_split_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA vs CPU|level 1 exact|mismatch|differ|rc=|^[0-9a-f]{7}$|cube_sep_pass|Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|Stall|Warp Cycles Per Issued" "$L" | grep -v "^=== done" | awk '/^=== /{delete seen} !seen[$0]++' | cut -c1-120 | tail -c 11500
