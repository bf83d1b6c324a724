#!/bin/sh
# s12-gmg17: the GPU check of the branch in one call (H100, timeout 140 s).  The branch: every level's ELLPACK-R
# widths in one launch and a level's conversions in one (op.c, gmg.cu csr_widths / ell_from_csrs), the FEM patch
# assembly's boundary arrays zeroed by one set and added by one launch (patch.cu, fem.c), HOMG_GMG_KNOWN_COUNTS and
# HOMG_GMG_ARENA_FIRST_MB removed with their code paths.
# Tests (test_gmg_gpu, test_fem_gpu full) + memcheck (quick), then bench_gmg rounds of main (/work/main's
# build/bench/bench_gmg at e782620, stripped, in .carry-gmg17/base.tar.xz) and the branch, the order alternating;
# one CUPTI timeline (tools/dev/cupti_trace.c, HOMG_GMG_TRACE=2) of each for the launch count; more rounds while
# time is left.  One log into $OUT.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg17/ holds dev.tar.xz, base.tar.xz,
# cupti_timeline.py and this script):
# tar xJf .carry-gmg17/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg17/gmg17_device.sh
C=${C:-.carry-gmg17}
L=$OUT/gmg17.log
tar xJf $C/base.tar.xz -C $C 2>/dev/null # bench_gmg_main, libhomg_cupti_trace.so, libcupti.so.13
B=${B:-.devbuild}
M=${M:-$C/bench_gmg_main}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
T0=$(date +%s)
LIMIT=${LIMIT:-126}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
INJ=$PWD/$C/libhomg_cupti_trace.so
TR=/tmp/gmg17_traces
mkdir -p $TR
bench() { # label, then the command
    lab=$1
    shift
    echo "== [$k] $lab $A"
    timeout 12 "$@" $A --out /tmp/b.md
    echo "rc=$?"
}
round() { # the order alternates: odd rounds main first
    if [ $((k % 2)) -eq 1 ]; then
        bench main $M
        bench branch $B/bench/bench_gmg
    else
        bench branch $B/bench/bench_gmg
        bench main $M
    fi
}
trace() { # name, binary: 1 cold + 4 warm creates traced
    echo "== trace $1 left $(left)s"
    [ "$(left)" -lt 24 ] && return
    env CUDA_INJECTION64_PATH=$INJ HOMG_CUPTI_OUT=$TR/$1.txt HOMG_GMG_TRACE=2 \
        timeout 20 $2 --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md >$TR/$1.log 2>&1
    echo "rc=$? lines $(wc -l <$TR/$1.txt 2>/dev/null)"
    grep -E "set-up:|set-up phases|rror" $TR/$1.log | head -4
    [ -n "$PY" ] && timeout 15 $PY $C/cupti_timeline.py $TR/$1.txt --top 6 | grep -E "^create|cudaLaunchKernel|cudaMemsetAsync|cudaMemcpyAsync|cudaMalloc|GPU-idle gaps" | head -24
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    export LD_LIBRARY_PATH=$PWD/$C:$LD_LIBRARY_PATH # libcupti.so.13 where the machine has none
    PY=$(command -v python3)
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|batched|ELLPACK" | tail -24
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|refined" | tail -16
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== memcheck test_fem_gpu quick left $(left)s"
    timeout 20 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
    for k in 1 2 3; do round; done
    trace branch $B/bench/bench_gmg
    trace main $M
    for k in 4 5 6 7 8 9 10; do
        [ "$(left)" -lt 6 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        round
    done
    echo "== end $(date -u)"
} >$L 2>&1
[ "$(left)" -gt 3 ] && (cd /tmp && tar cf - gmg17_traces | xz -T4 -3 >$OUT/traces.tar.xz)
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^create|^\| cube|set-up phases|of FEM:|rho:" $L | tail -100
echo "== table: set-up median (min) ms per run"
awk '/^== trace/ { lab = "trace " $3 } /^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' $L
