#!/bin/bash
# s14-gmg27: the GPU check of the branch in one call (H100, timeout 140 s, budget 128 s).  The branch:
# level 0's pattern row by row (pattern_refined_rows: each row's columns gathered into a bucket of its
# own by counts and atomics, sorted and made unique row by row, compacted by the row pointers; no radix
# sort, no transposes; HOMG_FEM_PATTERN_ROWS=0: the sort as main) and the Dirichlet mask's "in an
# element" from the pattern's row pointers (one store a node; HOMG_FEM_MASK_ROWS=0: a thread an element
# as main).  Steps: test_fem_gpu (refined rows on both backends = the definition; the mask both ways),
# test_gmg_gpu, memcheck --leak-check full (quick), one CUPTI trace each of main, the branch and the
# branch with both knobs off, 129^3 once each, rounds at 65^3 of main (/work/main's build/bench/bench_gmg
# of dc95d5e, stripped, in base.tar.xz) and the branch's four variants, the order rotating; ncu of the
# new kernels.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg27/ holds dev.tar.xz, base.tar.xz,
# cupti_timeline.py, lib.sh and this script):
# tar xJf .carry-gmg27/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg27/gmg27_device.sh
NAME=gmg27
C=.carry-gmg27
BUDGET=${BUDGET:-128}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg27_traces
mkdir -p $TR

timed 30 fem_gpu $B/tests/test_fem_gpu
timed 30 gmg_gpu $B/tests/test_gmg_gpu
SAN_FLAGS="--leak-check full" sanitize 15 memcheck $B/tests/test_fem_gpu quick
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick

trace() { # name, env, binary: 1 cold + 4 warm creates traced
    timed 12 "trace_$1" env $2 CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$1.txt \
        HOMG_GMG_TRACE=2 $3 --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 8 "timeline_$1" python3 $C/cupti_timeline.py $TR/$1.txt --top 4
}
trace branch HOMG_X=0 $B/bench/bench_gmg
trace main HOMG_X=0 $M
trace off "HOMG_FEM_PATTERN_ROWS=0 HOMG_FEM_MASK_ROWS=0" $B/bench/bench_gmg
timed 12 big_main $M --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
timed 12 big_branch $B/bench/bench_gmg --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md

run_variant() {
    case $1 in
    main) timed 10 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 10 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    rows0) timed 10 "r${ROUND}_rows0" env HOMG_FEM_PATTERN_ROWS=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    mask0) timed 10 "r${ROUND}_mask0" env HOMG_FEM_MASK_ROWS=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    off) timed 10 "r${ROUND}_off" env HOMG_FEM_PATTERN_ROWS=0 HOMG_FEM_MASK_ROWS=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
set -- main branch rows0 mask0 off
for ROUND in 1 2 3 4 5 6 7 8; do # rounds while 14 s are left for ncu
    [ "$(budget_left)" -lt 14 ] && break
    for v in "$@"; do run_variant "$v"; done
    set -- "${@:2}" "$1"
done

# ncu of the new kernels (first create: level 0's gather x2, row sort, csr, then the levels' masks)
NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats"
timed 12 ncu_rows $NCU -k regex:"fem_pattern_rows|fem_mask_rows" -c 6 $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --reps 1 --out /tmp/n.md

(cd /tmp && tar cf - gmg27_traces | xz -T4 -3 > $OUT/traces.tar.xz)
echo "=== table: step, set-up median (min) ms, PCG its, solve ms" >> "$L"
awk '/^=== / { lab = $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
}
/^\| cube/ && /default/ { split($0, f, "|"); print "TAB", lab, m, n, "its" f[7], "solve" f[8] }' "$L" >> "$L"
finish "^TAB|of FEM per level|^create [1-4]|  fem_pattern_rows|  fem_mask_rows|Registers Per Thread|Achieved Occupancy|^    Duration|Grid Size|unpack failed"
