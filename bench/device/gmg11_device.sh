#!/bin/sh
# s10-gmg11: the GPU check of the branch in one call (H100, timeout 150 s): every level's fem queued before the
# first wait (the partition's counts read by partition_stats, the Dirichlet tags uploaded once; HOMG_GMG_FEM_AHEAD=0:
# level by level, as main), the capped fused product-and-moment (s10-gmg10's 9b84733, cherry-picked), level 0's
# pattern from level 1's edges and children (HOMG_GMG_L0_PATTERN=0: the pair sort), P's entry counts in one read,
# omega's products batched across levels (HOMG_GMG_BATCH=0: a launch a level).
# Tests + memcheck + racecheck, then bench_gmg rounds of main (/work/main's build of aa41a9c, carried as
# .carry-gmg11/bench_gmg_main), the branch, and the branch with each knob off, the order rotating; time left, ncu
# kernel durations of one branch create.  One log into $OUT.
# Run (the device copies /work/main's tree; /work/main/.carry-gmg11/ holds dev.tar.xz, bench_gmg_main and this script):
# tar xJf .carry-gmg11/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg11/gmg11_device.sh
L=$OUT/gmg11.log
B=.devbuild
M=${M:-.carry-gmg11/bench_gmg_main}
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((140 - ($(date +%s) - T0))); }
run_variant() { # main's binary, the branch, the branch with one of its changes off
    case $1 in
    main) bench main $M ;;
    branch) bench branch $B/bench/bench_gmg ;;
    fem-serial) bench fem-serial env HOMG_GMG_FEM_AHEAD=0 $B/bench/bench_gmg ;;
    l0-pairs) bench l0-pairs env HOMG_GMG_L0_PATTERN=0 $B/bench/bench_gmg ;;
    no-batch) bench no-batch env HOMG_GMG_BATCH=0 $B/bench/bench_gmg ;;
    esac
}
bench() { # label, then the command (env prefix allowed)
    lab=$1
    shift
    echo "== [$k] $lab $A"
    timeout 12 "$@" $A --out /tmp/b.md
    echo "rc=$?"
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    echo "== test_gmg_gpu (full)"
    timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|iterations|omega|batched|fused" | tail -40
    echo "== test_fem_gpu (full) left $(left)s"
    timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|differ|LINE|refined|pattern" | tail -30
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== memcheck test_fem_gpu quick left $(left)s"
    timeout 20 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
    echo "== racecheck test_gmg_gpu quick (capped product-and-moment, batched products) left $(left)s"
    for kn in ell_dot ell_batch; do
        timeout 15 compute-sanitizer --tool racecheck --kernel-name kns=$kn $B/tests/test_gmg_gpu quick 2>&1 |
            grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard|FAILED|rror" | tail -4
    done
    k=0
    set -- main branch fem-serial l0-pairs no-batch
    for k in 1 2 3 4 5; do
        [ "$(left)" -lt 35 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        for v in "$@"; do run_variant $v; done
        set -- "$2" "$3" "$4" "$5" "$1" # the order rotates
    done
    echo "== ncu kernel durations of one create (branch) left $(left)s"
    t=$(left)
    [ $t -gt 30 ] && t=30
    [ $t -gt 12 ] && timeout $t ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 2500 \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n2.md >$OUT/ncu_create.csv 2>&1
    echo "rc=$?"
    wc -l $OUT/ncu_create.csv 2>/dev/null
    echo "== end $(date -u)"
} >$L 2>&1
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^\| cube|set-up phases|of FEM|rho:|arena" $L | tail -150
echo "== table: set-up median (min) ms per run"
awk '/^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' $L
