#!/bin/bash
# As run at 06:07 UTC (commit f894553) the marching restriction was the default and HOMG_CSP_RKC=0
# (the quads) divided by zero in the launcher (fixed in 9d4298f); since then the quads are the default
# and this script times the marching one by HOMG_CSP_RKC=4 (not run in this form).
# s10-cube9's call: level 1 split too, the split of f folded into the pass from zero, the split
# restriction marching in z, a quiet solve's u left split between cycles (kernels/grid/cube_split*,
# lib/grid/general.c) -- test_cube_split_gpu (every split kernel CUDA vs its CPU twin, the coarse
# level split and not, GPU solves split / natural / CPU and a quiet one), compute-sanitizer memcheck
# on `test_cube_split_gpu small` (no shared memory: no race/sync check), bench_cube_split (each pass
# alone), bench_grid --general (cases 0,1,2): this branch (vcycle,fft), main's binary (vcycle,fft;
# $C/bench_grid.xz: /work/main/build/bench/bench_grid, stripped), and this binary with each new step
# off (HOMG_CUBE_SPLIT1=0, HOMG_CUBE_FOLD=0, HOMG_CUBE_KEEP=0) and the marching restriction on
# (HOMG_CSP_RKC=4, and its 80-register build HOMG_CSP_RLB=3); then again the default and main
# (noise), test_cube_gpu and
# test_grid_ref on CUDA.  Pack: DEV_BUILD=build DEV_FILES="tests/test_cube_split_gpu tests/test_cube_gpu
# tests/test_grid_ref bench/bench_grid bench/bench_cube_split" sh tools/dev/device-prep.sh; the pack,
# bench_grid.xz and this script copied into the ignored folder C of the checkout the device tool
# sends (/work/main/.carry-cube9), carried; `bash $C/cube9_device.sh`.  Log: $OUT/cube9.log.
set -u
C=${C:-.carry-cube9}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
xz -dc $C/bench_grid.xz > .devbuild/bench/bench_grid_main && chmod +x .devbuild/bench/bench_grid_main
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube9 DEFAULT_BUDGET=${BUDGET:-140}
. bench/device_timed.sh # run from the repository root
MB=$B/bench/bench_grid_main
V="--general --methods vcycle --reps 9 --cases 0,1,2"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 30 split_gpu $B/tests/test_cube_split_gpu
timed 20 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_split_gpu small
timed 15 bench_passes $B/bench/bench_cube_split --sizes 128,256,512 --reps 21
timed 15 bench_new $B/bench/bench_grid --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 15 bench_main $MB --general --methods vcycle,fft --reps 9 --cases 0,1,2
timed 10 bench_nosplit1 env HOMG_CUBE_SPLIT1=0 $B/bench/bench_grid $V
timed 10 bench_nofold env HOMG_CUBE_FOLD=0 $B/bench/bench_grid $V
timed 10 bench_march env HOMG_CSP_RKC=4 $B/bench/bench_grid $V
timed 10 bench_nokeep env HOMG_CUBE_KEEP=0 $B/bench/bench_grid $V
timed 10 bench_rlb3 env HOMG_CSP_RKC=4 HOMG_CSP_RLB=3 $B/bench/bench_grid $V
timed 10 bench_none env HOMG_CUBE_SPLIT1=0 HOMG_CUBE_FOLD=0 HOMG_CUBE_KEEP=0 $B/bench/bench_grid $V
timed 10 bench_new2 $B/bench/bench_grid $V
timed 10 bench_main2 $MB $V
timed 20 cube_gpu $B/tests/test_cube_gpu
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^\| [0-9]+\^3|^=== |ERROR SUMMARY|PASSED|FAILED|levels,|CUDA split|quiet|mismatch|differ|rc=|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | awk '!seen[$0]++' | cut -c1-180 | tail -c 11500
