#!/bin/bash
# s11-cube12's call (issue 9, the split cube kernels): (1) the split prolongation with cs a template
# constant (HOMG_CSP_PCS=1, s11-cube11's untimed fix for the regression since cube9's `cs` argument)
# against the default; (2) on levels of one plane a thread (kc 1: 128^3, the finest of the 128^3 case,
# level 1 of the 256^3 one) pre / half-sweep / prolongation with a block's 256 threads on a box of
# 16 rows along x, tj along y and 16 / tj planes (HOMG_CSP_TILE=tj) instead of 16 rows along y of one
# plane, and those kernels under __launch_bounds__(256, n) (HOMG_CSP_TLB=n; 8: <= 32 registers, so a
# 128^3 level's 1024 blocks are one wave).  Tests: test_cube_split_gpu (every split kernel CUDA vs its CPU twin with the plain map and
# boxes 4 / 1 / 16; solves) as is and with HOMG_CSP_TILE=4 HOMG_CSP_TLB=8 HOMG_CSP_PCS=1 (the solves
# then run them),
# compute-sanitizer memcheck on `test_cube_split_gpu small` (no shared memory: no race/sync check),
# test_cube_gpu, test_grid_ref on CUDA; benchmarks: bench_grid --general (cases 0,1,2) this branch /
# main's binary, the knobs, bench_cube_split both binaries, then the default / main / PCS again (noise).
# Pack (tools/dev/device-prep.sh's steps, only these binaries): tests/test_cube_split_gpu
# tests/test_cube_gpu tests/test_grid_ref bench/bench_grid bench/bench_cube_split; main.tar.xz (main's
# /work/main/build/bench/bench_grid and bench_cube_split, stripped) and this script in the ignored folder
# C of the checkout the device tool sends (/work/main/.carry-cube12), carried; `bash $C/cube12_device.sh`.
# Log: $OUT/cube12.log.
set -u
C=${C:-.carry-cube12}
[ -d .devbuild ] || tar xJf $C/dev.tar.xz
mkdir -p .mainbin && tar xJf $C/main.tar.xz -C .mainbin
export LD_LIBRARY_PATH=$PWD/.devlibs:${LD_LIBRARY_PATH:-}
NAME=cube12 DEFAULT_BUDGET=${BUDGET:-118}
. bench/device_timed.sh # run from the repository root
M=.mainbin
G="--general --methods vcycle,fft --reps 9 --cases 0,1,2"
V="--general --methods vcycle --reps 9 --cases 0,1,2"
cat .devlibs/build-id >> "$L" 2>/dev/null
timed 25 split_gpu $B/tests/test_cube_split_gpu
timed 15 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_cube_split_gpu small
timed 8 cube_gpu $B/tests/test_cube_gpu
timed 10 bench_new $B/bench/bench_grid $G
timed 10 bench_main $M/bench_grid $G
timed 5 bench_pcs1 env HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 5 bench_tile4_pcs1 env HOMG_CSP_TILE=4 HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 5 bench_tile16lb8_pcs1 env HOMG_CSP_TILE=16 HOMG_CSP_TLB=8 HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 5 bench_tile4lb8_pcs1 env HOMG_CSP_TILE=4 HOMG_CSP_TLB=8 HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 5 bench_tile2lb8_pcs1 env HOMG_CSP_TILE=2 HOMG_CSP_TLB=8 HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 5 bench_tile4lb6_pcs1 env HOMG_CSP_TILE=4 HOMG_CSP_TLB=6 HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 6 passes_new $B/bench/bench_cube_split --sizes 128,256,512 --reps 21
timed 5 passes_main $M/bench_cube_split --sizes 128,256,512 --reps 21
timed 4 bench_new2 $B/bench/bench_grid $V
timed 4 bench_main2 $M/bench_grid $V
timed 4 bench_pcs1_2 env HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 4 bench_tile4lb8_pcs1_2 env HOMG_CSP_TILE=4 HOMG_CSP_TLB=8 HOMG_CSP_PCS=1 $B/bench/bench_grid $V
timed 15 split_gpu_knobs env HOMG_CSP_TILE=4 HOMG_CSP_TLB=8 HOMG_CSP_PCS=1 $B/tests/test_cube_split_gpu
timed 20 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| 3D|^\| [0-9]+\^3 \| split: (2 half-sweeps \(SOR\)|pre|prolong)|^=== |ERROR SUMMARY|PASSED|FAILED|CUDA vs CPU|mismatch|differ|rc=|^[0-9a-f]{7}$" "$L" | grep -v "^=== done" | awk '!seen[$0]++' | cut -c1-160 | tail -c 11500
