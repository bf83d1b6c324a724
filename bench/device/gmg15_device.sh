#!/bin/bash
# s11-gmg15: the set-up's host timeline in one call (H100, timeout 130 s).  Tests + memcheck of the branch, then
# CUPTI traces (tools/dev/cupti_trace.c as CUDA_INJECTION64_PATH; HOMG_GMG_TRACE=2 marks each create) of the 65^3
# cube's creates: the default, HOMG_GMG_KNOWN_COUNTS=1 (s11-gmg13's slower variant) and --pool (cudaMallocAsync
# pool); each analysed by tools/dev/cupti_timeline.py where the machine has python3 (else analysed after the call
# from the packed traces); then bench_gmg rounds of main, the branch, the branch --pool and the branch with
# HOMG_GMG_KNOWN_COUNTS=1, the order rotating.  Logs into $OUT (gmg15.log, traces.tar.xz).
# Run (the device copies /work/main's tree; /work/main/.carry-gmg15/ holds dev.tar.xz, base.tar.xz (bench_gmg_main,
# libhomg_cupti_trace.so, libcupti.so.13), cupti_timeline.py, lib.sh and this script):
# OUT=$OUT bash .carry-gmg15/gmg15_device.sh (carry [".carry-gmg15"])
NAME=gmg15 BUDGET=${BUDGET:-116}
. "$(dirname "$0")/lib.sh"
carry_unpack base.tar.xz # bench_gmg_main, libhomg_cupti_trace.so, libcupti.so.13
M=${M:-$C/bench_gmg_main}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
INJ=$PWD/$C/libhomg_cupti_trace.so
TR=/tmp/gmg15_traces
PY=$(command -v python3)
export LD_LIBRARY_PATH=$PWD/$C:$LD_LIBRARY_PATH # libcupti.so.13 where the machine has none
mkdir -p $TR
bench() { # label, then the command (env prefix allowed)
    local lab=$1
    shift
    timed 12 "[$ROUND] $lab" "$@" $A --out /tmp/b.md
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
    timed 20 "trace $1 ($2 $3)" env CUDA_INJECTION64_PATH=$INJ HOMG_CUPTI_OUT=$TR/$1.txt HOMG_GMG_TRACE=2 $2 \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 4 $3 --out /tmp/t.md
    echo "lines $(wc -l < $TR/$1.txt 2> /dev/null) $(tail -1 $TR/$1.txt 2> /dev/null)" >> "$L"
    [ -n "$PY" ] && timed 20 "timeline $1" $PY $C/cupti_timeline.py $TR/$1.txt --top 15
}
echo "python3: ${PY:-none}; c++filt: $(command -v c++filt)" >> "$L"
timed 30 test_gmg_gpu $B/tests/test_gmg_gpu
timed 25 test_fem_gpu $B/tests/test_fem_gpu
SAN_FLAGS="--leak-check full" sanitize 25 memcheck $B/tests/test_gmg_gpu quick
trace default "" ""
trace known HOMG_GMG_KNOWN_COUNTS=1 ""
trace pool "" --pool
rounds main branch pool known
pack_logs traces -C /tmp gmg15_traces
finish "set-up:|^create|^\| cube|rho:"
echo "== table: set-up median (min) ms per run"
awk '/^=== / { lab = $2 " " $3 " " $4 } /set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' "$L"
