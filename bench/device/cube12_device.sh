#!/bin/bash
# s11-cube12's call (issue 9, the split cube kernels), as run at aaaad5a (h100_cube.md "Session 11 cube12"):
# the split prolongation with cs a template constant against cs an argument, and boxes of rows and planes on
# the 128^3 level (HOMG_CSP_TILE / HOMG_CSP_TLB); both knobs and the cs-argument kernel are gone since
# s12-tidy, so this is the cube family's template now: test_cube_split_gpu, compute-sanitizer memcheck on
# `test_cube_split_gpu small` (no shared memory: no race/sync check), test_cube_gpu, test_grid_ref on CUDA;
# bench_grid --general (cases 0,1,2) this build / main's binary, bench_cube_split both binaries, then
# both again (noise).
# Pack (tools/dev/device-prep.sh, DEV_FILES="tests/test_cube_split_gpu tests/test_cube_gpu
# tests/test_grid_ref bench/bench_grid bench/bench_cube_split"); main.tar.xz (main's bench_grid and
# bench_cube_split, stripped) and this script with lib.sh in /work/main/.carry-cube12, carried;
# OUT=$OUT bash .carry-cube12/cube12_device.sh.  Log: $OUT/cube12.log.
NAME=cube12 BUDGET=${BUDGET:-118}
. "$(dirname "$0")/lib.sh"
carry_unpack main.tar.xz
M=$C
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
timed 25 split_gpu $B/tests/test_cube_split_gpu
sanitize 15 memcheck $B/tests/test_cube_split_gpu small
timed 8 cube_gpu $B/tests/test_cube_gpu
timed 10 bench_new $B/bench/bench_grid $G
timed 10 bench_main $M/bench_grid $G
timed 6 passes_new $B/bench/bench_cube_split --sizes 128,256,512 --reps 21
timed 5 passes_main $M/bench_cube_split --sizes 128,256,512 --reps 21
timed 4 bench_new2 $B/bench/bench_grid $V
timed 4 bench_main2 $M/bench_grid $V
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
finish "^\| 3D|^\| [0-9]+\^3 \| split: (2 half-sweeps \(SOR\)|pre|prolong)|CUDA vs CPU|^[0-9a-f]{7}$"
