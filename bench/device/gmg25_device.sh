#!/bin/bash
# s14-gmg25: the GPU check of the branch in one call (H100, timeout 140 s, budget 125 s).  The branch: GMG's
# R = P^T by the GMG table's own transpose (counts, scan, atomic placement, row sort; all queued, no read)
# instead of cuSPARSE's csr2csc (a read and ~20 host calls a level; HOMG_GMG_CUSPARSE_R=1 = "cusr" keeps it,
# and reads P's counts before R), no read before R (P's counts read with the ELLPACK-R widths;
# HOMG_GMG_PNNZ_EARLY=1 = "early" reads them before R as main), omega's zeros queued before their reads, SPAI-1's
# fallback counts read with the bandwidths after the final sync.  Steps: test_gmg_gpu (test_csr_transpose: CUDA = CPU = cuSPARSE; test_fallback_info), test_amg_gpu,
# memcheck --leak-check full of test_gmg_gpu quick, one CUPTI trace each of main, the branch and cusr (1 cold +
# 4 warm creates) with the GPU idle per set-up phase (tools/dev/cupti_phases.py), 129^3 once each, then
# interleaved rounds at 65^3 of main, the branch, cusr and early.
# /work/main/.carry-gmg25/ holds dev.tar.xz (the branch's pack), base.tar.xz (main's bench_gmg of dc95d5e,
# stripped; libhomg_cupti_trace.so and libcupti.so.13), cupti_timeline.py, cupti_phases.py, lib.sh and this
# script.  Run:
# tar xJf .carry-gmg25/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg25/gmg25_device.sh
NAME=gmg25
C=.carry-gmg25
BUDGET=${BUDGET:-125}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg25_traces
mkdir -p $TR

timed 30 gmg_gpu $B/tests/test_gmg_gpu
timed 15 amg_gpu $B/tests/test_amg_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick

run_variant() {
    case $1 in
    main) timed 12 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 12 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    cusr) timed 12 "r${ROUND}_cusr" env HOMG_GMG_CUSPARSE_R=1 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    early) timed 12 "r${ROUND}_early" env HOMG_GMG_PNNZ_EARLY=1 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
trace() { # name, command: 1 cold + 4 warm creates traced; the GPU idle per phase of creates 1-4
    local n=$1
    shift
    timed 20 "trace_$n" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$n.txt \
        HOMG_GMG_TRACE=2 "$@" --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 15 "timeline_$n" python3 $C/cupti_timeline.py $TR/$n.txt --top 6
    for k in 1 2 3; do timed 8 "phases_${n}_$k" python3 $C/cupti_phases.py $TR/$n.txt --create $k; done
    timed 8 "phases_${n}_4" python3 $C/cupti_phases.py $TR/$n.txt --create 4 --list
}
trace branch $B/bench/bench_gmg
trace main $M
trace cusr env HOMG_GMG_CUSPARSE_R=1 $B/bench/bench_gmg
timed 25 big_main $M --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
timed 25 big_branch $B/bench/bench_gmg --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
rounds main branch cusr early

(cd /tmp && tar cf - gmg25_traces | xz -T4 -3 > $OUT/traces.tar.xz)
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
finish "^TAB|^create [1-4]|^all |LAM|RHO|FB |unpack failed"
