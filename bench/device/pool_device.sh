#!/bin/bash
# s11-pool: the CUDA default allocator from a ctx-owned stream-ordered pool, in one call (H100, timeout 140 s).
# The 14 test_*_gpu of the branch side by side (one process each; the pool path is the default), plus
# test_gmg_gpu quick with HOMG_CUDA_POOL=0 and compute-sanitizer memcheck of test_gmg_gpu quick; then
# bench_amg 64^3 (--no-pool: the ctx's default allocator = main's cudaMalloc, the branch's pool) once each, then
# bench_gmg rounds of main, branch, branch HOMG_CUDA_POOL=0 and branch --pool (the bench's own device-pool
# allocator), the order rotating.  Logs into $OUT (pool.log, tests.tar.xz).
# Run (the device copies /work/main's tree; /work/main/.carry-pool/ holds dev.tar.xz, base.tar.xz (main's
# bench_gmg_main, bench_amg_main, stripped), lib.sh and this script):
# OUT=$OUT bash .carry-pool/pool_device.sh (carry [".carry-pool"])
NAME=pool BUDGET=${BUDGET:-110}
. "$(dirname "$0")/lib.sh"
carry_unpack base.tar.xz # bench_gmg_main, bench_amg_main
A=${A:-"--fast --no-rcm --dim 3 --setup-reps 7"}
TD=/tmp/pool_tests
mkdir -p $TD
bench() { # label, then the command (env prefix allowed)
    local lab=$1
    shift
    timed 12 "[$ROUND] $lab" "$@" $A --out /tmp/b.md
}
run_variant() {
    case $1 in
    main) bench main $C/bench_gmg_main ;;
    branch) bench branch $B/bench/bench_gmg ;;
    nopool) bench nopool env HOMG_CUDA_POOL=0 $B/bench/bench_gmg ;;
    benchpool) bench benchpool $B/bench/bench_gmg --pool ;;
    esac
}
side() { # log name, then the command: in the background, its rc last in the log
    local n=$1
    shift
    (timeout 85 "$@" > $TD/$n.log 2>&1; echo "rc=$?" >> $TD/$n.log) &
    pids="$pids $!"
}
pids=""
for t in $B/tests/test_*_gpu; do side $(basename $t) $t; done
side nopool_gmg_quick env HOMG_CUDA_POOL=0 $B/tests/test_gmg_gpu quick
side memcheck compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick
wait $pids
{
    echo "=== tests done (side by side); left $(budget_left)s"
    for f in $TD/*.log; do
        echo "-- $(basename $f .log): $(tail -1 $f) $(grep -cE 'FAILED|\[  FAILED' $f) failed-lines; $(grep -E 'PASSED|ERROR SUMMARY' $f | tail -1)"
    done
} >> "$L"
timed 15 amg_main $C/bench_amg_main --sizes 64 --reps 5 --no-pool
timed 15 amg_branch $B/bench/bench_amg --sizes 64 --reps 5 --no-pool
rounds main branch nopool benchpool
pack_logs tests -C /tmp pool_tests
finish "^-- |^\| (64|cube)"
echo "== table: set-up median (min) ms per run"
awk '/^=== / { lab = $2 " " $3 } /set-up: first create/ {
    m = "-"; n = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    print lab, m, n
}' "$L"
