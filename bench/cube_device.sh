#!/bin/bash
# cube_device.sh -- the cube sessions' GPU-machine run (s6-cube, s6-cube2, s7-cube3): the uniform
# 3D levels' kernels (kernels/grid/cube*) and the 3D box's schedule -- tests, memcheck /
# racecheck, the 3D Poisson boxes 128^3 / 256^3 / 512^3 (bench_grid --general) with the default
# schedule (plain V(2,2) cycles, no CG) and, same binary: CG around the cycle (HOMG_CUBE_PLAIN=0),
# the coarse levels <= 16^3 / 32^3 in one block (HOMG_GEN_BLOCK_CELLS), an F-cycle first
# (HOMG_CUBE_F1=1); main's binary beside ($MAIN_BENCH, optional); the 256^3 warm Neumann frame
# both ways; ncu of one plain 256^3 solve.  Pack with tools/dev/device-prep.sh (DEV_FILES=
# "bench/bench_grid tests/test_cube_gpu tests/test_cube tests/test_grid_ref tests/test_grid_gpu").
# Log in $OUT/cube.log.  NCU_RUN=0: no ncu.
set -u
NAME=cube DEFAULT_BUDGET=${BUDGET:-140}
. "$(dirname "$0")/device_timed.sh"
MB=${MAIN_BENCH:-}
[ -z "$MB" ] && [ -x $B/bench/bench_grid_main ] && MB=$B/bench/bench_grid_main
G="--general --methods vcycle,fft --reps 9 --cases ${CASES:-0,1,2}"
V="--general --methods vcycle --reps 9"
timed 15 cube_gpu $B/tests/test_cube_gpu
timed 10 memcheck_cube compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu small
timed 10 racecheck_cube compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu small
timed 20 bench_plain $B/bench/bench_grid $G
timed 15 bench_cg env HOMG_CUBE_PLAIN=0 $B/bench/bench_grid $V --cases 0,1,2
[ -n "$MB" ] && timed 15 bench_main $MB $V --cases 0,1,2
timed 12 bench_blk4k env HOMG_GEN_BLOCK_CELLS=4096 $B/bench/bench_grid $V --cases 0,1,2
timed 12 bench_blk32k env HOMG_GEN_BLOCK_CELLS=32768 $B/bench/bench_grid $V --cases 0,1,2
timed 8 bench_f1 env HOMG_CUBE_F1=1 $B/bench/bench_grid $V --cases 0,1
timed 8 neumann $B/bench/bench_grid $V --cases 7
[ -n "$MB" ] && timed 8 neumann_main $MB $V --cases 7
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 10 test_grid_gpu $B/tests/test_grid_gpu
timed 3 cube_cpu $B/tests/test_cube
NCU="ncu --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum"
K="regex:cube_|smooth|prolong|coarse|block|residual|apply|error_norm|scalars|zero"
[ "${NCU_RUN:-1}" = 1 ] && timed 25 ncu_plain $NCU --log-file $OUT/ncu_cube_plain.csv -k "$K" --launch-count ${NCU_COUNT:-130} \
    $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 1
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^\| Neumann|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|CUDA vs|cube vs|rc=" "$L" |
    grep -v "^=== done" | cut -c1-220 | tail -c 7000
wc -l $OUT/*.csv
