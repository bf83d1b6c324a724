#!/bin/bash
# homg6_device.sh -- s13-homg6's one GPU-machine run (issue 12, HOMG's whole-grid passes):
# levels 0 and 1 by float4 columns (kernels/grid/homg_level01.cuh).  In order of need:
# test_grid_gpu homg (both rounds: the default forms and every grid large), bench_grid
# 1024,2048,4096 homg with main's binary before this build's, the side check (main's
# binary: fmg's cycles at 4096^2), the knob variants (4 or 8 rows a thread everywhere, each
# level's old form), compute-sanitizer memcheck + racecheck on test_grid_gpu homg, ncu of
# the first 4096^2 restart's level 0 and 1 passes (mine, then main's forms), then the whole
# test_grid_gpu.
# The device tool copies /work/main, so everything travels in /work/main/.carry-homg6/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh
# tools/dev/device-prep.sh), main's bench_grid.xz, bench/device_timed.sh and this script; run from main's root:
# OUT=$OUT bash .carry-homg6/homg6_device.sh (carry [".carry-homg6"]).
set -u
C=.carry-homg6
rm -rf .devbuild .devlibs
tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=homg6 DEFAULT_BUDGET=${BUDGET:-138}
. $C/device_timed.sh
xz -dkf $C/bench_grid.xz; chmod +x $C/bench_grid; M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
MET="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
NC="ncu --clock-control none --launch-count 8 --csv --print-units base --metrics $MET"
NR="--sizes 4096 --methods homg --reps 1"
cat .devlibs/build-id >> "$L"
timed 14 homg $B/tests/test_grid_gpu homg
timed 15 bench_main $M $R --out $OUT/grid_main.md
timed 15 bench_mine $B/bench/bench_grid $R --out $OUT/grid_mine.md
timed 10 side_fmg $M --sizes 4096 --methods fmg,fused-v --reps 9 --out /tmp/side.md
timed 12 bench_rows4 env HOMG_HOMG_L01_ROWS=4 $B/bench/bench_grid $R --out /tmp/g_r4.md
timed 12 bench_rows8 env HOMG_HOMG_L01_ROWS=8 $B/bench/bench_grid $R --out /tmp/g_r8.md
timed 12 bench_l0_old env HOMG_HOMG_L0_VEC=0 $B/bench/bench_grid $R --out /tmp/g_l0.md
timed 12 bench_l1_old env HOMG_HOMG_L1_VEC=0 $B/bench/bench_grid $R --out /tmp/g_l1.md
timed 14 memcheck compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 14 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 20 ncu_mine $NC -k "regex:homg_iterate[01]_vec4" --log-file $OUT/ncu_mine_4096.csv $B/bench/bench_grid $NR --out /tmp/y.md
timed 20 ncu_main $NC -k "regex:homg_iterate0_cols|homg_iterate_rows_reuse" --log-file $OUT/ncu_main_4096.csv $M $NR --out /tmp/z.md
timed 25 test_grid_gpu_all $B/tests/test_grid_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^  (homg|fmg|fused)|copy bandwidth|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" |
    grep -v "^=== done" | cut -c1-170 | tail -c 11500
