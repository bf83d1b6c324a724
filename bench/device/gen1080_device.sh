#!/bin/bash
# gen1080_device.sh -- s12-gen1080's one GPU-machine run (issue 9 item 4, issue 11): the general
# multigrid with odd axes coarsened to ceil(n/2) cells and the coarse operator on the aggregates'
# real widths (kernels/grid/gen_point.h gen_face_scale / gen_wall_scale, gen_level.last).
# bench_grid --general on 1920x1080 (plain, 20% solid discs, padded to 2048x1088 with SOLID
# cells, 1920x1088) and 2048x1024 / 2048^2 discs, main's binary (e782620, built in the worktree
# before any edit) first; test_grid_gpu (whole, then memcheck on its gen group: the coarsen twins
# at odd sizes with a wider last cell), test_grid_ref on CUDA; ncu of the first gen kernels of the
# 1920x1080 solve (which kernels run on its levels, how long each takes).
# Everything travels in /work/main/.carry-gen1080/: dev.tar.xz (DEV_BUILD=build DEV_FILES=
# "tests/test_grid_gpu tests/test_grid_ref bench/bench_grid" sh tools/dev/device-prep.sh), main's
# bench_grid and this script; run from main's root: OUT=$OUT bash .carry-gen1080/gen1080_device.sh
# (carry [".carry-gen1080"]).  Ran once at eef0117, 11:16 UTC 2026-11-27 (32 s; h100_grid_general.md
# "Session 12 gen1080", raw/h100_gen1080_*).
set -u
C=.carry-gen1080
rm -rf .devbuild .devlibs; tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=gen1080 DEFAULT_BUDGET=${BUDGET:-132}
. bench/device_timed.sh
M=$C/bench_grid
G="--general --methods vcycle --reps 7"
NC="ncu --cache-control none --clock-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum"
cat .devlibs/build-id >> "$L"
timed 30 bench_main $M $G --cases 8,9,4 --out $OUT/grid_main.md
timed 40 bench_mine $B/bench/bench_grid $G --cases 8,9,4,15,16,17 --out $OUT/grid_mine.md
timed 12 grid_gpu $B/tests/test_grid_gpu
timed 18 grid_ref env HOMG_TEST_BACKEND=cuda $B/tests/test_grid_ref
timed 14 memcheck compute-sanitizer --tool memcheck --error-exitcode 3 $B/tests/test_grid_gpu gen
timed 20 ncu_mine $NC -k "regex:smooth|prolong|residual|apply|update|dot2|zero_active|scalars|coarse" --launch-count 60 --log-file $OUT/ncu_1080.csv $B/bench/bench_grid --general --cases 8 --methods vcycle --reps 1 --out /tmp/n.md
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
[ -f $OUT/ncu_1080.csv ] && python3 - $OUT/ncu_1080.csv >> "$L" 2>&1 <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if rows:
    h = rows[0]; ki, mi, vi, ids = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("ID")
    k = {}
    for r in rows[1:]:
        k.setdefault(r[ids], [r[ki].replace("void ", "").replace("<unnamed>::", "")[:40], {}])[1][r[mi]] = r[vi]
    for i, (n, m) in k.items():
        print("ncu %s %-40s %8s ns grid %s regs %s dram r/w %s / %s" % (i, n, m.get("gpu__time_duration.sum", "?"), m.get("launch__grid_size", "?"), m.get("launch__registers_per_thread", "?"), m.get("dram__bytes_read.sum", "?"), m.get("dram__bytes_write.sum", "?")))
PY
grep -E "^\| (1920|2048|2D)|^=== |^ncu |ERROR SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" | cut -c1-190 | tail -c 11500
