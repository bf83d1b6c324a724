#!/bin/sh
# s12-gmg19: the GPU check of the branch in one call (H100, timeout 140 s).  The branch: a diagonal level's
# (level 0's SPAI(0) by default) omega from 4 power steps instead of 12 (smoother.c diag_steps;
# HOMG_GMG_DIAG_POWER=N sets N, 12 = main's logic).  No kernel added: no racecheck.
# Tests (test_gmg_gpu, test_fem_gpu full), memcheck --leak-check full (quick), then bench_gmg rounds (65^3) of
# main (/work/main's build/bench/bench_gmg at 0f8d34f, stripped, in .carry-gmg19/base.tar.xz), the branch and the
# branch with HOMG_GMG_DIAG_POWER=12, the order rotating; 129^3 (--big) once each; one CUPTI timeline
# (tools/dev/cupti_trace.c, HOMG_GMG_TRACE=2) of the branch and of main; more rounds while time is left.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg19/ holds dev.tar.xz, base.tar.xz,
# cupti_timeline.py and this script):
# tar xJf .carry-gmg19/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg19/gmg19_device.sh
C=${C:-.carry-gmg19}
L=$OUT/gmg19.log
tar xJf $C/base.tar.xz -C $C 2>/dev/null # bench_gmg_main, libhomg_cupti_trace.so, libcupti.so.13
B=${B:-.devbuild}
M=${M:-$C/bench_gmg_main}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
T0=$(date +%s)
LIMIT=${LIMIT:-130}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
INJ=$PWD/$C/libhomg_cupti_trace.so
TR=/tmp/gmg19_traces
mkdir -p $TR
bench() { # label, limit s, then the command (env allowed); $A appended
    lab=$1
    lim=$2
    shift 2
    echo "== [$k] $lab $A left $(left)s"
    timeout $lim env "$@" $A --out /tmp/b.md
    echo "rc=$?"
}
main_() { bench main 12 $M; }
branch_() { bench branch 12 $B/bench/bench_gmg; }
p12_() { bench branch-power12 12 HOMG_GMG_DIAG_POWER=12 $B/bench/bench_gmg; }
round() { # the order rotates
    case $((k % 3)) in
    1) main_; branch_; p12_ ;;
    2) branch_; p12_; main_ ;;
    0) p12_; main_; branch_ ;;
    esac
}
trace() { # name, binary: 1 cold + 4 warm creates traced
    echo "== trace $1 left $(left)s"
    [ "$(left)" -lt 20 ] && return
    env CUDA_INJECTION64_PATH=$INJ HOMG_CUPTI_OUT=$TR/$1.txt HOMG_GMG_TRACE=2 \
        timeout 20 $2 --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md >$TR/$1.log 2>&1
    echo "rc=$? lines $(wc -l <$TR/$1.txt 2>/dev/null)"
    grep -E "set-up:|set-up phases|of omega|rror" $TR/$1.log | head -5
    [ -n "$PY" ] && timeout 15 $PY $C/cupti_timeline.py $TR/$1.txt --top 6 | grep -E "^create|cudaLaunchKernel|GPU-idle gaps" | head -12
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    export LD_LIBRARY_PATH=$PWD/$C:$LD_LIBRARY_PATH # libcupti.so.13 where the machine has none
    PY=$(command -v python3)
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|level 0|lambda|iterations" | tail -40
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error" | tail -6
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== memcheck test_fem_gpu quick left $(left)s"
    timeout 20 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
    for k in 1 2 3; do round; done
    k=big
    A="--fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3"
    [ "$(left)" -gt 50 ] && bench main 20 $M
    [ "$(left)" -gt 30 ] && bench branch 20 $B/bench/bench_gmg
    A="--fast --no-rcm --dim 3 --setup-reps 7"
    trace branch $B/bench/bench_gmg
    trace main $M
    for k in 4 5 6 7 8 9; do
        [ "$(left)" -lt 40 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        round
    done
    echo "== end $(date -u)"
} >$L 2>&1
(cd /tmp && tar cf - gmg19_traces | xz -T4 -3 >$OUT/traces.tar.xz)
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^create|set-up phases|of omega|^ +0  " $L | tail -100
echo "== table: set-up median (min) ms, PCG its, solve ms per run"
awk '/^== trace/ { lab = "trace " $3 } /^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
}
/^\| cube/ && /default/ { split($0, f, "|"); print lab, m, n, "its" f[7], "solve" f[8] }' $L
