#!/bin/bash
# homg5_device.sh -- s12-homg5's one GPU-machine run (issue 12, HOMG's whole-grid passes):
# homg_iterate_vec4_kernel (float32 levels m >= HOMG_HOMG_VEC_M, four columns and 8 rows a
# thread, float4 stores).  In order of need: test_grid_gpu homg (default; 4 rows a thread;
# the kernel off), bench_grid 1024,2048,4096 homg with main's binary before this build's,
# the knob variants (off = main's forms, from m = 6 only, 4 rows), the whole test_grid_gpu,
# compute-sanitizer memcheck + racecheck on test_grid_gpu homg, then ncu of the first
# 4096^2 restart's 38 vec4 passes (m >= 2).
# The device tool copies /work/main, so everything travels in /work/main/.carry-homg5/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh
# tools/dev/device-prep.sh), main's bench_grid and this script; run from main's root:
# OUT=$OUT bash .carry-homg5/homg5_device.sh (carry [".carry-homg5"]).
set -u
C=.carry-homg5
rm -rf .devbuild .devlibs
tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=homg5 DEFAULT_BUDGET=${BUDGET:-128}
. bench/device_timed.sh
xz -dkf $C/bench_grid.xz; chmod +x $C/bench_grid; M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
NC="ncu --clock-control none -k regex:homg_iterate_vec4 --launch-count 38 --csv --print-units base --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
cat .devlibs/build-id >> "$L"
timed 12 homg $B/tests/test_grid_gpu homg
timed 10 homg_vec_rows4 env HOMG_HOMG_VEC_ROWS=4 $B/tests/test_grid_gpu homg
timed 10 homg_vec_off env HOMG_HOMG_VEC_M=99 $B/tests/test_grid_gpu homg
timed 15 bench_main $M $R --out $OUT/grid_main.md
timed 15 bench_mine $B/bench/bench_grid $R --out $OUT/grid_mine.md
timed 12 bench_vec_off env HOMG_HOMG_VEC_M=99 $B/bench/bench_grid $R --out /tmp/g_off.md
timed 12 bench_vec_m6 env HOMG_HOMG_VEC_M=6 $B/bench/bench_grid $R --out /tmp/g_m6.md
timed 12 bench_vec_rows4 env HOMG_HOMG_VEC_ROWS=4 $B/bench/bench_grid $R --out /tmp/g_r4.md
timed 10 memcheck compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 12 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 20 test_grid_gpu_all $B/tests/test_grid_gpu
timed 30 ncu_mine $NC --log-file $OUT/ncu_mine_4096.csv $B/bench/bench_grid --sizes 4096 --methods homg --reps 1 --out /tmp/y.md
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^  homg |copy bandwidth|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" |
    cut -c1-170 | tail -c 11500
