#!/bin/bash
# s11-pool: the CUDA default allocator from a ctx-owned stream-ordered pool, in one call (H100, timeout 140 s).
# The 14 test_*_gpu of the branch side by side (one process each; the pool path is the default), plus
# test_gmg_gpu quick with HOMG_CUDA_POOL=0 and compute-sanitizer memcheck of test_gmg_gpu quick; then
# bench_amg 64^3 (--no-pool: the ctx's default allocator = main's cudaMalloc, the branch's pool) once each, then
# bench_gmg rounds of main, branch, branch HOMG_CUDA_POOL=0 and branch --pool (the bench's own device-pool
# allocator), the order rotating.  Logs into $OUT (pool.log, tests.log).
# Run (the device copies /work/main's tree; /work/main/.carry-pool/ holds dev.tar.xz, base.tar.xz (main's
# bench_gmg_main, bench_amg_main, stripped) and this script):
# tar xJf .carry-pool/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-pool/pool_device.sh
C=${C:-.carry-pool}
L=$OUT/pool.log
tar xJf $C/base.tar.xz -C $C # bench_gmg_main, bench_amg_main
TL=$OUT/tests.log
B=${B:-.devbuild}
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
T0=$(date +%s)
LIMIT=${LIMIT:-110}
left() { echo $((LIMIT - ($(date +%s) - T0))); }
TD=/tmp/pool_tests
mkdir -p $TD
bench() { # label, then the command (env prefix allowed)
    lab=$1
    shift
    echo "== [$k] $lab $A"
    timeout 12 "$@" $A --out /tmp/b.md
    echo "rc=${PIPESTATUS[0]}"
}
run_variant() {
    case $1 in
    main) bench main $C/bench_gmg_main ;;
    branch) bench branch $B/bench/bench_gmg ;;
    nopool) bench nopool env HOMG_CUDA_POOL=0 $B/bench/bench_gmg ;;
    benchpool) bench benchpool $B/bench/bench_gmg --pool ;;
    esac
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    pids=""
    for t in $B/tests/test_*_gpu; do
        n=$(basename $t)
        (timeout 85 $t >$TD/$n.log 2>&1; echo "rc=$?" >>$TD/$n.log) &
        pids="$pids $!"
    done
    (HOMG_CUDA_POOL=0 timeout 60 $B/tests/test_gmg_gpu quick >$TD/nopool_gmg_quick.log 2>&1; echo "rc=$?" >>$TD/nopool_gmg_quick.log) &
    pids="$pids $!"
    (timeout 85 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick >$TD/memcheck.log 2>&1; echo "rc=$?" >>$TD/memcheck.log) &
    pids="$pids $!"
    wait $pids
    echo "== tests done after $(($(date +%s) - T0)) s (side by side); left $(left)s"
    for f in $TD/*.log; do
        echo "-- $(basename $f .log): $(tail -1 $f) $(grep -cE 'FAILED|\[  FAILED' $f) failed-lines; $(grep -E 'PASSED|ERROR SUMMARY' $f | tail -1)"
    done
    echo "== bench_amg --sizes 64 --reps 5 --no-pool: main then branch; left $(left)s"
    timeout 15 $C/bench_amg_main --sizes 64 --reps 5 --no-pool 2>&1 | tail -12
    echo "rc=${PIPESTATUS[0]}"
    timeout 15 $B/bench/bench_amg --sizes 64 --reps 5 --no-pool 2>&1 | tail -12
    echo "rc=${PIPESTATUS[0]}"
    set -- main branch nopool benchpool
    for k in 1 2 3 4 5 6 7 8; do
        [ "$(left)" -lt 12 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        for v in "$@"; do run_variant $v; done
        set -- "$2" "$3" "$4" "$1" # the order rotates
    done
    echo "== end $(date -u)"
} >$L 2>&1
cat $TD/*.log >$TL 2>&1
sed -n '1,/^== \[1\]/p' $L | grep -vE "^\| ---" | tail -60
grep -E "^== (round|end)|rc=[^0]" $L
echo "== table: set-up median (min) ms per run"
awk '/^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' $L
