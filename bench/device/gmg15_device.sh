#!/bin/sh
# s11-gmg15: the set-up's host timeline in one call (H100, timeout 130 s).  Tests + memcheck of the branch, then
# CUPTI traces (tools/dev/cupti_trace.c as CUDA_INJECTION64_PATH; HOMG_GMG_TRACE=2 marks each create) of the 65^3
# cube's creates: the default, HOMG_GMG_KNOWN_COUNTS=1 (s11-gmg13's slower variant) and --pool (cudaMallocAsync
# pool); each analysed by tools/dev/cupti_timeline.py where the machine has python3 (else analysed after the call
# from the packed traces); then bench_gmg rounds of main, the branch, the branch --pool and the branch with
# HOMG_GMG_KNOWN_COUNTS=1, the order rotating.  Logs into $OUT (gmg15.log, traces.tar.xz).
# Run (the device copies /work/main's tree; /work/main/.carry-gmg15/ holds dev.tar.xz, base.tar.xz (bench_gmg_main,
# libhomg_cupti_trace.so, libcupti.so.13), cupti_timeline.py and this script):
# tar xJf .carry-gmg15/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg15/gmg15_device.sh
C=${C:-.carry-gmg15}
L=$OUT/gmg15.log
tar xJf $C/base.tar.xz -C $C 2>/dev/null # bench_gmg_main, libhomg_cupti_trace.so, libcupti.so.13
B=${B:-.devbuild}
M=${M:-$C/bench_gmg_main}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
T0=$(date +%s)
LIMIT=${LIMIT:-116}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
INJ=$PWD/$C/libhomg_cupti_trace.so
TR=/tmp/gmg15_traces
mkdir -p $TR
bench() { # label, then the command (env prefix allowed)
    lab=$1
    shift
    echo "== [$k] $lab $A"
    timeout 12 "$@" $A --out /tmp/b.md
    echo "rc=$?"
}
run_variant() {
    case $1 in
    main) bench main $M ;;
    branch) bench branch $B/bench/bench_gmg ;;
    pool) bench pool $B/bench/bench_gmg --pool ;;
    known) bench known env HOMG_GMG_KNOWN_COUNTS=1 $B/bench/bench_gmg ;;
    esac
}
trace() { # name, env assignments, bench_gmg arguments: 1 cold + 4 warm creates traced
    echo "== trace $1 ($2 $3) left $(left)s"
    env CUDA_INJECTION64_PATH=$INJ HOMG_CUPTI_OUT=$TR/$1.txt HOMG_GMG_TRACE=2 $2 \
        timeout 20 $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 4 $3 --out /tmp/t.md >$TR/$1.log 2>&1
    echo "rc=$? lines $(wc -l <$TR/$1.txt 2>/dev/null) $(tail -1 $TR/$1.txt 2>/dev/null)"
    grep -E "cupti|set-up:|iterations|rror" $TR/$1.log | head -8
    [ -n "$PY" ] && timeout 20 $PY $C/cupti_timeline.py $TR/$1.txt --top 15
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    export LD_LIBRARY_PATH=$PWD/$C:$LD_LIBRARY_PATH # libcupti.so.13 where the machine has none
    PY=$(command -v python3)
    echo "python3: ${PY:-none}; c++filt: $(command -v c++filt)"
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error" | tail -20
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error" | tail -14
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    trace default "" ""
    trace known HOMG_GMG_KNOWN_COUNTS=1 ""
    trace pool "" --pool
    k=0
    set -- main branch pool known
    for k in 1 2 3 4 5 6 7 8; do
        [ "$(left)" -lt 12 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        for v in "$@"; do run_variant $v; done
        set -- "$2" "$3" "$4" "$1" # the order rotates
    done
    echo "== end $(date -u)"
} >$L 2>&1
(cd /tmp && tar cf - gmg15_traces | xz -T4 -6 >$OUT/traces.tar.xz)
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^create|^\| cube|rho:" $L | tail -80
echo "== table: set-up median (min) ms per run"
awk '/^== trace/ { lab = "trace " $3 } /^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' $L
