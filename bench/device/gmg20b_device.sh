#!/bin/bash
# s13-gmg20, follow-up (prepared, NOT RUN in session 13): checks ec2aff3, the two changes made after gmg20's call --
# the GMG sparse handles created just before the transfers (behind the queued FEM work) and the one-block
# dense_pivot_kernel (shared memory: racecheck and synccheck) -- against main 7a27146 and the measured 3eac749.
# Tests (test_gmg_gpu full: test_dense_inverse's pivots; test_amg_gpu: AMG's coarse inverse shares the kernel),
# sanitizers of test_gmg_gpu quick, one CUPTI trace of ec2aff3, 129^3 once, then interleaved rounds at 65^3.
# /work/main/.carry-gmg20/ holds bench_gmg_main.xz, cupti.tar.xz, cupti_timeline.py; b/ holds dev.tar.xz (ec2aff3),
# bench_gmg_3eac749.xz, lib.sh and this script.  Run (carry [".carry-gmg20"], timeout 150):
# tar xJf .carry-gmg20/b/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg20/b/gmg20b_device.sh
NAME=gmg20b
C=.carry-gmg20/b
P=.carry-gmg20
BUDGET=${BUDGET:-138}
. "$(dirname "$0")/lib.sh"
carry_unpack
tar xJf $P/cupti.tar.xz -C $P
for f in $P/bench_gmg_main $C/bench_gmg_3eac749; do xz -dkf $f.xz && chmod +x $f; done
A="--fast --no-rcm --dim 3 --setup-reps 7"
export LD_LIBRARY_PATH="$PWD/$P:$LD_LIBRARY_PATH" # libcupti.so.13
timed 40 test_gmg_gpu $B/tests/test_gmg_gpu
timed 40 test_amg_gpu $B/tests/test_amg_gpu
SAN_FLAGS="--leak-check full" sanitize 30 memcheck $B/tests/test_gmg_gpu quick
sanitize 30 "racecheck synccheck" $B/tests/test_gmg_gpu quick
run_variant() {
    case $1 in
    main) timed 12 "r${ROUND}_main" $P/bench_gmg_main $A --out /tmp/b.md ;;
    measured) timed 12 "r${ROUND}_measured" $C/bench_gmg_3eac749 $A --out /tmp/b.md ;;
    head) timed 12 "r${ROUND}_head" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
timed 20 trace_head env CUDA_INJECTION64_PATH=$PWD/$P/libhomg_cupti_trace.so HOMG_CUPTI_OUT=/tmp/gmg20b.txt \
    HOMG_GMG_TRACE=2 $B/bench/bench_gmg $A --out /tmp/t.md
timed 15 timeline_head python3 $P/cupti_timeline.py /tmp/gmg20b.txt --top 8
timed 20 big_head $B/bench/bench_gmg --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3 --out /tmp/b.md
rounds main measured head
finish "set-up: first|^\| cube.*default|^create|GPU busy|GPU idle|cudaStreamSynchronize|cudaMalloc_"
