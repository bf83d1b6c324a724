#!/bin/bash
# homg3_device.sh -- s10-homg3's one GPU-machine run (issue 12, HOMG's whole-grid passes):
# the rows kernel of the HOMG iteration (kernels/grid/grid.cu homg_iterate_rows_kernel; m >=
# HOMG_HOMG_ROWS_M, default 2; HOMG_HOMG_ROWS rows a thread, default 8).  In order of need:
# test_grid_gpu homg (default knobs, then the rows kernel on every level with 4 rows),
# bench_grid 1024,4096 homg,fft with main's binary before this build's, the knob variants,
# ncu (SpeedOfLight + bytes, instructions) on the first restart's 46 iterations at 4096^2
# for both binaries, compute-sanitizer memcheck + racecheck on test_grid_gpu homg.
# The device tool copies /work/main, so everything travels in /work/main/.carry-homg3/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh
# tools/dev/device-prep.sh), main's bench_grid (5ee6b6f's build) and this script; run from
# main's root: OUT=$OUT bash .carry-homg3/homg3_device.sh (carry [".carry-homg3"]).
set -u
C=.carry-homg3
rm -rf .devbuild .devlibs; tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=homg3 DEFAULT_BUDGET=${BUDGET:-138}
. bench/device_timed.sh
M=$C/bench_grid
R="--sizes 1024,4096 --reps 5"
NC="ncu --clock-control none -k regex:homg_iterate --launch-count 46 --csv --print-units base --section SpeedOfLight --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
cat .devlibs/build-id >> "$L"
timed 12 homg $B/tests/test_grid_gpu homg
timed 12 homg_rows_all env HOMG_HOMG_ROWS_M=0 HOMG_HOMG_ROWS=4 $B/tests/test_grid_gpu homg
timed 20 bench_main $M $R --methods homg,fft --out $OUT/grid_main.md
timed 20 bench_mine $B/bench/bench_grid $R --methods homg,fft --out $OUT/grid_mine.md
timed 12 bench_rows_m1 env HOMG_HOMG_ROWS_M=1 $B/bench/bench_grid $R --methods homg --out $OUT/grid_m1.md
timed 12 bench_rows_m3 env HOMG_HOMG_ROWS_M=3 $B/bench/bench_grid $R --methods homg --out $OUT/grid_m3.md
timed 12 bench_rows4 env HOMG_HOMG_ROWS=4 $B/bench/bench_grid $R --methods homg --out $OUT/grid_r4.md
timed 12 bench_off env HOMG_HOMG_ROWS_M=-1 $B/bench/bench_grid $R --methods homg --out $OUT/grid_off.md
timed 20 ncu_main $NC --log-file $OUT/ncu_main_4096.csv $M --sizes 4096 --methods homg --reps 1 --out /tmp/x.md
timed 20 ncu_mine $NC --log-file $OUT/ncu_mine_4096.csv $B/bench/bench_grid --sizes 4096 --methods homg --reps 1 --out /tmp/y.md
timed 20 memcheck compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 15 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu homg
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^  (homg|fft) |copy bandwidth|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=|build" "$L" | grep -v "^=== done" |
    cut -c1-170 | tail -c 11500
