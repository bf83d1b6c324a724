#!/bin/bash
# device-check.sh -- run on the GPU machine (after tools/dev/device-prep.sh here,
# with carry: [".carry-dev"], unpacked first with `tar xJf .carry-dev/dev.tar.xz`): every test program, compute-sanitizer
# (memcheck, racecheck) on the small GPU tests, then the benchmarks.  Logs go to
# $OUT; the last lines are a short summary.
#   tools/dev/device-check.sh [tests|sanitize|demos|bench]...   (default: all four)
# Environment: TEST_TIMEOUT, REF_TIMEOUT (test_grid_ref on cuda), SANITIZE_TESTS, SANITIZE_TOOLS
# (default "memcheck racecheck"), SANITIZE_TIMEOUT, BENCHES, BENCH_TIMEOUT.
set -u
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
B=.devbuild
[ -d "$B" ] || B=build
# test_tool_solve runs the tool of its build (build-dev/homg from tools/dev/device-prep.sh)
for d in build build-dev; do [ -e $d/homg ] || { mkdir -p $d && ln -s "../$B/homg" $d/homg; }; done
OUT=${OUT:-/tmp/homg-out}
mkdir -p "$OUT"
steps=${*:-tests sanitize demos bench}
summary=""
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$OUT/gpu.txt"

for step in $steps; do
case $step in
tests)
    export HOMG_DEMO_DIR="$PWD/$B/demo" # test_view_demos runs the demos of this pack, not build/demo
    pass=0; fail=0; skip=0; failed=""
    for t in $B/tests/test_*; do
        echo "=== $t" >> "$OUT/tests.log"
        timeout "${TEST_TIMEOUT:-300}" "$t" >> "$OUT/tests.log" 2>&1; rc=$?
        case $rc in 0) pass=$((pass+1));; 77) skip=$((skip+1));; *) fail=$((fail+1)); failed="$failed $(basename $t)($rc)";; esac
    done
    summary="$summary\ntests: $pass passed, $skip skipped, $fail failed$failed"
    # the general grid against its reference (tests/test_grid_ref.c) on the CUDA backend
    HOMG_TEST_BACKEND=cuda timeout "${REF_TIMEOUT:-500}" $B/tests/test_grid_ref > "$OUT/grid-ref-cuda.log" 2>&1
    summary="$summary\ntest_grid_ref on cuda: rc=$? $(grep -c 'FAIL ' "$OUT/grid-ref-cuda.log") FAIL lines"
    # the tool's GPU path, on its default problem
    $B/homg solve --backend cuda --png "$OUT/solution.png" > "$OUT/tool-solve.log" 2>&1
    summary="$summary\nhomg solve --backend cuda: rc=$? $(tail -1 "$OUT/tool-solve.log")"
    ;;
sanitize)
    for tool in ${SANITIZE_TOOLS:-memcheck racecheck}; do
        for t in ${SANITIZE_TESTS:-$B/tests/test_*_gpu}; do
            log="$OUT/sanitize-$tool.log"
            echo "=== $tool $t" >> "$log"
            timeout "${SANITIZE_TIMEOUT:-200}" compute-sanitizer --tool "$tool" --error-exitcode 99 "$t" quick >> "$log" 2>&1; rc=$?
            summary="$summary\n$tool $(basename $t): rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
        done
    done
    ;;
demos)
    # headless through EGL on the GPU (source .gl/gl-env.sh first): the last frame as PNG and the
    # demo's own frame/solver times
    for dm in "heat --size 1024 --frames 300" "smoke --size 1024 --frames 300" "mesh --size 4 --frames 60" \
              "clone --frames 120"; do
        name=${dm%% *}
        [ -x $B/demo/$name ] || continue
        # --trace: progress on stderr (and stdout is line-buffered), so a run cut off by the timeout
        # shows where it stopped.  (At 05:49 heat and smoke, run with --backend cuda --vsync 0, were
        # cut off with only their first line in the log; at 07:12 every demo ran with and without
        # those flags, bench/results/h100_fluid.md.)
        timeout 200 $B/demo/$dm --backend cuda --vsync 0 --stats --trace --png "$OUT/demo-$name.png" \
            > "$OUT/demo-$name.log" 2> "$OUT/demo-$name.trace"; rc=$?
        summary="$summary\ndemo $name: rc=$rc $(tail -1 "$OUT/demo-$name.log")"
    done
    ;;
bench)
    # BENCHES="bench_fluid bench_grid:--general ..." picks benchmarks (name:args), BENCH_TIMEOUT
    # limits each (default 500 s)
    list=${BENCHES:-"bench_grid bench_fft bench_fem bench_amg bench_fluid bench_gmg bench_image bench_grid:--general bench_amg:--family"}
    for entry in $list; do
        b=${entry%%:*}; args=""
        [ "$b" != "$entry" ] && args=$(echo "${entry#*:}" | tr ',' ' ')
        log="$OUT/$b$(echo "$args" | tr -d ' -' | sed 's/^./_&/').log"
        # the table also into $OUT beside the log, from those that print it and take --out
        # (no benchmark writes a file unless --out names one)
        out=""
        case $b in bench_amg | bench_fem | bench_fft | bench_fluid | bench_gmg | bench_grid | bench_image | bench_view)
            out="--out ${log%.log}.md" ;;
        esac
        timeout "${BENCH_TIMEOUT:-500}" $B/bench/$b $args $out > "$log" 2>&1; rc=$?
        summary="$summary\n$b $args: rc=$rc"
    done
    ;;
esac
done
echo "----- last lines of the logs"
for f in "$OUT"/*.log; do echo "== $f"; tail -n 40 "$f"; done
printf "%b\n" "----- summary$summary"
