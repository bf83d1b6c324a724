#!/bin/bash
# s13-cube17's call (issue 9, 128^3 within 2x the FFT): the 32^3 exact solve in ONE launch on a
# thread-block cluster (kernels/grid/cube_cluster.cu, HOMG_CUBE_CLUSTER=16 / 8, half transforms
# on persymmetric axes; HOMG_CUBE_CLUSTER_HALF=0: full ones; default 0 = main's three launches
# of cube_sep.cu).  Tests: test_cube_gpu clu (the kernel vs its CPU twin
# bit for bit, GPU solves with it), test_cube_gpu whole, compute-sanitizer memcheck / racecheck /
# synccheck on `test_cube_gpu clusmall`, test_cube_split_gpu with the cluster; ncu of the cluster
# kernel and the three passes at 128^3 (warm caches); bench_grid --general (cases 0,1,2) main's
# binary / this branch's default and knobs, twice each, interleaved.
# Started as: tar xJf .carry-cube17/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH;
#   OUT=$OUT bash .carry-cube17/cube17_device.sh   (main's bench_grid in .carry-cube17/bench_grid.xz)
# Log: $OUT/cube17.log.
set -u
C=${C:-.carry-cube17}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube17 DEFAULT_BUDGET=${BUDGET:-138}
. $C/device_timed.sh # run from the repository root
M=.mainbin # main's bench_grid, packed
mkdir -p $M && xz -dc $C/bench_grid.xz > $M/bench_grid && chmod +x $M/bench_grid
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
NCU="ncu --clock-control none --cache-control none --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 12 clu_gpu $B/tests/test_cube_gpu clu
timed 10 bench_main $M/bench_grid $G
timed 10 bench_new $B/bench/bench_grid $G
timed 6 c16 env HOMG_CUBE_CLUSTER=16 $B/bench/bench_grid $V
timed 6 c8 env HOMG_CUBE_CLUSTER=8 $B/bench/bench_grid $V
timed 6 c16full env HOMG_CUBE_CLUSTER=16 HOMG_CUBE_CLUSTER_HALF=0 $B/bench/bench_grid $V
timed 6 main2 $M/bench_grid $V
timed 6 new2 $B/bench/bench_grid $V
timed 6 c16_2 env HOMG_CUBE_CLUSTER=16 $B/bench/bench_grid $V
timed 6 c8_2 env HOMG_CUBE_CLUSTER=8 $B/bench/bench_grid $V
timed 8 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu clusmall
timed 12 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu clusmall
timed 8 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_cube_gpu clusmall
timed 15 cube_gpu $B/tests/test_cube_gpu
timed 10 ncu_c16 env HOMG_CUBE_CLUSTER=16 $NCU -k regex:cube_cluster -c 2 $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 0
timed 10 ncu_sep $NCU -k regex:cube_sep_pass -c 3 $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 0
timed 10 split_gpu_c16 env HOMG_CUBE_CLUSTER=16 $B/tests/test_cube_split_gpu
timed 6 c16full_2 env HOMG_CUBE_CLUSTER=16 HOMG_CUBE_CLUSTER_HALF=0 $B/bench/bench_grid $V
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|CUDA vs CPU|cluster|mismatch|differ|rc=|^[0-9a-f]{7}$|Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|Warp Cycles Per Issued|Cluster" "$L" | grep -v "^=== done" | awk '/^=== /{delete seen} !seen[$0]++' | cut -c1-120 | tail -c 11500
