#!/bin/bash
# homg13_device.sh -- s14-homg13's one GPU-machine run (issue 12, HOMG item): HOMG's coarse levels'
# iterations (levels >= k, every pass written in part) in one launch of one block
# (homg_iterate_levels, kernels/grid/homg_levels.cu; HOMG_HOMG_LEVELS_FUSED=k, default off).
# In order: test_grid_gpu homg (the per-pass kernels and homg_levels_match_cpu), main's bench and
# mine (default: k off, the control), k = 3..7, main's again, mine's second round of the middle k,
# compute-sanitizer memcheck + racecheck + synccheck on test_grid_gpu homglevels, ncu of the fused
# kernel at 2048^2 (k = 5), the whole test_grid_gpu with what is left.  Everything travels in
# /work/main/.carry-homg13/: dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu
# bench/bench_grid" sh tools/dev/device-prep.sh), main's bench_grid.xz and this script; from main's root:
#   OUT=$OUT bash .carry-homg13/homg13_device.sh
NAME=homg13 DEFAULT_BUDGET=${BUDGET:-102}
. bench/device/lib.sh
carry_unpack
xz -dkf $C/bench_grid.xz && chmod +x $C/bench_grid
M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
MET="gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__registers_per_thread"
NC="ncu --clock-control none --cache-control none --csv --print-units base --metrics $MET"

timed 15 homg $B/tests/test_grid_gpu homg
timed 9 bench_main $M $R --out $OUT/grid_main.md
timed 9 bench_mine_off $B/bench/bench_grid $R --out /tmp/m0.md
for k in 5 4 6 3 7; do
    timed 9 fused_$k env HOMG_HOMG_LEVELS_FUSED=$k $B/bench/bench_grid $R --out /tmp/f$k.md
done
timed 9 bench_main2 $M $R --out /tmp/m2.md
for k in 5 4 6; do
    timed 9 fused2_$k env HOMG_HOMG_LEVELS_FUSED=$k $B/bench/bench_grid $R --out /tmp/g$k.md
done
sanitize 12 "memcheck racecheck synccheck" $B/tests/test_grid_gpu homglevels
timed 10 ncu_fused5 env HOMG_HOMG_LEVELS_FUSED=5 $NC -k regex:homg_iterate_levels --launch-count 2 --log-file $OUT/ncu_fused5_2048.csv $B/bench/bench_grid --sizes 2048 --methods homg --reps 1 --out /tmp/y.md
left=$(budget_left)
[ "$left" -gt 8 ] && timed $((left - 3)) test_grid_gpu_all $B/tests/test_grid_gpu
finish "^\| [0-9]+\^2 \| float(32|64) \| homg"
