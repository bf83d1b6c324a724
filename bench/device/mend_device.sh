#!/bin/bash
# mend_device.sh -- session 10's s10-mend on the GPU machine in one call (about 100 s).
# Here, from the repository root, after committing:
#   DEV_BUILD=build DEV_FILES="tests/test_grid_gpu tests/test_groups tests/test_bench_out bench/bench_grid \
#       bench/bench_gmg bench/bench_amg bench/bench_fluid demo/smoke" sh tools/dev/device-prep.sh
#   mkdir -p .carry-base && cp /work/main/build/bench/bench_grid .carry-base/   # main's, the baseline
#   bash /work/shared/device/fetch-gl.sh                                        # once: .gl/
# carry [".carry-dev", ".carry-base", ".gl"]; there: bash bench/device/mend_device.sh
# (The device tool sends the checkout the session started in, not a helper's worktree: pack and
# carry from the checkout that holds this script, e.g. main after the merge.  Not run yet: the
# branch's one call found neither the script nor the carry there, raw/mend_device_2026-11-27.log.)
#  1. tests: test_grid_gpu quick (its groups now from a table) and an unknown group (exit 2),
#     test_groups, test_bench_out (bench_gmg on CUDA: no file unless --out);
#  2. the smoke demo, 1024^2, 300 frames, --stats: the 'step' figure (CUDA events around
#     homg_fluid_step) under each view path, and with HOMG_DEMO_SKIP=finish (GL idle at each
#     frame's end); bench_fluid --demo, the same step with no GL beside it;
#  3. bench_grid --general, 3D boxes 128^3 and 256^3 (default, vcycle, fft): main's binary
#     (timed solves monitored through u_ref) and the branch's (nothing monitored), alternating.
# Log: $OUT/mend.log; a short table last.
NAME=mend C=.carry-dev BUDGET=${BUDGET:-100}
. "$(dirname "$0")/lib.sh"
carry_unpack
M=.carry-base
# test_bench_out runs the benchmarks of its build from build/bench
mkdir -p build && [ -e build/bench ] || ln -s ../$B/bench build/bench

timed 20 grid_gpu_quick $B/tests/test_grid_gpu quick
timed 5 grid_gpu_unknown $B/tests/test_grid_gpu nosuch
timed 5 groups $B/tests/test_groups
timed 25 bench_out $B/tests/test_bench_out

S1="--size 1024 --frames 300 --backend cuda --vsync 0 --stats"
timed 12 smoke_auto $B/demo/smoke $S1 --png "$OUT/smoke.png"
for p in map shared upload; do timed 10 smoke_$p $B/demo/smoke $S1 --path $p --png /tmp/smoke_$p.png; done
timed 10 smoke_map_finish env HOMG_DEMO_SKIP=finish $B/demo/smoke $S1 --path map --png /tmp/smoke_f.png
timed 10 smoke_auto_finish env HOMG_DEMO_SKIP=finish $B/demo/smoke $S1 --png /tmp/smoke_af.png
timed 20 fluid_demo $B/bench/bench_fluid --demo --size 1024 --variants 0

G="--general --reps 9 --cases 0,1"
for r in 1 2; do
    timed 20 grid_main_$r $M/bench_grid $G
    timed 20 grid_branch_$r $B/bench/bench_grid $G
done

WIDTH=330 finish "^\| 3D|^\| [0-9]+\^2 \| default|^stats|frames on|no test group" | sed -E 's/median of the last [0-9]+ of [0-9]+ frames //'
