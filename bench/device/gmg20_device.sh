#!/bin/bash
# s13-gmg20: the GPU check of the branch in one call (H100, timeout 150 s): the set-up's GPU idle time
# (stream-ordered uploads, the coarse inverse's pattern on the device, one pivot read, one read a round of
# the levels' power-step norms and Ritz moments, the levels' Ritz solves on host threads).
# Tests (test_gmg_gpu full, test_fem_gpu full), memcheck --leak-check full (quick), one CUPTI trace each of
# main and the branch (tools/dev/cupti_trace.c, HOMG_GMG_TRACE=2: 1 cold + 4 warm creates), 129^3 once each,
# then interleaved rounds (lib.sh) of bench_gmg at 65^3: main (/work/main's build/bench/bench_gmg of 7a27146,
# stripped), the branch, the branch with HOMG_SYNC_UPLOADS=1 (uploads wait as before), the branch with
# HOMG_GMG_RITZ_THREADS=0 (one host thread for the Ritz solves).
# Run (the device copies /work/main's tree; /work/main/.carry-gmg20/ holds dev.tar.xz, bench_gmg_main.xz,
# cupti.tar.xz, cupti_timeline.py, lib.sh and this script):
# tar xJf .carry-gmg20/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg20/gmg20_device.sh
NAME=gmg20
BUDGET=${BUDGET:-138}
. "$(dirname "$0")/lib.sh"
carry_unpack cupti.tar.xz
xz -dkf $C/bench_gmg_main.xz && chmod +x $C/bench_gmg_main
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13
TR=/tmp/gmg20_traces
mkdir -p $TR
timed 40 test_gmg_gpu $B/tests/test_gmg_gpu
timed 30 test_fem_gpu $B/tests/test_fem_gpu
SAN_FLAGS="--leak-check full" sanitize 30 memcheck $B/tests/test_gmg_gpu quick
SAN_FLAGS="--leak-check full" sanitize 25 memcheck $B/tests/test_fem_gpu quick
run_variant() {
    case $1 in
    main) timed 12 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 12 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    syncup) timed 12 "r${ROUND}_syncup" env HOMG_SYNC_UPLOADS=1 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    ritz1) timed 12 "r${ROUND}_ritz1" env HOMG_GMG_RITZ_THREADS=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
trace() { # name, binary: 1 cold + 4 warm creates traced
    timed 20 "trace_$1" env CUDA_INJECTION64_PATH=$PWD/$C/libhomg_cupti_trace.so HOMG_CUPTI_OUT=$TR/$1.txt \
        HOMG_GMG_TRACE=2 $2 --fast --no-rcm --dim 3 --setup-reps 4 --out /tmp/t.md
    timed 15 "timeline_$1" python3 $C/cupti_timeline.py $TR/$1.txt --top 8
}
trace branch $B/bench/bench_gmg
trace main $M
timed 20 big_main $M --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
timed 20 big_branch $B/bench/bench_gmg --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
rounds main branch syncup ritz1
pack_logs traces $TR
finish "set-up: first|^\| cube.*default|^create|GPU busy|GPU idle|cudaStreamSynchronize|cudaMemcpyAsync|lambda_max"
echo "== table: variant, set-up median (min) ms, its, solve"
awk '/^=== / { lab = $2 } /set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
}
/^\| cube/ && /default/ { split($0, f, "|"); print lab, m, n, "its" f[7], "solve" f[8] }' "$L"
