#!/bin/sh
# s12-gmg18: the GPU check of the branch in one call (H100, timeout 140 s).  The branch: fewer radix-sort
# passes in the set-up (the patch partition sorts the patch bits only, the pattern's transposes their column
# half, the refinement packs its edge keys to 2 b bits) and a staged ELLPACK-R conversion (a block's CSR range
# read coalesced into shared memory; HOMG_GMG_ELL_STAGED=0 keeps the old kernel).
# Tests (test_gmg_gpu, test_fem_gpu full), memcheck (quick), racecheck + synccheck of test_gmg_gpu quick (the
# staged conversion uses shared memory), then bench_gmg rounds of main (/work/main's build/bench/bench_gmg,
# e782620, stripped), the branch and the branch with HOMG_GMG_ELL_STAGED=0, the order rotating; one CUPTI
# timeline (tools/dev/cupti_trace.c, HOMG_GMG_TRACE=2) of main and of the branch.  One log into $OUT.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg18/ holds dev.tar.xz, base.tar.xz (bench_gmg_main,
# libhomg_cupti_trace.so, libcupti.so.13), cupti_timeline.py and this script):
# tar xJf .carry-gmg18/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg18/gmg18_device.sh
C=${C:-.carry-gmg18}
L=$OUT/gmg18.log
tar xJf $C/base.tar.xz -C $C 2>/dev/null
B=${B:-.devbuild}
M=${M:-$C/bench_gmg_main}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
T0=$(date +%s)
LIMIT=${LIMIT:-128}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
INJ=$PWD/$C/libhomg_cupti_trace.so
TR=/tmp/gmg18_traces
mkdir -p $TR
bench() { # label, then the command (env allowed)
    lab=$1
    shift
    echo "== [$k] $lab $A"
    timeout 12 env "$@" $A --out /tmp/b.md
    echo "rc=$?"
}
main_() { bench main $M; }
branch_() { bench branch $B/bench/bench_gmg; }
old_() { bench branch-ell-old HOMG_GMG_ELL_STAGED=0 $B/bench/bench_gmg; }
round() { # the order rotates
    case $((k % 3)) in
    1) main_; branch_; old_ ;;
    2) branch_; old_; main_ ;;
    0) old_; main_; branch_ ;;
    esac
}
trace() { # name, binary: 1 cold + 4 warm creates traced
    echo "== trace $1 left $(left)s"
    [ "$(left)" -lt 20 ] && return
    env CUDA_INJECTION64_PATH=$INJ HOMG_CUPTI_OUT=$TR/$1.txt HOMG_GMG_TRACE=2 \
        timeout 20 $2 --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md >$TR/$1.log 2>&1
    echo "rc=$? lines $(wc -l <$TR/$1.txt 2>/dev/null)"
    grep -E "set-up:|set-up phases|rror" $TR/$1.log | head -4
    [ -n "$PY" ] && timeout 15 $PY $C/cupti_timeline.py $TR/$1.txt --top 6 | grep -E "^create|cudaLaunchKernel|GPU-idle gaps" | head -12
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    export LD_LIBRARY_PATH=$PWD/$C:$LD_LIBRARY_PATH # libcupti.so.13 where the machine has none
    PY=$(command -v python3)
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|ELLPACK|refinement" | tail -24
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|refined|partition|pattern" | tail -16
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== memcheck test_fem_gpu quick left $(left)s"
    timeout 20 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
    echo "== racecheck test_gmg_gpu quick (kernel filter: staged conversion) left $(left)s"
    timeout 20 compute-sanitizer --tool racecheck --racecheck-report all --kernel-name kns=ell_from_csr_staged \
        $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== synccheck test_gmg_gpu quick (staged conversion) left $(left)s"
    timeout 15 compute-sanitizer --tool synccheck --kernel-name kns=ell_from_csr_staged \
        $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    for k in 1 2 3; do round; done
    trace branch $B/bench/bench_gmg
    trace main $M
    for k in 4 5 6 7 8 9; do
        [ "$(left)" -lt 12 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        round
    done
    echo "== end $(date -u)"
} >$L 2>&1
(cd /tmp && tar cf - gmg18_traces | xz -T4 -3 >$OUT/traces.tar.xz)
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^create|set-up phases|rho:" $L | tail -90
echo "== table: set-up median (min) ms per run"
awk '/^== trace/ { lab = "trace " $3 } /^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' $L
