#!/bin/bash
# homg7_device.sh -- s13-homg7's one GPU-machine run (issue 12, HOMG's whole-grid passes):
# homg_filter_vec4_kernel (float32 filters of spacing s >= 128 on large grids, float4 column
# groups, chains of rows s apart, predicated loads; homg_filter.cu) and
# homg_iterate_vec4s_kernel (levels m >= 2 with one x bracket a thread, 3 blocks an SM;
# off by default, HOMG_HOMG_VEC4S_M=2).  In order of need: test_grid_gpu homg (its third
# round forces both kernels on every shape that fits), memcheck + racecheck on it,
# bench_grid 1024,2048,4096 homg with main's binary before and after this build's, the knob
# variants, ncu of the first 4096^2 restart's 11 filters (main's and this build's) and of
# its levels 6..2 (vec4 as main, vec4s), the whole test_grid_gpu.
# The device tool copies /work/main, so everything travels in /work/main/.carry-homg7/:
# dev.tar.xz (DEV_BUILD=build DEV_FILES="tests/test_grid_gpu bench/bench_grid" sh
# tools/dev/device-prep.sh), main's bench_grid.xz and this script; run from main's root:
# OUT=$OUT bash .carry-homg7/homg7_device.sh (carry [".carry-homg7"]).  Run once at c9858df;
# homg_iterate_vec4s_kernel was then left out (slower: bench/results/h100.md "Session 13
# homg7"), so its steps (HOMG_HOMG_VEC4S_*) now time the default forms.
set -u
C=.carry-homg7
rm -rf .devbuild .devlibs
tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
NAME=homg7 DEFAULT_BUDGET=${BUDGET:-132}
. bench/device_timed.sh
xz -dkf $C/bench_grid.xz; chmod +x $C/bench_grid; M=$C/bench_grid
R="--sizes 1024,2048,4096 --reps 5 --methods homg"
MET="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size"
NC="ncu --clock-control none --csv --print-units base --metrics $MET"
Q="--sizes 4096 --methods homg --reps 1"
cat .devlibs/build-id >> "$L"
timed 15 homg $B/tests/test_grid_gpu homg
timed 12 memcheck compute-sanitizer --tool memcheck --leak-check full --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 20 racecheck compute-sanitizer --tool racecheck --error-exitcode 3 $B/tests/test_grid_gpu homg
timed 12 bench_main $M $R --out $OUT/grid_main.md
timed 12 bench_mine $B/bench/bench_grid $R --out $OUT/grid_mine.md
timed 10 bench_fvec_off env HOMG_HOMG_FVEC=0 $B/bench/bench_grid $R --out /tmp/g_fvec_off.md
timed 10 bench_fvec_all env HOMG_HOMG_FVEC_MIN_S=4 $B/bench/bench_grid $R --out /tmp/g_fvec_all.md
timed 10 bench_fvec_r4 env HOMG_HOMG_FVEC_ROWS=4 $B/bench/bench_grid $R --out /tmp/g_fvec_r4.md
timed 10 bench_vec4s_b3 env HOMG_HOMG_VEC4S_M=2 $B/bench/bench_grid $R --out /tmp/g_v4s_b3.md
timed 10 bench_vec4s_b2 env HOMG_HOMG_VEC4S_M=2 HOMG_HOMG_VEC4S_BLOCKS=2 $B/bench/bench_grid $R --out /tmp/g_v4s_b2.md
timed 10 bench_vec4s_all env HOMG_HOMG_VEC4S_M=2 HOMG_HOMG_VEC4S_MAX_M=99 $B/bench/bench_grid $R --out /tmp/g_v4s_all.md
timed 12 bench_main2 $M $R --out /tmp/g_main2.md
timed 15 ncu_filter_main $NC --log-file $OUT/ncu_filter_main.csv -k regex:homg_filter -c 11 $M $Q --out /tmp/y.md
timed 15 ncu_filter_mine $NC --log-file $OUT/ncu_filter_mine.csv -k regex:homg_filter -c 11 $B/bench/bench_grid $Q --out /tmp/y.md
timed 15 ncu_vec4_m6_2 $NC --log-file $OUT/ncu_vec4_m6_2.csv -k regex:homg_iterate_vec4_kernel --launch-skip 18 -c 20 $B/bench/bench_grid $Q --out /tmp/y.md
timed 15 ncu_vec4s_m6_2 env HOMG_HOMG_VEC4S_M=2 $NC --log-file $OUT/ncu_vec4s_m6_2.csv -k regex:homg_iterate_vec4s -c 20 $B/bench/bench_grid $Q --out /tmp/y.md
timed 12 test_grid_gpu_all $B/tests/test_grid_gpu
echo "=== done $(date -u)" >> "$L"
printf "%b\n" "$S" >> "$L"
for f in $OUT/grid_*.md /tmp/g_*.md; do echo "=== table $f" >> "$L"; grep -E "\| homg \|" "$f" >> "$L"; done
grep -E "\| homg \||copy bandwidth|^=== |ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|differ|rc=" "$L" | grep -v "^=== done" |
    cut -c1-170 | tail -c 11500
