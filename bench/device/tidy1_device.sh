#!/bin/bash
# tidy1_device.sh -- s15-tidy1's one GPU-machine run (a tidying, no behaviour change meant):
# lib/grid/general.c split into general_*.c, its knobs through homg__knob, and HOMG's losing
# knobs gone (HOMG_HOMG_PDL, _FUSE_GATHER, _MARKED, _MARKED_M, _MARKED_LAST).  In order: main's
# and mine's bench_grid homg rows and general rows (the same times within noise, the same
# launches / work units / bytes), the GPU tests of HOMG and the general solver, compute-sanitizer
# memcheck on quick cases, then main's and mine's rows again with what is left.  Everything
# travels in /work/main/.carry-tidy1/: dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu
# tests/test_cube_gpu tests/test_cube_split_gpu bench/bench_grid" sh tools/dev/device-prep.sh),
# main's bench_grid.xz (fbe12cb) and this script; from main's root:
#   OUT=$OUT bash .carry-tidy1/tidy1_device.sh
NAME=tidy1 DEFAULT_BUDGET=${BUDGET:-112}
. bench/device/lib.sh
carry_unpack
xz -dkf $C/bench_grid.xz && chmod +x $C/bench_grid
M=$C/bench_grid
H="--sizes 1024,2048,4096 --reps 5 --methods homg"
G="--general --methods vcycle --reps 5 --cases 0,1,3,4,5,6"

timed 8 homg_main $M $H --out $OUT/homg_main.md
timed 8 homg_mine $B/bench/bench_grid $H --out $OUT/homg_mine.md
timed 15 gen_main $M $G --out $OUT/gen_main.md
timed 15 gen_mine $B/bench/bench_grid $G --out $OUT/gen_mine.md
timed 20 grid_gpu $B/tests/test_grid_gpu
SAN_FLAGS="--leak-check full" sanitize 12 memcheck $B/tests/test_grid_gpu homg
timed 14 cube_gpu $B/tests/test_cube_gpu
sanitize 10 memcheck $B/tests/test_grid_gpu genloop
timed 8 cube_split_gpu $B/tests/test_cube_split_gpu
sanitize 10 memcheck $B/tests/test_cube_gpu small
[ "$(budget_left)" -gt 14 ] && timed 7 homg_main2 $M $H --out /tmp/h2m.md
[ "$(budget_left)" -gt 7 ] && timed 7 homg_mine2 $B/bench/bench_grid $H --out /tmp/h2n.md
finish "^\| [0-9]+\^2 \| float(32|64) \| homg|^\| (3D|2D|Neumann)"
