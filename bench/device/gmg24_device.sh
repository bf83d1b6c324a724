#!/bin/bash
# s13-gmg24: the GPU check of the branch in one call (H100, timeout 110 s, budget 100 s).  The branch: the
# contraction check's 12 sweep pairs (4 batched products each: 48 ell_batch_kernel launches a round) in one
# cooperative launch (ell_chain_kernel, a grid barrier between products); HOMG_GMG_CHAIN=0 ("nochain"): a launch
# a batch as main.  Steps: test_gmg_gpu (test_ell_chain: CUDA = CPU), memcheck --leak-check full of test_gmg_gpu
# quick, racecheck + synccheck of ell_chain_kernel (block_sum's shared words), one CUPTI trace each of main and the
# branch (1 cold + 4 warm creates), then interleaved rounds at 65^3 of main, the branch and nochain.
# /work/main/.carry-gmg24/ holds dev.tar.xz (the branch's pack), base.tar.xz (main's bench_gmg, stripped;
# libhomg_cupti_trace.so and libcupti.so.13), cupti_timeline.py, lib.sh and this script.  Run:
# tar xJf .carry-gmg24/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg24/gmg24_device.sh
NAME=gmg24
C=.carry-gmg24
BUDGET=${BUDGET:-100}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg24_traces
mkdir -p $TR

timed 30 gmg_gpu $B/tests/test_gmg_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick
SAN_FLAGS="--kernel-name kns=ell_chain_kernel" sanitize 12 "racecheck synccheck" $B/tests/test_gmg_gpu quick

run_variant() {
    case $1 in
    main) timed 12 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 12 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    nochain) timed 12 "r${ROUND}_nochain" env HOMG_GMG_CHAIN=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
trace() { # name, binary: 1 cold + 4 warm creates traced
    timed 15 "trace_$1" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$1.txt \
        HOMG_GMG_TRACE=2 $2 --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 10 "timeline_$1" python3 $C/cupti_timeline.py $TR/$1.txt --top 6
}
trace branch $B/bench/bench_gmg
trace main $M
rounds main branch nochain

(cd /tmp && tar cf - gmg24_traces | xz -T4 -3 > $OUT/traces.tar.xz)
echo "=== table: step, set-up median (min) ms, PCG its, solve ms" >> "$L"
awk '/^=== / { lab = $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
}
/^\| cube/ && /default/ { split($0, f, "|"); print "TAB", lab, m, n, "its" f[7], "solve" f[8] }' "$L" >> "$L"
echo "=== solve check: level, lambda_max, omega (count of runs); contraction rho (count)" >> "$L"
grep -E "^ +[0-4] +[0-9]+ +[0-9]+ +(ELL|CSR)" "$L" | awk '{ print "LAM", $1, $6, $7 }' | sort | uniq -c >> "$L"
grep -o "contraction check rho: .*" "$L" | sort | uniq -c | sed 's/^/RHO /' >> "$L"
finish "^TAB|^create [1-4]|LAM|RHO|unpack failed|ell_chain|chain"
