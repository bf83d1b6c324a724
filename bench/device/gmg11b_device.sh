#!/bin/sh
# s10-gmg11 follow-up, NOT RUN (needs one call, nvidia-h100-x1, timeout 90 s): 045f7df's fem_pattern_refined_kernel
# (the midpoints and the diagonal from homg_mesh_refine's fixed child positions, keys stored structure-of-arrays; it
# took 0.208 ms on the 65^3 level 0 in 028f8cd).  test_fem_gpu (gpu_refined_pattern_matches_cpu: CPU and CUDA = the
# pair sort, swapped children refused), memcheck of test_fem_gpu quick, 4 rounds of bench_gmg with level 0's pattern
# refined (default) and by the pairs (HOMG_GMG_L0_PATTERN=0), ncu of the kernel.  Binaries of 045f7df packed in the
# session checkout's ignored /work/main/.carry-gmg11/b/ (dev.tar.xz, this script).  Run there, carry [".carry-gmg11"]:
# tar xJf .carry-gmg11/b/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg11/b/gmg11b_device.sh
L=$OUT/gmg11b.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    echo "== test_fem_gpu (full)"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|refined|LINE" | tail -20
    echo "== memcheck test_fem_gpu quick"
    timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
    for k in 1 2 3 4; do # the order alternating
        for v in refined pairs; do
            [ $((k % 2)) = 0 ] && v=$([ $v = refined ] && echo pairs || echo refined)
            echo "== [$k] $v $A"
            if [ $v = refined ]; then timeout 12 $B/bench/bench_gmg $A --out /tmp/b.md
            else timeout 12 env HOMG_GMG_L0_PATTERN=0 $B/bench/bench_gmg $A --out /tmp/b.md; fi
        done
    done
    echo "== ncu fem_pattern_refined_kernel"
    timeout 25 ncu --clock-control none -k regex:fem_pattern_refined --launch-count 1 --section SpeedOfLight \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n.md 2>&1 | grep -E "fem_pattern|Duration|Throughput"
    echo "== end $(date -u)"
} >$L 2>&1
grep -E "^==|PASSED|FAILED|SUMMARY|refined|set-up:|^\| cube|of FEM:|Duration" $L | tail -60
