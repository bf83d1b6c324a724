#!/bin/bash
# s13-gmg23: the GPU check of the branch in one call (H100, timeout 150 s, budget 138 s).  The branch: the
# coarsest level's dense inverse set up on thread 0 beside the first round's Ritz solves (HOMG_GMG_COARSE_EARLY=0:
# after the smoothers, as main), potrs queued before the pivot read (one wait in the dense inverse, GMG and AMG),
# every level's bandwidth sum in one launch read after the set-up's final sync; main 1bab2d3 carries ec2aff3
# (sparse handles made before the transfers, the one-block dense_pivot_kernel), first run on a GPU here.
# Steps: test_gmg_gpu, test_amg_gpu, memcheck --leak-check full of test_gmg_gpu quick, racecheck + synccheck of
# dense_pivot_kernel (shared atomicMin), one CUPTI trace each of main and the branch (1 cold + 4 warm creates),
# 129^3 once each, then interleaved rounds at 65^3 of main, the branch and the branch with COARSE_EARLY=0.
# /work/main/.carry-gmg23/ holds dev.tar.xz (the branch's pack), base.tar.xz (main's bench_gmg of 1bab2d3,
# stripped; libhomg_cupti_trace.so and libcupti.so.13), cupti_timeline.py, lib.sh and this script.  Run:
# tar xJf .carry-gmg23/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg23/gmg23_device.sh
NAME=gmg23
C=.carry-gmg23
BUDGET=${BUDGET:-138}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg23_traces
mkdir -p $TR

timed 30 gmg_gpu $B/tests/test_gmg_gpu
timed 25 amg_gpu $B/tests/test_amg_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick
SAN_FLAGS="--kernel-name kns=dense_pivot_kernel" sanitize 15 "racecheck synccheck" $B/tests/test_gmg_gpu quick

run_variant() {
    case $1 in
    main) timed 12 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 12 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    late) timed 12 "r${ROUND}_late" env HOMG_GMG_COARSE_EARLY=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
trace() { # name, binary: 1 cold + 4 warm creates traced
    timed 20 "trace_$1" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$1.txt \
        HOMG_GMG_TRACE=2 $2 --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 15 "timeline_$1" python3 $C/cupti_timeline.py $TR/$1.txt --top 6
}
trace branch $B/bench/bench_gmg
trace main $M
timed 25 big_main $M --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
timed 25 big_branch $B/bench/bench_gmg --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
rounds main branch late

(cd /tmp && tar cf - gmg23_traces | xz -T4 -3 > $OUT/traces.tar.xz)
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
finish "^TAB|^create [1-4]|LAM|RHO|unpack failed"
