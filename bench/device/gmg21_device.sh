#!/bin/bash
# s13-gmg21: the GPU check of the branch in one call (H100, timeout 150 s, budget 138 s).  The branch:
# the FEM pattern's rows placed key by key from row starts (no binary searches: fem_pattern_starts_kernel,
# fem_pattern_place_kernel, fem_pattern_csr_kernel), the patch assembly kernel a row of the element matrix
# at a time in 64 registers (HOMG_FEM_PATCH_KERNEL=0: the whole matrix as main, 1: rows in 80 registers),
# the single-matrix csr_width removed.  Steps: test_fem_gpu (all three patch kernels), test_gmg_gpu,
# memcheck --leak-check full (quick), racecheck + synccheck of fem_patch_kernel (its shared atomics), ncu of
# the changed kernels (branch, its variant 0, main), bench_gmg rounds at 65^3 of main
# (/work/main's build/bench/bench_gmg of 7a27146, stripped, in base.tar.xz) and the branch's three patch
# kernels, the order rotating; one CUPTI trace each of main and the branch; 129^3 once each.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg21/ holds dev.tar.xz, base.tar.xz,
# cupti_timeline.py, lib.sh and this script):
# tar xJf .carry-gmg21/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg21/gmg21_device.sh
NAME=gmg21
C=.carry-gmg21
BUDGET=${BUDGET:-138}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
export LD_LIBRARY_PATH="$PWD/$C:$LD_LIBRARY_PATH" # libcupti.so.13 where the machine has none
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
TR=/tmp/gmg21_traces
mkdir -p $TR

timed 25 fem_gpu $B/tests/test_fem_gpu
timed 12 fem_gpu_k0 env HOMG_FEM_PATCH_KERNEL=0 $B/tests/test_fem_gpu quick
timed 12 fem_gpu_k1 env HOMG_FEM_PATCH_KERNEL=1 $B/tests/test_fem_gpu quick
timed 30 gmg_gpu $B/tests/test_gmg_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_fem_gpu quick
SAN_FLAGS="--leak-check full" sanitize 25 memcheck $B/tests/test_gmg_gpu quick
SAN_FLAGS="--kernel-name kns=fem_patch_kernel" sanitize 20 "racecheck synccheck" $B/tests/test_fem_gpu quick

# ncu: one create's FEM kernels (5 levels), the changed ones
K='regex:fem_patch_kernel|fem_pattern_(place|starts|csr|merge|rows|cols)'
NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats -k"
timed 20 ncu_branch $NCU "$K" -c 12 $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --reps 1 --out /tmp/n.md
timed 15 ncu_branch_k0 env HOMG_FEM_PATCH_KERNEL=0 $NCU regex:fem_patch_kernel -c 5 $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --reps 1 --out /tmp/n.md
timed 20 ncu_main $NCU "$K" -c 17 $M --fast --no-rcm --dim 3 --setup-reps 1 --reps 1 --out /tmp/n.md

run_variant() {
    case $1 in
    main) timed 12 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 12 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    k0) timed 12 "r${ROUND}_k0" env HOMG_FEM_PATCH_KERNEL=0 $B/bench/bench_gmg $A --out /tmp/b.md ;;
    k1) timed 12 "r${ROUND}_k1" env HOMG_FEM_PATCH_KERNEL=1 $B/bench/bench_gmg $A --out /tmp/b.md ;;
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
rounds main branch k0 k1

(cd /tmp && tar cf - gmg21_traces | xz -T4 -3 > $OUT/traces.tar.xz)
echo "=== table: step, set-up median (min) ms, PCG its, solve ms" >> "$L"
awk '/^=== / { lab = $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
}
/^\| cube/ && /default/ { split($0, f, "|"); print "TAB", lab, m, n, "its" f[7], "solve" f[8] }' "$L" >> "$L"
finish "^TAB|set-up phases|^create [1-4]|  fem_patch_kernel|  fem_pattern|Registers Per Thread|Achieved Occupancy|Block Limit Registers|Block Limit Shared|^    Duration|DRAM Throughput|unpack failed"
