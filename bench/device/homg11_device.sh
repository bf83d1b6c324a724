#!/bin/bash
# homg11_device.sh -- s14-homg11's one GPU-machine run (issue 12, HOMG's restart at 2048^2):
# the gather fused into the filter pass, the coarsest filter's grid zeroed as the cycle's start
# (no zeroing pass), every HOMG pass launched with PDL, and the float4 filter's rows a thread
# fitted to whole waves (HOMG_HOMG_FVEC_FIT, a variant).  In order: test_grid_gpu homg (default;
# PDL off, which also takes the unfused fallbacks' launches; the fitted rows), the bench with
# main's binary and mine, compute-sanitizer memcheck + racecheck on test_grid_gpu homg, the knob
# variants, main's and mine again, then ncu of the first 2048^2 restart (mine, main's).
# Everything travels in /work/main/.carry-homg11/: dev.tar.xz (DEV_BUILD=build
# DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh tools/dev/device-prep.sh), main's
# bench_grid.xz (dc95d5e) and this script; from main's root:
#   OUT=$OUT bash .carry-homg11/homg11_device.sh
NAME=homg11 DEFAULT_BUDGET=${BUDGET:-130}
. bench/device/lib.sh
carry_unpack
xz -dkf $C/bench_grid.xz && chmod +x $C/bench_grid
M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
R2="--sizes 1024,2048 --reps 5 --methods homg"
MET="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__waves_per_multiprocessor,launch__registers_per_thread"
NC="ncu --clock-control none --cache-control none --csv --print-units base --metrics $MET -k regex:homg_|residual_kernel|add_kernel"
NR="--sizes 2048 --methods homg --reps 1"

timed 15 homg $B/tests/test_grid_gpu homg
timed 12 homg_nopdl env HOMG_HOMG_PDL=0 HOMG_HOMG_FUSE_GATHER=0 $B/tests/test_grid_gpu homg
timed 12 homg_fit env HOMG_HOMG_FVEC_FIT=1 $B/tests/test_grid_gpu homg
timed 10 bench_main $M $R --out $OUT/grid_main.md
timed 10 bench_mine $B/bench/bench_grid $R --out $OUT/grid_mine.md
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_grid_gpu homg
sanitize 30 racecheck $B/tests/test_grid_gpu homg
timed 8 v_nopdl env HOMG_HOMG_PDL=0 $B/bench/bench_grid $R2 --out /tmp/v1.md
timed 8 v_nofuse env HOMG_HOMG_FUSE_GATHER=0 $B/bench/bench_grid $R2 --out /tmp/v2.md
timed 10 v_fit env HOMG_HOMG_FVEC_FIT=1 $B/bench/bench_grid $R --out /tmp/v3.md
timed 8 v_frows4 env HOMG_HOMG_FVEC_ROWS=4 $B/bench/bench_grid $R2 --out /tmp/v4.md
timed 8 v_l1b3 env HOMG_HOMG_L1_MINB=3 $B/bench/bench_grid $R2 --out /tmp/v5.md
timed 8 v_fit_l1b3 env HOMG_HOMG_FVEC_FIT=1 HOMG_HOMG_L1_MINB=3 $B/bench/bench_grid $R2 --out /tmp/v6.md
timed 8 v_vrows4 env HOMG_HOMG_VEC_ROWS=4 $B/bench/bench_grid $R2 --out /tmp/v7.md
timed 10 bench_main2 $M $R --out /tmp/v8.md
timed 10 bench_mine2 $B/bench/bench_grid $R --out /tmp/v9.md
timed 20 ncu_mine $NC --launch-count 64 --log-file $OUT/ncu_mine_2048.csv $B/bench/bench_grid $NR --out /tmp/y.md
timed 20 ncu_main $NC --launch-count 72 --log-file $OUT/ncu_main_2048.csv $M $NR --out /tmp/z.md
finish "^\| [0-9]+\^2 \| float32 \| homg"
