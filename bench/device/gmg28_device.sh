#!/bin/bash
# s14-gmg28: the GPU check of the branch in one call (H100, timeout 110 s, budget 98 s).  The branch: the device
# refinement sizes every level by the coarse mesh's edge and face counts (host, lib/mesh/counts.c) and the uniform
# refinement's rule, no count read a level (HOMG_GMG_REFINE_READ=1 = "read": the reads as before, same binary);
# "warp" = HOMG_GMG_TRANSPOSE_WARP=1: s14-gmg25's warp-a-row rank sort of R's rows (never run on a GPU before).
# Steps: test_gmg_gpu (test_refine: predicted levels = homg_mesh_refine on both backends; test_refine_miscount;
# test_csr_transpose: both CUDA row sorts = CPU = cuSPARSE), memcheck --leak-check full of test_gmg_gpu quick,
# synccheck of the transpose kernels, ncu of the transpose row sorts (insertion vs rank), one CUPTI trace each of
# base, branch and warp (GPU idle per set-up phase, tools/dev/cupti_phases.py), then interleaved rounds at 65^3 of
# base (a45b9f1, the branch point), the branch, warp, read and main (72a62cb, /work/main's build: has s14-gmg27).
# /work/main/.carry-gmg28/ holds dev.tar.xz (the branch's pack), base.tar.xz (bench_gmg_base of a45b9f1 and
# bench_gmg_main of 72a62cb, stripped; libhomg_cupti_trace.so and libcupti.so.13), cupti_timeline.py,
# cupti_phases.py, lib.sh and this script.  Run:
# tar xJf .carry-gmg28/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg28/gmg28_device.sh
NAME=gmg28
C=${C:-.carry-gmg28}
BUDGET=${BUDGET:-98}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
BASE=$C/bench_gmg_base
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg28_traces
mkdir -p $TR
nvidia-smi -L >> "$L" 2>&1

timed 25 gmg_gpu $B/tests/test_gmg_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick
SAN_FLAGS="--kernel-name kns=transpose" sanitize 10 synccheck env HOMG_GMG_TRANSPOSE_WARP=1 $B/tests/test_gmg_gpu quick

NCU="ncu --clock-control none --section SpeedOfLight --section LaunchStats"
timed 8 ncu_sort $NCU -k regex:transpose_sort -c 4 $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --reps 1 --out /tmp/n.md
timed 8 ncu_rank env HOMG_GMG_TRANSPOSE_WARP=1 $NCU -k regex:transpose_rank -c 4 $B/bench/bench_gmg --fast --no-rcm \
    --dim 3 --setup-reps 1 --reps 1 --out /tmp/n.md

trace() { # name, command: 1 cold + 4 warm creates traced; the GPU idle per phase of creates 3 and 4
    local n=$1
    shift
    timed 12 "trace_$n" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$n.txt \
        HOMG_GMG_TRACE=2 "$@" --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 6 "timeline_$n" python3 $C/cupti_timeline.py $TR/$n.txt --top 4
    timed 6 "phases_${n}_3" python3 $C/cupti_phases.py $TR/$n.txt --create 3
    timed 6 "phases_${n}_4" python3 $C/cupti_phases.py $TR/$n.txt --create 4 --list
}
trace branch $B/bench/bench_gmg
trace base $BASE
trace warp env HOMG_GMG_TRANSPOSE_WARP=1 $B/bench/bench_gmg

run_variant() {
    case $1 in
    base) timed 10 "r${ROUND}_base" $BASE $A --out /tmp/b.md ;;
    branch) timed 10 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    warp) timed 10 "r${ROUND}_warp" env HOMG_GMG_TRANSPOSE_WARP=1 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    read) timed 10 "r${ROUND}_read" env HOMG_GMG_REFINE_READ=1 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    main) timed 10 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    esac
}
rounds base branch warp read main

(cd /tmp && tar cf - gmg28_traces | xz -T4 -3 > $OUT/traces.tar.xz)
echo "=== table: step, set-up median (min) ms, PCG its, solve ms" >> "$L"
awk '/^=== / { lab = $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
}
/^\| cube/ && /default/ { split($0, f, "|"); print "TAB", lab, m, n, "its" f[7], "solve" f[8] }' "$L" >> "$L"
echo "=== solve check: level, lambda_max, omega (count of runs); contraction rho (count); fallbacks" >> "$L"
grep -E "^ +[0-4] +[0-9]+ +[0-9]+ +(ELL|CSR)" "$L" | awk '{ print "LAM", $1, $6, $7 }' | sort | uniq -c >> "$L"
grep -o "contraction check rho: .*" "$L" | sort | uniq -c | sed 's/^/RHO /' >> "$L"
grep -o "SPAI/SAINV fallbacks [0-9]*" "$L" | sort | uniq -c | sed 's/^/FB /' >> "$L"
grep -E "transpose_(sort|rank)_kernel|^ +Duration|Grid Size" "$L" | sed 's/^ */NCU /' | cut -c1-120 >> "$L"
finish "^TAB|^create [34]|^all |LAM|RHO|FB |NCU|unpack failed"
