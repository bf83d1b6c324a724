#!/bin/bash
# s11-gmg14: the GPU check of the branch in one call (H100, timeout 130 s): SPAI-1's staged rows' Gram entries by
# union masks (kernels/gmg/gmg.cu spai1_union_masks / spai1_gram_masks; HOMG_GMG_SPAI_MASKS=0: the merges, as main),
# and the contraction check's 48 batched products as one cooperative launch (ell_spmv_chain; HOMG_GMG_CHAIN=0: not).
# test_gmg_gpu (masks = merges bit for bit, CUDA vs CPU), ncu of the SPAI-1 launches (masks, merges, shuffles),
# compute-sanitizer (memcheck; racecheck and synccheck of the SPAI-1 kernels), test_fem_gpu, then bench_gmg rounds
# of main (/work/main's build/bench/bench_gmg of c3285f1, carried stripped and xz'd as
# .carry-gmg14/bench_gmg_main.xz), the branch (masks and chain), merges (the branch with HOMG_GMG_SPAI_MASKS=0) and
# no-chain (HOMG_GMG_CHAIN=0: the contraction's batches a launch each), the order rotating, each process also
# printing the phases of one traced create, while time is left.  One log and three ncu reports into $OUT.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg14/ holds dev.tar.xz, bench_gmg_main.xz, this script):
# tar xJf .carry-gmg14/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg14/gmg14_device.sh
L=$OUT/gmg14.log
B=.devbuild
M=/tmp/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((118 - ($(date +%s) - T0))); }
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
    merges) bench merges env HOMG_GMG_SPAI_MASKS=0 $B/bench/bench_gmg ;;
    no-chain) bench no-chain env HOMG_GMG_CHAIN=0 $B/bench/bench_gmg ;;
    esac
}
ncu_spai() { # label, then env assignments for the branch binary
    lab=$1
    shift
    echo "== ncu SPAI-1 launches ($lab) left $(left)s"
    timeout 12 env "$@" ncu --clock-control none -k regex:spai1_warp --launch-count 8 --section SpeedOfLight \
        --section LaunchStats --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n.md >$OUT/ncu_$lab.txt 2>&1
    echo "rc=$?"
    grep -E "spai1_warp|Duration|Grid Size|Registers Per|Achieved Occupancy|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued" \
        $OUT/ncu_$lab.txt | head -72
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    xz -dc .carry-gmg14/bench_gmg_main.xz >$M && chmod +x $M
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|LINE|SPAI-1|chained|iterations" | tail -44
    ncu_spai masks HOMG_GMG_SPAI_MASKS=1
    ncu_spai merges HOMG_GMG_SPAI_MASKS=0
    ncu_spai shuffles HOMG_GMG_SPAI_MASKS=2
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 16 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== racecheck test_gmg_gpu quick (SPAI-1 kernels) left $(left)s"
    timeout 10 compute-sanitizer --tool racecheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 | tail -2
    echo "== synccheck test_gmg_gpu quick (SPAI-1 kernels) left $(left)s"
    timeout 8 compute-sanitizer --tool synccheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 | tail -2
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 10 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|LINE" | tail -6
    set -- main branch merges no-chain
    for k in 1 2 3 4 5 6 7 8; do
        [ "$(left)" -lt 14 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        for v in "$@"; do run_variant $v; done
        set -- "$2" "$3" "$4" "$1" # the order rotates
    done
    echo "== end $(date -u)"
} >$L 2>&1
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|^\| cube|set-up phases|of smoother|rho:" $L | tail -100
echo "== table: round variant, set-up median, (min), unsynchronised window median, ms"
awk '/^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    w = "-"
    if (match($0, /window\) median [0-9.]+/)) w = substr($0, RSTART + 15, RLENGTH - 15)
    print lab, m, n, w
}' $L
