#!/bin/bash
# homg8_device.sh -- s13-homg8's one GPU-machine run (issue 12, HOMG's iterate passes):
# level 2 by homg_iterate2_vec4_kernel (its window of marked rows loaded once) and level 1's
# launch bound as a knob (kernels/grid/homg_level01.cuh).  In order: test_grid_gpu homg (the
# default forms; the bound-3 forms; the bound-4 forms with 4 rows), the whole test_grid_gpu
# and the tol bench (the lead's tolerance_loop_on_device, never run on a GPU), bench_grid
# 1024,2048,4096 homg with main's binary, mine, the knob variants, main's again;
# compute-sanitizer memcheck + racecheck on test_grid_gpu homg, memcheck on test_grid_gpu loop;
# ncu of the first 4096^2 restart's iterate passes (mine; main's levels 0-2; mine bound 3).
# The device tool copies /work/main, so everything travels in /work/main/.carry-homg8/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh
# tools/dev/device-prep.sh), main's bench_grid.xz (1bab2d3), device_timed.sh and this
# script; run from main's root: OUT=$OUT bash .carry-homg8/homg8_device.sh (carry [".carry-homg8"]).
set -u
C=.carry-homg8
rm -rf .devbuild .devlibs
tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=homg8 DEFAULT_BUDGET=${BUDGET:-138}
. $C/device_timed.sh
xz -dkf $C/bench_grid.xz; chmod +x $C/bench_grid; M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
MET="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
NC="ncu --clock-control none --csv --print-units base --metrics $MET"
NR="--sizes 4096 --methods homg --reps 1"
cat .devlibs/build-id >> "$L"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$L" 2>&1
timed 14 homg $B/tests/test_grid_gpu homg
timed 14 homg_b3 env HOMG_HOMG_L1_MINB=3 HOMG_HOMG_L2_MINB=3 $B/tests/test_grid_gpu homg
timed 14 homg_b4 env HOMG_HOMG_L1_MINB=4 HOMG_HOMG_L2_MINB=4 HOMG_HOMG_L01_ROWS=4 HOMG_HOMG_L2_ROWS=4 $B/tests/test_grid_gpu homg
timed 30 test_grid_gpu_all $B/tests/test_grid_gpu
timed 15 tol_bench $B/bench/bench_grid --sizes 256,1024 --methods fused-v,tol --reps 21 --out $OUT/tol_mine.md
timed 12 bench_main $M $R --out $OUT/grid_main.md
timed 12 bench_mine $B/bench/bench_grid $R --out $OUT/grid_mine.md
timed 10 v_l2off env HOMG_HOMG_L2_VEC=0 $B/bench/bench_grid $R --out /tmp/v1.md
timed 10 v_l2rows4 env HOMG_HOMG_L2_ROWS=4 $B/bench/bench_grid $R --out /tmp/v2.md
timed 10 v_l2b3 env HOMG_HOMG_L2_MINB=3 $B/bench/bench_grid $R --out /tmp/v3.md
timed 10 v_l1b3 env HOMG_HOMG_L1_MINB=3 $B/bench/bench_grid $R --out /tmp/v4.md
timed 10 v_l1b4 env HOMG_HOMG_L1_MINB=4 $B/bench/bench_grid $R --out /tmp/v5.md
timed 10 v_b3both env HOMG_HOMG_L1_MINB=3 HOMG_HOMG_L2_MINB=3 $B/bench/bench_grid $R --out /tmp/v6.md
timed 10 bench_main2 $M $R --out /tmp/v7.md
timed 12 memcheck compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 12 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 15 memcheck_loop compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu loop
timed 20 ncu_mine $NC -k "regex:homg_iterate" --launch-count 46 --log-file $OUT/ncu_mine_4096.csv $B/bench/bench_grid $NR --out /tmp/y.md
timed 12 ncu_main $NC -k "regex:homg_iterate" --launch-count 12 --log-file $OUT/ncu_main_4096.csv $M $NR --out /tmp/z.md
timed 12 ncu_b3 env HOMG_HOMG_L1_MINB=3 HOMG_HOMG_L2_MINB=3 $NC -k "regex:homg_iterate[12]" --launch-count 8 --log-file $OUT/ncu_b3_4096.csv $B/bench/bench_grid $NR --out /tmp/w.md
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^  (homg|fused|tol)|^\| *(homg|fused|tol)|copy bandwidth|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=|device loop|host loop" "$L" |
    grep -v "^=== done" | cut -c1-200 | tail -c 11500
