#!/bin/bash
# homg9_device.sh -- s13-homg9's one GPU-machine run (issue 12, HOMG's whole-grid passes):
# homg_filter_vec4_kernel with a rolled chain loop and a float window (80 registers, 3 blocks
# an SM; homg_filter.cu), its knobs (HOMG_HOMG_FVEC_BLOCKS, _PREFETCH, _SMALL: s = 1, 2 by
# the float4 kernel, _MIN_S), and the small passes of a restart.  In order of need:
# test_grid_gpu homg (its third round runs every filter spacing through the kernel's three
# loop / register forms), memcheck + racecheck on it, bench_grid 1024,2048,4096 homg with
# main's binary first and again last, the knob variants, ncu of the first 4096^2 restart's
# 11 filters (main's, this build's default and with every s by the float4 kernel) and of its
# residual, gathers and correction, the whole test_grid_gpu.
# The device tool copies /work/main, so everything travels in /work/main/.carry-homg9/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh
# tools/dev/device-prep.sh), main's bench_grid.xz and this script; run from main's root:
# OUT=$OUT bash .carry-homg9/homg9_device.sh (carry [".carry-homg9"]).  Run once at 7e8a9aa
# (bench/results/h100.md "Session 13 homg9"); HOMG_HOMG_FVEC_SMALL was then folded into
# MIN_S (default 1: every s), so its steps now time other settings.
set -u
C=.carry-homg9
rm -rf .devbuild .devlibs
tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=homg9 DEFAULT_BUDGET=${BUDGET:-135}
. bench/device_timed.sh
xz -dkf $C/bench_grid.xz; chmod +x $C/bench_grid; M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
MET="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
NC="ncu --clock-control none --csv --print-units base --metrics $MET"
Q="--sizes 4096 --methods homg --reps 1"
G=$B/bench/bench_grid
cat .devlibs/build-id >> "$L"
timed 15 homg $B/tests/test_grid_gpu homg
timed 15 memcheck compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 20 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 12 bench_main $M $R --out $OUT/grid_main.md
timed 12 bench_mine $G $R --out $OUT/grid_mine.md
timed 10 bench_pf1 env HOMG_HOMG_FVEC_PREFETCH=1 $G $R --out /tmp/g_pf1.md
timed 10 bench_b2 env HOMG_HOMG_FVEC_BLOCKS=2 $G $R --out /tmp/g_b2.md
timed 10 bench_b4 env HOMG_HOMG_FVEC_BLOCKS=4 $G $R --out /tmp/g_b4.md
timed 10 bench_small env HOMG_HOMG_FVEC_SMALL=1 $G $R --out /tmp/g_small.md
timed 10 bench_s4 env HOMG_HOMG_FVEC_MIN_S=4 $G $R --out /tmp/g_s4.md
timed 10 bench_all env HOMG_HOMG_FVEC_MIN_S=4 HOMG_HOMG_FVEC_SMALL=1 $G $R --out /tmp/g_all.md
timed 10 bench_all_pf1 env HOMG_HOMG_FVEC_MIN_S=4 HOMG_HOMG_FVEC_SMALL=1 HOMG_HOMG_FVEC_PREFETCH=1 $G $R --out /tmp/g_all_pf1.md
timed 8 bench_big1024 env HOMG_HOMG_BIG_N=0 $G --sizes 1024 --reps 5 --methods homg --out /tmp/g_big1024.md
timed 8 bench_big1024_all env HOMG_HOMG_BIG_N=0 HOMG_HOMG_FVEC_SMALL=1 $G --sizes 1024 --reps 5 --methods homg --out /tmp/g_big1024_all.md
timed 12 bench_main2 $M $R --out /tmp/g_main2.md
timed 12 ncu_filter_main $NC --log-file $OUT/ncu_filter_main.csv -k regex:homg_filter -c 11 $M $Q --out /tmp/y.md
timed 12 ncu_filter_mine $NC --log-file $OUT/ncu_filter_mine.csv -k regex:homg_filter -c 11 $G $Q --out /tmp/y.md
timed 12 ncu_filter_all env HOMG_HOMG_FVEC_MIN_S=4 HOMG_HOMG_FVEC_SMALL=1 $NC --log-file $OUT/ncu_filter_all.csv -k regex:homg_filter -c 11 $G $Q --out /tmp/y.md
timed 12 ncu_small $NC --log-file $OUT/ncu_small.csv -k "regex:residual_kernel|homg_gather|add_kernel" -c 14 $G $Q --out /tmp/y.md
timed 12 test_grid_gpu_all $B/tests/test_grid_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/grid_*.md /tmp/g_*.md; do echo "=== table $f" >> "$L"; grep -E "\| homg \|" "$f" >> "$L"; done
grep -E "\| homg \||copy bandwidth|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" |
    grep -v "^=== [a-z_0-9]*: " | cut -c1-170 | tail -c 11500
