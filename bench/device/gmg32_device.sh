#!/bin/bash
# s15-gmg32: the GPU check of the branch in one call (H100, timeout 120 s, budget 106 s).  The branch: the
# refinement's nodes and children in one launch (refine_fill); omega's random starts and zeros of all levels in
# one fill_batch launch each, the batched estimate's norms summed by its M products ("nobatch" =
# HOMG_GMG_OMEGA_BATCH=0: omega's calls a level as main, the same binary).
# Steps: test_gmg_gpu (40 s), test_fem_gpu, memcheck --leak-check full of test_gmg_gpu quick, one CUPTI trace each
# of main and the branch (1 cold + 4 warm creates; cupti_api.py: host time per call kind and phase, creates 1-4;
# cupti_phases.py of create 4), then interleaved rounds at 65^3 of main (/work/main's build/bench/bench_gmg of
# fbe12cb, stripped), the branch and nobatch.
# /work/main/.carry-gmg32/ holds dev.tar.xz (the branch's pack), base.tar.xz (bench_gmg_main,
# libhomg_cupti_trace.so, libcupti.so.13), cupti_timeline.py, cupti_phases.py, cupti_api.py, lib.sh and this script.
# Run: tar xJf .carry-gmg32/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg32/gmg32_device.sh
NAME=gmg32
C=${C:-.carry-gmg32}
BUDGET=${BUDGET:-106}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg32_traces
mkdir -p $TR
nvidia-smi -L >> "$L" 2>&1

timed 40 gmg_gpu $B/tests/test_gmg_gpu
timed 12 fem_gpu $B/tests/test_fem_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick

trace() { # name, command: 1 cold + 4 warm creates traced; host time per call kind and phase of creates 1-4
    local n=$1
    shift
    timed 12 "trace_$n" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$n.txt \
        HOMG_GMG_TRACE=2 "$@" --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 6 "api_$n" python3 $C/cupti_api.py $TR/$n.txt --creates 1-4
    timed 6 "phases_${n}_4" python3 $C/cupti_phases.py $TR/$n.txt --create 4
}
trace main $M
trace branch $B/bench/bench_gmg

run_variant() {
    case $1 in
    main) timed 10 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 10 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    nobatch) timed 10 "r${ROUND}_nobatch" env HOMG_GMG_OMEGA_BATCH=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
rounds main branch nobatch

echo "=== table: step, set-up median (min) ms, first create ms, PCG its, solve ms" >> "$L"
awk '/^=== / { lab = $2 }
/set-up: first create/ {
    m = "-"; n = "-"; f = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    if (match($0, /first create [0-9.]+/)) f = substr($0, RSTART + 13, RLENGTH - 13)
}
/^\| cube/ && /default/ { split($0, fl, "|"); print "TAB", lab, m, n, "first", f, "its" fl[7], "solve" fl[8] }' "$L" >> "$L"
echo "=== solve check: level, lambda_max, omega (count of runs); contraction rho (count); fallbacks" >> "$L"
grep -E "^ +[0-4] +[0-9]+ +[0-9]+ +(ELL|CSR)" "$L" | awk '{ print "LAM", $1, $6, $7 }' | sort | uniq -c >> "$L"
grep -o "contraction check rho: .*" "$L" | sort | uniq -c | sed 's/^/RHO /' >> "$L"
grep -o "SPAI/SAINV fallbacks [0-9]*" "$L" | sort | uniq -c | sed 's/^/FB /' >> "$L"
finish "^TAB|^creates 1-4|^cudaLaunchKernel |^cudaMemsetAsync |^refine |^omega |^create 4|^all |LAM|RHO|FB |unpack failed"
