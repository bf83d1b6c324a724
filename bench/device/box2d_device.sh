#!/bin/bash
# box2d_device.sh -- s10-box2d's one GPU-machine run (issue 12, the 2D box's latency regime):
# the owned-cell fused steps (kernels/grid/grid_owned.cu) and the exact coarsest solve folded
# into the down step above it.  In order of need: test_grid_gpu's "owned" group (the new
# kernels against the CPU twins), bench_grid at 256^2 and 1024^2 with main's binary
# (c321091) before this build's, the whole test_grid_gpu, ncu per-kernel figures of one fused
# V-cycle at both sizes for both binaries (durations without PDL overlap, grid and block sizes,
# registers), compute-sanitizer memcheck / synccheck / racecheck on the "owned" group.
# The device tool copies /work/main, so everything travels in /work/main/.carry-box2d/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu tests/test_grid_ref
# bench/bench_grid" sh tools/dev/device-prep.sh), main's stripped bench_grid and this script;
# run from main's root: OUT=$OUT bash .carry-box2d/box2d_device.sh (carry [".carry-box2d"]).
set -u
C=.carry-box2d
rm -rf .devbuild .devlibs; tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=box2d DEFAULT_BUDGET=${BUDGET:-136}
. bench/device_timed.sh
M=$C/bench_grid
R="--sizes 256,1024 --reps 21"
MB="fft,fused-v,fmg,warm"
MY="fft,fused-v,fused-v fold-off,fused-v owned-off,fused-v wide+exact,fused-v owned<=256^2,fused-v owned<=1024^2,fmg,warm"
NC="ncu --clock-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
K="regex:owned|smooth_restrict|prolong_smooth|coarse_exact|stream_kernel"
cat .devlibs/build-id >> "$L"
timed 10 owned $B/tests/test_grid_gpu owned
timed 15 bench_main1 $M $R --methods "$MB" --out $OUT/grid_main1.md
timed 20 bench_mine1 $B/bench/bench_grid $R --methods "$MY" --out $OUT/grid_mine1.md
timed 20 test_grid_gpu $B/tests/test_grid_gpu
timed 9 ncu_main_256 $NC -k "$K" --launch-count 7 --log-file $OUT/ncu_main_256.csv $M --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 9 ncu_mine_256 $NC -k "$K" --launch-count 6 --log-file $OUT/ncu_mine_256.csv $B/bench/bench_grid --sizes 256 --methods fused-v --reps 1 --out /tmp/x.md
timed 9 ncu_main_1024 $NC -k "$K" --launch-count 11 --log-file $OUT/ncu_main_1024.csv $M --sizes 1024 --methods fused-v --reps 1 --out /tmp/x.md
timed 9 ncu_mine_1024 $NC -k "$K" --launch-count 10 --log-file $OUT/ncu_mine_1024.csv $B/bench/bench_grid --sizes 1024 --methods fused-v --reps 1 --out /tmp/x.md
timed 14 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu owned
timed 10 synccheck compute-sanitizer --tool synccheck --error-exitcode 3 $B/tests/test_grid_gpu owned
timed 20 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu owned
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
grep -E "^\| (256|1024)\^2 \| float32|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" |
    cut -c1-150 | tail -c 11500
