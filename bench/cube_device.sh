#!/bin/bash
# cube_device.sh -- the cube session's GPU-machine run (session 6, s6-cube): the uniform 3D
# levels' kernels (kernels/grid/cube*) -- their tests, memcheck / racecheck, the 3D Poisson
# boxes 128^3 / 256^3 / 512^3 with them and without (HOMG_GEN_CUBE=0: the gen kernels, main's
# path) in the same binary, the FFT beside, and ncu of the first V-cycle's kernels at 256^3.
# Pack with tools/dev/device-prep.sh (DEV_FILES="bench/bench_grid tests/test_cube_gpu
# tests/test_cube tests/test_grid_ref tests/test_grid_gpu").  Log in $OUT/cube.log.  NCU_RUN=0: no ncu
# (tests, sanitizers and the benchmark alone, ~50 s); CASES=1,2: the 256^3 and 512^3 boxes only;
# s6-cube2: the benchmark also without pre3 / sweep_restrict (HOMG_CUBE_PRE3=0, HOMG_CUBE_SWEEP_RESTRICT=0)
# and ncu of the cube kernels with and without them (CK_RUN=0: not).
set -u
NAME=cube DEFAULT_BUDGET=${BUDGET:-140}
. "$(dirname "$0")/device_timed.sh"
G="--general --methods vcycle,fft --reps 9 --cases ${CASES:-0,1,2}"
timed 15 cube_gpu $B/tests/test_cube_gpu
timed 5 cube_cpu $B/tests/test_cube
timed 25 bench_cube $B/bench/bench_grid $G
timed 25 bench_gen env HOMG_GEN_CUBE=0 $B/bench/bench_grid $G
# without pre3 (cube_pre + a half-sweep), and without sweep_restrict too (call 1's path), same binary
timed 25 bench_nopre3 env HOMG_CUBE_PRE3=0 $B/bench/bench_grid $G
timed 25 bench_call1 env HOMG_CUBE_PRE3=0 HOMG_CUBE_SWEEP_RESTRICT=0 $B/bench/bench_grid $G
timed 15 memcheck_cube compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_gpu small
timed 10 racecheck_cube compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_cube_gpu small
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
NCU="ncu --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum"
K="regex:cube_|smooth|prolong|coarse_solve|residual|apply|dot2|update_|zero_active|scalars|error_norm"
# the first solve of the 256^3 box (~232 launches: 4 V-cycles and the CG steps), each kernel alone
[ "${NCU_RUN:-1}" = 1 ] && timed 40 ncu_solve $NCU --log-file $OUT/ncu_cube_solve.csv -k "$K" --launch-count ${NCU_COUNT:-240} \
    $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 1
[ "${NCU_RUN:-1}" = 1 ] && timed 20 ncu_gen env HOMG_GEN_CUBE=0 $NCU --log-file $OUT/ncu_gen_cycle.csv -k "regex:smooth|prolong|restrict" \
    --launch-count 24 $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 1
# the cube kernels of the first V-cycles of a 256^3 solve, each alone: new path and call 1's
CK="--csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum -k regex:cube_ --launch-count 40"
[ "${CK_RUN:-1}" = 1 ] && timed 20 ncu_cube ncu --clock-control none $CK --log-file $OUT/ncu_cube_new.csv \
    $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 1
[ "${CK_RUN:-1}" = 1 ] && timed 20 ncu_call1 env HOMG_CUBE_PRE3=0 HOMG_CUBE_SWEEP_RESTRICT=0 ncu --clock-control none $CK \
    --log-file $OUT/ncu_cube_call1.csv $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 1
timed 40 test_grid_gpu $B/tests/test_grid_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|CUDA vs|cube vs|rc=" "$L" |
    grep -v "^=== done" | cut -c1-200 | tail -c 6000
wc -l $OUT/*.csv
