#!/bin/bash
# homg10_device.sh -- s13-homg10's one GPU-machine run (issue 12, HOMG's iterate passes):
# levels m >= 3 by homg_iteratem_vec4_kernel (the window of marked rows and columns loaded
# once, kernels/grid/homg_level01.cuh).  In order: test_grid_gpu homg (default; bound 3;
# 4 rows), compute-sanitizer memcheck + racecheck on it, bench_grid 1024,2048,4096 homg with
# main's binary, mine, the knob variants (the new kernel off = main's forms; its bound 3;
# level 1 bound 3 at 2048^2 alone and with the new kernel), main's again; ncu of the first
# 4096^2 restart's m >= 3 passes (mine, main's).  Everything travels in
# /work/main/.carry-homg10/: dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu
# bench/bench_grid" sh tools/dev/device-prep.sh), main's bench_grid.xz (d1b7401),
# device_timed.sh and this script; from main's root: OUT=$OUT bash .carry-homg10/homg10_device.sh
set -u
C=.carry-homg10
rm -rf .devbuild .devlibs
tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=homg10 DEFAULT_BUDGET=${BUDGET:-100}
. $C/device_timed.sh
xz -dkf $C/bench_grid.xz; chmod +x $C/bench_grid; M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
MET="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
NC="ncu --clock-control none --csv --print-units base --metrics $MET"
NR="--sizes 4096 --methods homg --reps 1"
cat .devlibs/build-id >> "$L"
timed 10 homg $B/tests/test_grid_gpu homg
timed 8 homg_lmb3 env HOMG_HOMG_LM_MINB=3 $B/tests/test_grid_gpu homg
timed 8 homg_rows4 env HOMG_HOMG_VEC_ROWS=4 $B/tests/test_grid_gpu homg
timed 8 bench_main $M $R --out $OUT/grid_main.md
timed 8 bench_mine $B/bench/bench_grid $R --out $OUT/grid_mine.md
timed 8 v_lmoff env HOMG_HOMG_LM_VEC=0 $B/bench/bench_grid $R --out /tmp/v1.md
timed 8 v_lmb3 env HOMG_HOMG_LM_MINB=3 $B/bench/bench_grid $R --out /tmp/v2.md
timed 8 v_l1b3_lmoff env HOMG_HOMG_L1_MINB=3 HOMG_HOMG_LM_VEC=0 $B/bench/bench_grid $R --out /tmp/v3.md
timed 8 v_l1b3 env HOMG_HOMG_L1_MINB=3 $B/bench/bench_grid $R --out /tmp/v4.md
timed 8 v_rows4 env HOMG_HOMG_VEC_ROWS=4 $B/bench/bench_grid $R --out /tmp/v5.md
timed 8 bench_main2 $M $R --out /tmp/v6.md
timed 8 bench_mine2 $B/bench/bench_grid $R --out /tmp/v7.md
timed 10 memcheck compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 14 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 8 ncu_mine $NC -k "regex:homg_iteratem_vec4" --launch-count 16 --log-file $OUT/ncu_mine_4096.csv $B/bench/bench_grid $NR --out /tmp/y.md
timed 8 ncu_main $NC -k "regex:homg_iterate_vec4" --launch-count 16 --log-file $OUT/ncu_main_4096.csv $M $NR --out /tmp/z.md
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^  homg|^\| *homg|copy bandwidth|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" |
    grep -v "^=== done" | cut -c1-200 | tail -c 11500
