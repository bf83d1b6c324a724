#!/bin/bash
# s12-gmg16: level 0's smoother (desc.fine_smoother, fine_sweeps) in one call (H100, timeout 140 s).
# test_gmg_gpu (full) and compute-sanitizer memcheck of test_gmg_gpu quick side by side; then bench_gmg 65^3 in
# 3 rounds, order rotating, of main's binary (default = SPAI-1 everywhere), the branch's variants in one process
# (--fine: SPAI-1 everywhere, Jacobi and SPAI(0) on level 0 with 1, 2, 3 sweeps) and the branch's default;
# then 129^3 (--big) once: main, the branch's variants.  Logs into $OUT (gmg16.log, tests.log).
# Run (the device copies /work/main's tree; /work/main/.carry-gmg16/ holds dev.tar.xz, base.tar.xz (bench_gmg_main:
# main's e782620 binary, stripped) and this script):
# tar xJf .carry-gmg16/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmg16/gmg16_device.sh
C=${C:-.carry-gmg16}
B=${B:-.devbuild}
L=$OUT/gmg16.log
TL=$OUT/tests.log
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
FINE=${FINE:-spai1:0,jacobi:1,jacobi:2,jacobi:3,spai0:1,spai0:2,spai0:3}
[ -f $C/base.tar.xz ] && tar xJf $C/base.tar.xz -C $C # bench_gmg_main
T0=$(date +%s)
LIMIT=${LIMIT:-126}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
TD=/tmp/gmg16_tests
mkdir -p $TD
bench() { # label, seconds, then the command
    lab=$1
    s=$2
    shift 2
    echo "== [$k] $lab: $*"
    timeout $s "$@"
    echo "rc=$?"
}
run_variant() {
    case $1 in
    main) bench main 14 $C/bench_gmg_main $A ;;
    fine) bench fine 25 $B/bench/bench_gmg $A --fine $FINE ;;
    default) bench default 14 $B/bench/bench_gmg $A ;;
    esac
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    (timeout 55 $B/tests/test_gmg_gpu >$TD/test_gmg_gpu.log 2>&1; echo "rc=$?" >>$TD/test_gmg_gpu.log) &
    p1=$!
    (timeout 55 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick >$TD/memcheck.log 2>&1; echo "rc=$?" >>$TD/memcheck.log) &
    p2=$!
    wait $p1 $p2
    echo "== tests done after $(($(date +%s) - T0)) s (side by side); left $(left)s"
    for f in $TD/*.log; do
        echo "-- $(basename $f .log): $(tail -1 $f); $(grep -E 'PASSED|FAILED  \]|ERROR SUMMARY' $f | tr '\n' ' ')"
    done
    set -- main fine default
    for k in 1 2 3; do
        [ "$(left)" -lt 30 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        for v in "$@"; do run_variant $v; done
        set -- "$2" "$3" "$1" # the order rotates
    done
    k=big
    if [ "$(left)" -gt 20 ]; then
        bench main 14 $C/bench_gmg_main --fast --no-rcm --dim 3 --big --setup-reps 3 --reps 3
        bench fine $(($(left) - 2)) $B/bench/bench_gmg --fast --dim 3 --big --setup-reps 3 --reps 3 --fine spai1:0,jacobi:2,jacobi:3,spai0:2,spai0:3
    else
        echo "== 129^3 skipped: left $(left)s"
    fi
    echo "== end $(date -u)"
} >$L 2>&1
cat $TD/*.log >$TL 2>&1
grep -E "^== (tests|round|end|129)|^-- |rc=[^0]" $L
echo "== table: round label | smoother | set-up median (min) | its | solve ms | cycle ms | smoother omega phases"
awk '/^== \[/ { lab = $2 " " $3 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
}
/^\| cube/ && !/AMG-PCG/ { split($0, f, "|"); row = lab " |" f[2] "|" f[3] "| " m " (" n ") |" f[7] "|" f[8] "|" f[9] }
/set-up phases ms/ && row != "" {
    s = "-"; o = "-"
    if (match($0, /smoother [0-9.]+/)) s = substr($0, RSTART + 9, RLENGTH - 9)
    if (match($0, / omega [0-9.]+/)) o = substr($0, RSTART + 7, RLENGTH - 7)
    print row "| " s " " o; row = ""
}' $L
