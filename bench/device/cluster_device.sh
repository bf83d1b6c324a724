#!/bin/bash
# cluster_device.sh -- s8-cluster's GPU-machine run: the thread-block-cluster coarse levels
# (kernels/grid/grid_coarse_cluster.cu) -- test_grid_gpu (its cluster comparisons included),
# compute-sanitizer memcheck / racecheck / synccheck on the small cluster cases, test_grid_ref
# on CUDA, bench_coarse (the kernel alone: cluster sizes, solo levels, clock64 per step), and
# bench_grid's fmg / fused-v rows at 256^2, 512^2, 1024^2: this build by default (levels
# <= 256^2 in one cluster launch), the same binary with HOMG_BOX_BLOCK_CELLS=0 (main's
# schedule), main's binary ($B/bench/bench_grid_main) and two cluster variants.  Pack with
# tools/dev/device-prep.sh (DEV_FILES="bench/bench_grid bench/bench_coarse tests/test_grid_gpu
# tests/test_grid_ref") plus main's stripped bench_grid as .devbuild/bench/bench_grid_main.
set -u
NAME=cluster DEFAULT_BUDGET=${BUDGET:-168}
D=$(dirname "$0")
[ -f "$D/device_timed.sh" ] || D=bench
. "$D/device_timed.sh"
G="--sizes 256,512,1024 --methods fmg,fused-v --reps 21"
timed 30 test_grid_gpu $B/tests/test_grid_gpu
timed 20 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu cluster
timed 25 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu cluster
timed 15 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_grid_gpu cluster
timed 25 grid_ref_cuda env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 12 bench_coarse $B/bench/bench_coarse 64 128 256 512
timed 20 grid_cluster $B/bench/bench_grid $G --out $OUT/grid_cluster.md
timed 15 grid_off env HOMG_BOX_BLOCK_CELLS=0 $B/bench/bench_grid $G --out $OUT/grid_off.md
[ -x $B/bench/bench_grid_main ] && timed 15 grid_main $B/bench/bench_grid_main $G --out $OUT/grid_main.md
timed 10 grid_c8 env HOMG_BOX_CLUSTER=8 $B/bench/bench_grid --sizes 256,1024 --methods fmg,fused-v --reps 21 --out $OUT/grid_c8.md
timed 10 grid_solo4k env HOMG_BOX_SOLO_CELLS=4096 $B/bench/bench_grid --sizes 256,1024 --methods fmg,fused-v --reps 21 --out $OUT/grid_solo4k.md
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| |^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=|^where" "$L" | grep -v "^=== done" |
    cut -c1-160 | tail -c 11500
