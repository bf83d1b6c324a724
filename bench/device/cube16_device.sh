#!/bin/bash
# s13-cube16's call (issue 9, 128^3 within 2x the FFT): the three-launch exact solve's passes
# with RA x RB outputs a thread and the matrices staged in shared memory (kernels/grid/cube_sep.cu
# cube_sep_tt1..3; HOMG_CUBE_SEP_TT=11/21/22/44, HOMG_CUBE_SEP_TW=8/16/32; the default at the
# call tt 1 = main's kernels).  Screens the tiles at 128^3 (default level choice = 32^3 exact,
# and HOMG_CUBE_EXACT_MAX=64), then times the best of each against main's binary, interleaved;
# ncu of the three passes; the GPU tests and compute-sanitizer with the best tile.
# Started as: tar xJf .carry-cube16/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH;
#   OUT=$OUT bash .carry-cube16/cube16_device.sh   (main's bench_grid in .carry-cube16/bench_grid.xz)
# Log: $OUT/cube16.log.
set -u
C=${C:-.carry-cube16}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube16 DEFAULT_BUDGET=${BUDGET:-136}
. bench/device_timed.sh # run from the repository root
M=.mainbin # main's bench_grid, packed
mkdir -p $M && xz -dc $C/bench_grid.xz > $M/bench_grid && chmod +x $M/bench_grid
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
S1="--general --methods vcycle --reps 9 --cases 0"
NCU="ncu --clock-control none -k regex:cube_sep -c 3 --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis"
ms128() { # the 128^3 vcycle ms of the last run tagged $1 in the log
    awk -v t="=== $1:" 'index($0, t) == 1 {on = 1; next} /^=== /{on = 0} on && /^\| 3D/ && /128x128x128/ && /vcycle/ {split($0, f, "|"); v = f[6]} END {print v + 0}' "$L"
}
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 10 bench_main $M/bench_grid $G
# screen at 128^3: "tw tt" with the default level choice (32^3 exact), then with the 64^3 level
best="16 1" bms=99
for c in "16 1" "16 44" "8 44" "16 22" "8 22" "32 22" "16 21" "8 21" "16 11" "8 11" "32 11"; do
    set -- $c
    timed 5 "s32_$1_$2" env HOMG_CUBE_SEP_TW=$1 HOMG_CUBE_SEP_TT=$2 $B/bench/bench_grid $S1
    v=$(ms128 "s32_$1_$2")
    awk -v a="$v" -v b="$bms" 'BEGIN {exit !(a > 0 && a < b)}' && best="$c" bms=$v
done
best64="16 1" b64=99
for c in "16 1" "16 22" "8 22" "32 22" "16 11" "32 11"; do
    set -- $c
    timed 5 "s64_$1_$2" env HOMG_CUBE_EXACT_MAX=64 HOMG_CUBE_SEP_TW=$1 HOMG_CUBE_SEP_TT=$2 $B/bench/bench_grid $S1
    v=$(ms128 "s64_$1_$2")
    awk -v a="$v" -v b="$b64" 'BEGIN {exit !(a > 0 && a < b)}' && best64="$c" b64=$v
done
set -- $best
BW=$1 BT=$2
set -- $best64
echo "=== picked: default level tw $BW tt $BT ($bms ms); 64^3 level tw $1 tt $2 ($b64 ms)" >> "$L"
E="env HOMG_CUBE_SEP_TW=$BW HOMG_CUBE_SEP_TT=$BT"
E64="env HOMG_CUBE_EXACT_MAX=64 HOMG_CUBE_SEP_TW=$1 HOMG_CUBE_SEP_TT=$2"
timed 8 best $E $B/bench/bench_grid $G
timed 7 best64 $E64 $B/bench/bench_grid $V
timed 7 main2 $M/bench_grid $V
timed 7 best_2 $E $B/bench/bench_grid $V
timed 7 best64_2 $E64 $B/bench/bench_grid $V
timed 7 best_x32 $E HOMG_CUBE_EXACT_MAX=32 $B/bench/bench_grid $V
timed 7 ncu_best $E $NCU $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 0
timed 7 ncu_tt1 $NCU $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 0
timed 6 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 20 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 6 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_cube_gpu sepsmall
timed 15 cube_gpu $E $B/tests/test_cube_gpu
timed 10 split_gpu $E $B/tests/test_cube_split_gpu
timed 10 split_gpu_x64 $E64 $B/tests/test_cube_split_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|mismatch|rc=|^[0-9a-f]{7}$|cube_sep_|Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|Warp Cycles Per Issued" "$L" | grep -v "^=== done" | awk '/^=== /{delete seen} !seen[$0]++' | cut -c1-120 | tail -c 11500
