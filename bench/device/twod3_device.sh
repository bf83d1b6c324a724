#!/bin/bash
# twod3_device.sh -- s12-twod3's one GPU-machine run (issue 12): the fused 2D box cycles'
# sweeps per level (HOMG_BOX_SCHED, lib/grid/box.c; CPU errors in
# bench/results/cpu_box_schedules.md).  No kernel changed (the plan only picks the sweep count
# each existing fused step takes), so no sanitizer run.  Tests: test_grid_gpu (default, and
# with HOMG_BOX_SCHED=21,22: V(2,1) on the finest), test_grid_ref on CUDA with that plan;
# bench_grid from main (e782620, /work/main/build at session start) beside this build, then the
# candidate plans by env (bench rows "fused-v 21.22" etc., '.' for the plan's ',').
# Everything travels in /work/main/.carry-twod3/: dev.tar.xz (DEV_BUILD=build DEV_FILES=
# "tests/test_grid_gpu tests/test_grid_ref bench/bench_grid" sh tools/dev/device-prep.sh),
# base.tar.xz (main's stripped bench_grid as .carry-base/bench_grid) and this script; run from
# main's root: OUT=$OUT bash .carry-twod3/twod3_device.sh (carry [".carry-twod3"]).
set -u
C=.carry-twod3
rm -rf .devbuild .devlibs .carry-base; tar xJf $C/dev.tar.xz; tar xJf $C/base.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=twod3 DEFAULT_BUDGET=${BUDGET:-128}
. bench/device_timed.sh
M=.carry-base/bench_grid
R="--sizes 256,1024,2048,4096 --reps 21"
cat .devlibs/build-id >> "$L"
timed 16 bench_main $M $R --methods "fft,fused-v,warm" --out $OUT/grid_main.md
timed 34 bench_mine $B/bench/bench_grid $R --methods "fft,fused-v,fused-v 21.22,fused-v 21.21,fused-v 22;11.22,fused-v 22;11.21,fused-v 21.22;11.22,warm" --out $OUT/grid_mine.md
timed 14 bench_main2 $M $R --methods "fused-v" --out $OUT/grid_main2.md
timed 14 grid_gpu $B/tests/test_grid_gpu
timed 14 grid_gpu_sched env HOMG_BOX_SCHED=21,22 $B/tests/test_grid_gpu
timed 24 grid_ref_sched env HOMG_TEST_BACKEND=cuda HOMG_BOX_SCHED=21,22 $B/tests/test_grid_ref
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
cat $OUT/grid_main.md $OUT/grid_mine.md $OUT/grid_main2.md > $OUT/grid_all.md 2>/dev/null
rm -f $OUT/grid_main.md $OUT/grid_mine.md $OUT/grid_main2.md
grep -E "^\| (256|1024|2048|4096)\^2 \| float32|^=== |fused, warm|PASSED|FAILED|rc=" "$L" | grep -v "^=== done" |
    cut -c1-170 | tail -c 11500
