#!/bin/bash
# s15-gmg31: the GPU check of the branch in one call (H100, timeout 120 s, budget 114 s).  The branch adds
# HOMG_GMG_FEM_COARSE_EXTRA=k (a measurement, default 0): every coarse level's fem built and assembled k more times
# beside its own and thrown away, so x2 - branch / 2 is the set-up's marginal cost of one pass of the coarse
# levels' FEM calls -- an upper bound on what one union assembly of levels 1..L-1 could save.
# Steps: test_gmg_gpu (40 s), one CUPTI trace each of main, the branch and x2 (1 cold + 4 warm creates;
# cupti_api.py: host calls per kind and phase, creates 1-4), 8 interleaved rounds at 65^3 of main (/work/main's
# build/bench/bench_gmg at fbe12cb, stripped), the branch and x2, one 129^3 run of main and the branch,
# memcheck --leak-check full of test_gmg_gpu quick, test_fem_gpu and test_amg_gpu while budget is left.
# /work/main/.carry-gmg31/ holds dev.tar.xz (the branch's pack), base.tar.xz (bench_gmg_main stripped,
# libhomg_cupti_trace.so, libcupti.so.13), cupti_api.py, cupti_phases.py, cupti_timeline.py, lib.sh, this script.
# Run: tar xJf .carry-gmg31/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg31/gmg31_device.sh
NAME=gmg31
C=${C:-.carry-gmg31}
BUDGET=${BUDGET:-114}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg31_traces
mkdir -p $TR
nvidia-smi -L >> "$L" 2>&1

timed 40 gmg_gpu $B/tests/test_gmg_gpu

trace() { # name, command: 1 cold + 4 warm creates traced; host time per call kind and phase of creates 1-4
    local n=$1
    shift
    timed 12 "trace_$n" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$n.txt \
        HOMG_GMG_TRACE=2 "$@" --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 6 "api_$n" python3 $C/cupti_api.py $TR/$n.txt --creates 1-4
}
trace main $M
trace branch $B/bench/bench_gmg
trace x2 env HOMG_GMG_FEM_COARSE_EXTRA=2 $B/bench/bench_gmg

run_variant() {
    case $1 in
    main) timed 10 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 10 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    x2) timed 10 "r${ROUND}_x2" env HOMG_GMG_FEM_COARSE_EXTRA=2 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
BUDGET_ROUNDS_END=$((deadline - 35)) # leave 35 s for 129^3 and memcheck
rounds_until() {
    local v
    for ROUND in 1 2 3 4 5 6 7 8; do
        [ "$(date +%s)" -gt "$BUDGET_ROUNDS_END" ] && break
        for v in "$@"; do run_variant "$v"; done
        set -- "${@:2}" "$1"
    done
}
rounds_until main branch x2

timed 12 big_main $M --big --fast --no-rcm --dim 3 --setup-reps 3 --out /tmp/b.md
timed 12 big_branch $B/bench/bench_gmg --big --fast --no-rcm --dim 3 --setup-reps 3 --out /tmp/b.md
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick
timed 12 fem_gpu $B/tests/test_fem_gpu
timed 12 amg_gpu $B/tests/test_amg_gpu

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
finish "^TAB|^creates 1-4|^cudaMemcpyAsync |^cudaLaunchKernel |^cudaMemsetAsync |^fem |^refine |^transfer |^format |^omega |LAM|RHO|FB |unpack failed"
