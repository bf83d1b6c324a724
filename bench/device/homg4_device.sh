#!/bin/bash
# homg4_device.sh -- s11-homg4's one GPU-machine run (issue 12, HOMG's whole-grid passes):
# level 0 by columns (homg_iterate0_cols_kernel, HOMG_HOMG_COLS0), the filters by
# columns (homg_filter_cols_kernel, HOMG_HOMG_FCOLS), the rows kernel with its row
# lerps reused and an inline relaxation from level 1 up (HOMG_HOMG_ROWS_M, default 1).
# In order of need: test_grid_gpu homg (default knobs; the rows kernel on every level
# with 4 rows; the old forms), bench_grid 1024,4096 homg,fft with main's binary before
# this build's, the whole test_grid_gpu, the knob variants, ncu (SpeedOfLight + bytes,
# instructions) on the first 4096^2 restart's 11 filters and 46 iterations for both
# binaries, compute-sanitizer memcheck + racecheck on test_grid_gpu homg.
# The device tool copies /work/main, so everything travels in /work/main/.carry-homg4/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh
# tools/dev/device-prep.sh), main's bench_grid, lib.sh and this script; run from main's root:
# OUT=$OUT bash .carry-homg4/homg4_device.sh (carry [".carry-homg4"]).
NAME=homg4 BUDGET=${BUDGET:-128}
. "$(dirname "$0")/lib.sh"
carry_unpack
M=$C/bench_grid
R="--sizes 1024,4096 --reps 5"
NC="ncu --clock-control none -k regex:homg_(filter|iterate) --launch-count 57 --csv --print-units base --section SpeedOfLight --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
timed 12 homg $B/tests/test_grid_gpu homg
timed 10 homg_rows_all env HOMG_HOMG_ROWS_M=0 HOMG_HOMG_ROWS=4 $B/tests/test_grid_gpu homg
timed 10 homg_old_forms env HOMG_HOMG_COLS0=0 HOMG_HOMG_FCOLS=0 HOMG_HOMG_ROWS_M=2 $B/tests/test_grid_gpu homg
timed 20 bench_main $M $R --methods homg,fft --out $OUT/grid_main.md
timed 20 bench_mine $B/bench/bench_grid $R --methods homg,fft --out $OUT/grid_mine.md
timed 20 test_grid_gpu_all $B/tests/test_grid_gpu
timed 8 bench_rows_m2 env HOMG_HOMG_ROWS_M=2 $B/bench/bench_grid $R --methods homg --out /tmp/g_m2.md
timed 8 bench_cols0_off env HOMG_HOMG_COLS0=0 $B/bench/bench_grid $R --methods homg --out /tmp/g_c0.md
timed 8 bench_fcols_off env HOMG_HOMG_FCOLS=0 $B/bench/bench_grid $R --methods homg --out /tmp/g_f0.md
timed 30 ncu_main $NC --log-file $OUT/ncu_main_4096.csv $M --sizes 4096 --methods homg --reps 1 --out /tmp/x.md
timed 30 ncu_mine $NC --log-file $OUT/ncu_mine_4096.csv $B/bench/bench_grid --sizes 4096 --methods homg --reps 1 --out /tmp/y.md
SAN_FLAGS="--leak-check full" sanitize 10 memcheck $B/tests/test_grid_gpu homg
sanitize 12 racecheck $B/tests/test_grid_gpu homg
WIDTH=170 finish "^  (homg|fft) |copy bandwidth|build"
