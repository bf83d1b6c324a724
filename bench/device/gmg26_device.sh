#!/bin/bash
# s14-gmg26: the GPU check of the branch in one call (H100, timeout 140 s, budget 128 s).  The branch: every
# SPAI-1 level's rows in one launch (spai1_batch_kernel: the short and long rows of levels 1-3 side by side)
# instead of two launches a level; HOMG_GMG_SPAI1_BATCH=0 gives main's launches (same binary), and
# HOMG_GMG_SPAI1_LONG_LAST=1 puts the long rows' segments after the short ones.
# Steps: test_gmg_gpu (full), memcheck --leak-check full of test_gmg_gpu quick, racecheck + synccheck of the
# SPAI-1 kernels (test_gmg_gpu quick), ncu of the SPAI-1 launches (batch: 3 creates' launches; no batch: one
# create's 6), one CUPTI trace each of main, the branch and no-batch (per-kernel GPU time), 129^3 once each,
# then interleaved rounds at 65^3 of main, the branch, no-batch and long-last.
# /work/main/.carry-gmg26/ holds dev.tar.xz (the branch's pack), base.tar.xz (main's bench_gmg of dc95d5e,
# stripped; libhomg_cupti_trace.so and libcupti.so.13), cupti_timeline.py, lib.sh and this script.  Run:
# tar xJf .carry-gmg26/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg26/gmg26_device.sh
NAME=gmg26
C=${C:-.carry-gmg26}
BUDGET=${BUDGET:-128}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg26_traces
mkdir -p $TR
nvidia-smi -L >> "$L" 2>&1

timed 30 gmg_gpu $B/tests/test_gmg_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick
SAN_FLAGS="--kernel-name kns=spai1" sanitize 20 "racecheck synccheck" $B/tests/test_gmg_gpu quick

NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats"
timed 12 ncu_batch $NCU -k regex:spai1 -c 3 $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --reps 1 --out /tmp/n.md
timed 12 ncu_nobatch env HOMG_GMG_SPAI1_BATCH=0 $NCU -k regex:spai1 -c 6 $B/bench/bench_gmg --fast --no-rcm --dim 3 \
    --setup-reps 1 --reps 1 --out /tmp/n.md

trace() { # name, binary...: 1 cold + 4 warm creates traced
    local n=$1
    shift
    timed 20 "trace_$n" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$n.txt \
        HOMG_GMG_TRACE=2 "$@" --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 15 "timeline_$n" python3 $C/cupti_timeline.py $TR/$n.txt --top 4
    # per-kernel GPU time of the 5 creates (us), SPAI-1 kernels and the total
    awk -v n="$n" '$1 == "K" { d = ($3 - $2) / 1000; tot += d; if ($8 ~ /spai1/) { s[$8] += d; c[$8]++ } }
        END { for (k in s) printf "KERN %s %s launches %d us %.1f (per create %.1f)\n", n, k, c[k], s[k], s[k] / 5
              printf "KERN %s all-kernels us %.1f\n", n, tot }' $TR/$n.txt >> "$L"
}
trace main $M
trace branch $B/bench/bench_gmg
trace nobatch env HOMG_GMG_SPAI1_BATCH=0 $B/bench/bench_gmg
timed 25 big_main $M --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
timed 25 big_branch $B/bench/bench_gmg --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md

run_variant() {
    case $1 in
    main) timed 12 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 12 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    nobatch) timed 12 "r${ROUND}_nobatch" env HOMG_GMG_SPAI1_BATCH=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    longlast) timed 12 "r${ROUND}_longlast" env HOMG_GMG_SPAI1_LONG_LAST=1 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
rounds main branch nobatch longlast

(cd /tmp && tar cf - gmg26_traces | xz -T4 -3 > $OUT/traces.tar.xz)
echo "=== table: step, set-up median (min) ms, window ms, PCG its, solve ms" >> "$L"
awk '/^=== / { lab = $2 }
/set-up: first create/ {
    m = "-"; n = "-"; w = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    if (match($0, /window\) median [0-9.]+/)) w = substr($0, RSTART + 15, RLENGTH - 15)
}
/^\| cube/ && /default/ { split($0, f, "|"); print "TAB", lab, m, n, w, "its" f[7], "solve" f[8] }' "$L" >> "$L"
echo "=== solve check: level, lambda_max, omega (count of runs); contraction rho (count)" >> "$L"
grep -E "^ +[0-4] +[0-9]+ +[0-9]+ +(ELL|CSR)" "$L" | awk '{ print "LAM", $1, $2, $6, $7 }' | sort | uniq -c >> "$L"
grep -o "contraction check rho: .*" "$L" | sort | uniq -c | sed 's/^/RHO /' >> "$L"
grep -o "of smoother: SPAI-1 rows [0-9.]*" "$L" | sort | uniq -c | sed 's/^/ROWS /' >> "$L"
grep -E "spai1_(warp|batch)_kernel|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Block Limit (Reg|Shared)" "$L" |
    grep -v "^===" | sed 's/^ */NCU /' | cut -c1-150 >> "$L"
finish "^TAB|^KERN|^NCU|LAM|RHO|ROWS|unpack failed|^create [1-4]"
