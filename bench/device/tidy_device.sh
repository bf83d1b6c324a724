#!/bin/bash
# s12-tidy's one call: the losing knob paths deleted (HOMG_CSP_TILE / TLB / RKC / RLB / PCS=0,
# HOMG_BOX_EXACT_FOLD and its smooth_restrict_exact), homg_cuda_free_bytes's total in fft.cu, the cube
# tests' solves through grid_case_solves.  Tests: test_cube_gpu, test_cube_split_gpu, test_grid_gpu,
# test_fft_gpu, test_fft_baseline_gpu, test_grid_ref on CUDA; memcheck on test_cube_split_gpu small;
# then bench_grid --general (3D cases 0,1,2) and --sizes 256,1024 with main's binary beside this build's,
# alternating.  /work/main/.carry-tidy/ holds dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_cube_gpu
# tests/test_cube_split_gpu tests/test_grid_gpu tests/test_fft_gpu tests/test_fft_baseline_gpu
# tests/test_grid_ref bench/bench_grid" sh tools/dev/device-prep.sh), base.tar.xz (main's bench_grid,
# stripped), lib.sh and this script; from main's root: OUT=$OUT bash .carry-tidy/tidy_device.sh
# (carry [".carry-tidy"]).  Log: $OUT/tidy.log.
NAME=tidy BUDGET=${BUDGET:-125}
. "$(dirname "$0")/lib.sh"
carry_unpack base.tar.xz
M=$C/bench_grid
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
X="--sizes 256,1024 --reps 21"
timed 10 cube_gpu $B/tests/test_cube_gpu
timed 20 cube_split_gpu $B/tests/test_cube_split_gpu
sanitize 12 memcheck $B/tests/test_cube_split_gpu small
timed 30 fft_gpu $B/tests/test_fft_gpu # 8 s as run at 11:12 UTC: cut in larger_sizes
timed 6 fft_baseline_gpu $B/tests/test_fft_baseline_gpu
for r in 1 2; do
    timed 12 general_main_$r $M $G --out /tmp/gm$r.md
    timed 12 general_mine_$r $B/bench/bench_grid $G --out /tmp/gb$r.md
done
timed 20 box_main $M $X --out $OUT/box_main.md
timed 20 box_mine $B/bench/bench_grid $X --out $OUT/box_mine.md
timed 15 grid_gpu $B/tests/test_grid_gpu
timed 15 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
finish "^\| 3D|^\| (256|1024)\^2 \| float32"
