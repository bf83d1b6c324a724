#!/bin/bash
# fluid_device.sh -- the fluid session's GPU-machine run (after tools/dev/device-prep.sh
# with DEV_FILES naming these binaries; carry .carry-dev and .gl): bench_fluid at one
# size, the fluid GPU test, and every demo headless through EGL, with and without
# `--backend cuda --vsync 0`, each under a timeout, with --trace (progress on stderr)
# and --stats (median frame, solve and view-write times).
#   bench/fluid_device.sh [bench|demos|mesh]...    logs in $OUT, a summary last
set -u
tar xJf .carry-dev/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
. ./.gl/gl-env.sh
B=.devbuild
OUT=${OUT:-/tmp/homg-out}
mkdir -p "$OUT"
summary=""
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > "$OUT/gpu.txt" 2>&1
for step in ${*:-bench demos}; do
case $step in
bench)
    timeout 60 $B/tests/test_fluid_gpu > "$OUT/test_fluid_gpu.log" 2>&1
    summary="$summary\ntest_fluid_gpu: rc=$? $(tail -1 "$OUT/test_fluid_gpu.log")"
    timeout 60 $B/bench/bench_fluid --size ${FLUID_SIZE:-1024} --reps 21 > "$OUT/bench_fluid.log" 2>&1
    summary="$summary\nbench_fluid: rc=$?"
    ;;
demos)
    for dm in ${DEMOS:-"heat:--frames 300" "smoke:--frames 300" "clone:--frames 120" "mesh:--size 4 --frames 60"}; do
        name=${dm%%:*}; args=${dm#*:}
        for flags in "" "--backend cuda --vsync 0"; do
            tag=$name$( [ -n "$flags" ] && echo -cuda )
            t0=$(date +%s%N)
            timeout ${DEMO_TIMEOUT:-20} $B/demo/$name $args $flags --trace --stats --png "$OUT/$tag.png" \
                > "$OUT/$tag.log" 2> "$OUT/$tag.trace"; rc=$?
            t=$(( ($(date +%s%N) - t0) / 1000000 ))
            summary="$summary\n$tag: rc=$rc ${t} ms; last trace: $(tail -1 "$OUT/$tag.trace" | cut -c1-90)"
            summary="$summary\n   $(grep '^stats' "$OUT/$tag.log" | cut -c1-400)"
        done
    done
    ;;
esac
done
cat "$OUT/bench_fluid.log" 2>/dev/null | tail -16
printf "%b\n" "----- summary$summary"
