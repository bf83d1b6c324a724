#!/bin/bash
# homg12_device.sh -- s14-homg12's one GPU-machine run (issue 12, HOMG item): each HOMG iteration
# but a level's last writes only the points the next iteration reads (homg_iterate_marked, R x R:
# the coarse points and the two arm points by the middle of each axis).  In order: test_grid_gpu
# homg, main's bench and mine, compute-sanitizer memcheck + racecheck on test_grid_gpu homg, the
# knob variants (HOMG_HOMG_MARKED=0: every iteration whole; HOMG_HOMG_MARKED_M=2: level 1 whole),
# main's and mine again, ncu of mine's first 2048^2 restart, then the whole test_grid_gpu with
# what is left.  Everything travels in /work/main/.carry-homg12/: dev.tar.xz (DEV_BUILD=build
# DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh tools/dev/device-prep.sh), main's
# bench_grid.xz and this script; from main's root:
#   OUT=$OUT bash .carry-homg12/homg12_device.sh
NAME=homg12 DEFAULT_BUDGET=${BUDGET:-100}
. bench/device/lib.sh
carry_unpack
xz -dkf $C/bench_grid.xz && chmod +x $C/bench_grid
M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
R2="--sizes 1024,2048 --reps 5 --methods homg"
MET="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size"
NC="ncu --clock-control none --cache-control none --csv --print-units base --metrics $MET -k regex:homg_|residual_kernel|add_kernel"

timed 15 homg $B/tests/test_grid_gpu homg
timed 10 bench_main $M $R --out $OUT/grid_main.md
timed 10 bench_mine $B/bench/bench_grid $R --out $OUT/grid_mine.md
SAN_FLAGS="--leak-check full" sanitize 15 memcheck $B/tests/test_grid_gpu homg
sanitize 25 racecheck $B/tests/test_grid_gpu homg
timed 8 v_whole env HOMG_HOMG_MARKED=0 $B/bench/bench_grid $R --out /tmp/v1.md
timed 8 v_m2 env HOMG_HOMG_MARKED_M=2 $B/bench/bench_grid $R2 --out /tmp/v2.md
timed 8 bench_main2 $M $R --out /tmp/v8.md
timed 8 bench_mine2 $B/bench/bench_grid $R --out /tmp/v9.md
timed 12 ncu_mine $NC --launch-count 54 --log-file $OUT/ncu_mine_2048.csv $B/bench/bench_grid --sizes 2048 --methods homg --reps 1 --out /tmp/y.md
left=$(budget_left)
[ "$left" -gt 8 ] && timed $((left - 3)) test_grid_gpu_all $B/tests/test_grid_gpu
finish "^\| [0-9]+\^2 \| float(32|64) \| homg"
