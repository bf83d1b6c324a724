#!/bin/bash
# s11-cube11's call (issue 9, the split cube kernels): where a 256^3 solve's time goes (ncu, every
# kernel of bench_grid's run, durations as the solve has them: --clock-control none --cache-control none),
# the launch geometry shared by cube.cu and cube_split.cu (cube_launch.cuh: same geometry, so the same
# results), and the split residual + restriction with each child row's u loaded once (csp_restrict_block,
# HOMG_CSP_RBLK=n: __launch_bounds__(256, n); off in the binaries of this call, bd96eac; n=3 the default
# from d6dca91 on, after this call measured it).  Tests: test_cube_split_gpu (every split kernel CUDA vs
# its CPU twin, the block restriction in all four builds, solves), compute-sanitizer memcheck
# on `test_cube_split_gpu small` (no shared memory: no race/sync check), test_cube_gpu, test_grid_ref on
# CUDA; benchmarks: bench_grid --general (cases 0,1,2) this branch / main's binary / this branch with
# HOMG_CSP_RBLK=3 and =1, bench_cube_split both binaries, then again the default and main (noise).
# Pack: DEV_BUILD=build DEV_FILES="tests/test_cube_split_gpu tests/test_cube_gpu tests/test_grid_ref
# bench/bench_grid bench/bench_cube_split" sh tools/dev/device-prep.sh; the pack, main.tar.xz (main's
# /work/main/build/bench/bench_grid and bench_cube_split, stripped) and this script in the ignored folder
# C of the checkout the device tool sends (/work/main/.carry-cube11), carried; `bash $C/cube11_device.sh`.
# Logs: $OUT/cube11.log, $OUT/ncu256.csv.
set -u
C=${C:-.carry-cube11}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
mkdir -p .mainbin && tar xJf $C/main.tar.xz -C .mainbin
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube11 DEFAULT_BUDGET=${BUDGET:-125}
. bench/device_timed.sh # run from the repository root
M=.mainbin
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 25 split_gpu $B/tests/test_cube_split_gpu
timed 15 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_split_gpu small
timed 12 cube_gpu $B/tests/test_cube_gpu
timed 22 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 12 bench_new $B/bench/bench_grid $G
timed 12 bench_main $M/bench_grid $G
timed 7 bench_rblk3 env HOMG_CSP_RBLK=3 $B/bench/bench_grid $V
timed 7 bench_rblk1 env HOMG_CSP_RBLK=1 $B/bench/bench_grid $V
timed 8 passes_new $B/bench/bench_cube_split --sizes 128,256,512 --reps 21
timed 30 ncu256 ncu --clock-control none --cache-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread --launch-count 900 --log-file $OUT/ncu256.csv $B/bench/bench_grid --general --methods vcycle --reps 1 --cases 1
timed 6 passes_main $M/bench_cube_split --sizes 256,512 --reps 21
timed 6 bench_rblk3_2 env HOMG_CSP_RBLK=3 $B/bench/bench_grid $V
timed 6 bench_new2 $B/bench/bench_grid $V
timed 6 bench_main2 $M/bench_grid $V
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
wc -l $OUT/ncu256.csv >> "$L" 2>&1
grep -E "^\| 3D|^\| [0-9]+\^3 \| split: res|^\| [0-9]+\^3 \| natural: res|^=== |ERROR SUMMARY|PASSED|FAILED|CUDA vs CPU|mismatch|differ|rc=|^[0-9a-f]{7}$|ncu256.csv" "$L" | grep -v "^=== done" | awk '!seen[$0]++' | cut -c1-170 | tail -c 11500
