#!/bin/sh
# s11-gmg13: the GPU check of the branch in one call (H100, timeout 140 s): every level's edge count known from the
# coarsest mesh's (refine_count.c: no refinement waits for its unique count; HOMG_GMG_KNOWN_COUNTS=0: the reads, as
# main), level 0's pattern from level 1 with its count known (no read), every level's partition and mask counts in one
# read, 045f7df's fem_pattern_refined_kernel (fixed child positions; its first GPU run).
# (Ran 08:11 UTC at b42af66, where the known counts were on by default; off since 4bfc257: HOMG_GMG_KNOWN_COUNTS=1.)
# Tests + memcheck, then bench_gmg rounds of main (/work/main's build/bench/bench_gmg, carried packed as
# .carry-gmg13/base.tar.xz), the branch and the branch with HOMG_GMG_KNOWN_COUNTS=0, the order rotating; time left,
# ncu of the pattern kernels.  One log into $OUT.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg13/ holds dev.tar.xz, base.tar.xz and this script):
# tar xJf .carry-gmg13/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg13/gmg13_device.sh
C=${C:-.carry-gmg13}
L=$OUT/gmg13.log
B=${B:-.devbuild}
tar xJf $C/base.tar.xz -C $C 2>/dev/null
M=${M:-$C/bench_gmg_main}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
T0=$(date +%s)
LIMIT=${LIMIT:-128}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
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
    reads) bench reads env HOMG_GMG_KNOWN_COUNTS=0 $B/bench/bench_gmg ;;
    esac
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|iterations|omega|refine" | tail -30
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|differ|LINE|refined|given|pattern" | tail -30
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== memcheck test_fem_gpu quick left $(left)s"
    timeout 20 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
    k=0
    set -- main branch reads
    for k in 1 2 3 4 5 6 7 8; do
        [ "$(left)" -lt 18 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        for v in "$@"; do run_variant $v; done
        set -- "$2" "$3" "$1" # the order rotates
    done
    echo "== ncu pattern kernels (branch) left $(left)s"
    t=$(left)
    [ $t -gt 15 ] && t=15
    [ $t -gt 6 ] && timeout $t ncu --clock-control none --metrics gpu__time_duration.sum \
        -k regex:"fem_pattern_refined|fem_pattern_merge" --launch-count 4 \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n.md 2>&1 |
        grep -E "fem_pattern|gpu__time_duration|==PROF==|rror"
    echo "== end $(date -u)"
} >$L 2>&1
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^\| cube|set-up phases|of FEM|rho:|given|refine" $L | tail -120
echo "== table: set-up median (min) ms per run"
awk '/^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' $L
