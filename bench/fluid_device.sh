#!/bin/bash
# fluid_device.sh -- the fluid session's GPU-machine run.  The device copies the
# session's main checkout, so tools/dev/device-prep.sh's pack and this script travel
# in an ignored folder of it (CARRY, default .carry-fluid; carry it and .gl):
#   bash .carry-fluid/fluid_device.sh [bench|demos]...
# bench_fluid at one size and test_fluid_gpu; every demo headless through EGL with
# and without `--backend cuda` / `--vsync 0`, each under a timeout, with --trace
# (progress on stderr) and --stats (median frame, solve and view-write times).
# Everything ends before BUDGET seconds; logs and pictures in $OUT/fluid.tar.gz,
# the summary in $OUT/summary.txt and last on stdout.
set -u
CARRY=${CARRY:-.carry-fluid}
tar xJf $CARRY/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
. ./.gl/gl-env.sh > /dev/null 2>&1
B=.devbuild
OUT=${OUT:-/tmp/homg-out}
L=$OUT/logs
mkdir -p "$L"
deadline=$(($(date +%s) + ${BUDGET:-165}))
summary=""
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > "$L/gpu.txt" 2>&1
summary="$(cat "$L/gpu.txt"); $(date -u)"
# timed LIMIT TAG COMMAND...: within the budget; rc and wall ms to the summary
timed() {
    local limit=$1 tag=$2 left t0 rc
    shift 2
    left=$((deadline - $(date +%s)))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -lt 3 ]; then summary="$summary\n$tag: not run (budget)"; return; fi
    t0=$(date +%s%N)
    timeout "$limit" "$@" > "$L/$tag.log" 2> "$L/$tag.trace"; rc=$?
    summary="$summary\n$tag: rc=$rc $(( ($(date +%s%N) - t0) / 1000000 )) ms (limit ${limit}s); stderr: $(tail -1 "$L/$tag.trace" | cut -c1-110)"
    grep -q '^stats' "$L/$tag.log" && summary="$summary\n   $(grep '^stats' "$L/$tag.log" | cut -c8-420)"
}
for step in ${*:-bench demos}; do
case $step in
bench)
    timed 30 test_fluid_gpu $B/tests/test_fluid_gpu
    timed 50 bench_fluid $B/bench/bench_fluid --size ${FLUID_SIZE:-1024} --reps 21
    ;;
demos)
    for dm in ${DEMOS:-"heat:--frames_300" "smoke:--frames_300" "clone:--frames_120" "mesh:--size_4_--frames_60"}; do
        name=${dm%%:*}; args=$(echo "${dm#*:}" | tr _ ' ')
        for flags in "" "--backend_cuda_--vsync_0" "--backend_cuda" "--vsync_0"; do
            tag=$name$(echo "$flags" | tr -d '_-' | sed 's/^./-&/')
            f=$(echo "$flags" | tr _ ' ')
            timed ${DEMO_TIMEOUT:-12} "$tag" $B/demo/$name $args $f --trace --stats --png "$L/$tag.png"
            [ "$name" = clone ] || [ "$name" = mesh ] && [ -n "$flags" ] && break
        done
    done
    ;;
esac
done
printf "%b\n" "$summary" > "$OUT/summary.txt"
cp "$L/bench_fluid.log" "$OUT/" 2>/dev/null
tar czf "$OUT/fluid.tar.gz" -C "$OUT" logs && rm -rf "$L"
cat "$OUT/bench_fluid.log" 2>/dev/null
printf "%b\n" "----- summary\n$summary"
