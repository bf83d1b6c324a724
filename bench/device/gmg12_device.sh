#!/bin/sh
# s11-gmg12: the GPU check of the branch in one call (H100, timeout 140 s): level 0's omega from level 1's
# (lib/gmg/smoother.c l0_from_l1; HOMG_GMG_L0_OMEGA=2 the default: lambda and contraction check from level 1;
# 1: lambda only, level 0 checked itself; 0: level 0's own estimate and check, as main).
# Tests + memcheck, then bench_gmg rounds of main (/work/main's build/bench/bench_gmg of c0d60c5, carried stripped
# as .carry-gmg12/bench_gmg_main), the branch (default), l0-lambda (=1) and l0-own (=0), the order rotating; each
# process prints the phases of one extra traced create (bench_gmg sets HOMG_GMG_TRACE=1 for it); time left: ncu
# kernel durations of one branch create.  One log into $OUT.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg12/ holds dev.tar.xz, bench_gmg_main and this script):
# tar xJf .carry-gmg12/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg12/gmg12_device.sh
L=$OUT/gmg12.log
B=.devbuild
M=${M:-.carry-gmg12/bench_gmg_main}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
T0=$(date +%s)
left() { echo $((136 - ($(date +%s) - T0))); }
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
    l0-lambda) bench l0-lambda env HOMG_GMG_L0_OMEGA=1 $B/bench/bench_gmg ;;
    l0-own) bench l0-own env HOMG_GMG_L0_OMEGA=0 $B/bench/bench_gmg ;;
    esac
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|iterations|omega|lambda" | tail -40
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|LINE" | tail -10
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    set -- main branch l0-lambda l0-own
    for k in 1 2 3 4 5; do
        [ "$(left)" -lt 32 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        for v in "$@"; do run_variant $v; done
        set -- "$2" "$3" "$4" "$1" # the order rotates
    done
    echo "== ncu kernel durations of one create (branch) left $(left)s"
    t=$(left)
    [ $t -gt 25 ] && t=25
    [ $t -gt 12 ] && timeout $t ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 2500 \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n2.md >$OUT/ncu_create.csv 2>&1
    echo "rc=$?"
    wc -l $OUT/ncu_create.csv 2>/dev/null
    echo "== end $(date -u)"
} >$L 2>&1
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|^\| cube|set-up phases|of omega|rho:|LVL|^ +0 " $L | tail -120
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
