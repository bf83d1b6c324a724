#!/bin/bash
# device_timed.sh -- the GPU machine's timed runner, two ways:
#  - run: bash bench/device_timed.sh NAME "LIMIT TAG COMMAND..." ...  (after unpacking
#    tools/dev/device-prep.sh's pack): each quoted step runs in turn ($B, $MAIN and $OUT
#    expand in it; `env VAR=x` works), e.g.
#      bash bench/device_timed.sh fluid "12 fluid_gpu \$B/tests/test_fluid_gpu" \
#          "30 bench_fluid \$B/bench/bench_fluid --size 1024 --reps 21"
#    The log's table rows, test results, sanitizer summaries and the steps' rc lines come
#    last on stdout (KEEP: another egrep pattern).  .devlibs and .gl/gl-env.sh are used if there.
#  - sourced by a per-area script (cube_device.sh): $B the packed build, $MAIN an older
#    build's binaries (optional), the log $OUT/$NAME.log, and `timed LIMIT TAG COMMAND...`,
#    which runs COMMAND into the log within LIMIT seconds and before the script's BUDGET
#    (seconds from the start), collecting a line per run in $S.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    NAME=${1:?"usage: bash bench/device_timed.sh NAME \"LIMIT TAG COMMAND...\" ..."}
    shift
    DEFAULT_BUDGET=135
    [ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
    [ -f .gl/gl-env.sh ] && . ./.gl/gl-env.sh > /dev/null 2>&1
    run_steps=1
fi
B=${B:-.devbuild}
MAIN=${MAIN:-}
OUT=${OUT:-/tmp/homg-out}
L=$OUT/$NAME.log
mkdir -p "$OUT"
: > "$L"
deadline=$(($(date +%s) + ${BUDGET:-$DEFAULT_BUDGET}))
S=""
timed() { # LIMIT TAG COMMAND...
    local lim=$1 tag=$2 left t0 rc
    shift 2
    left=$((deadline - $(date +%s)))
    [ "$left" -lt "$lim" ] && lim=$left
    if [ "$lim" -lt 3 ]; then S="$S\n$tag: not run (budget)"; return; fi
    t0=$(date +%s%N)
    echo "=== $tag: $*" >> "$L"
    timeout "$lim" "$@" >> "$L" 2>&1
    rc=$?
    S="$S\n$tag: rc=$rc $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$L" 2>&1
date -u >> "$L"
if [ -n "${run_steps:-}" ]; then
    cat .devlibs/build-id >> "$L" 2>/dev/null
    for step in "$@"; do eval "timed $step"; done
    echo "=== done $(date -u)" >> "$L"
    printf "%b\n" "$S" >> "$L"
    K="^\| (1024|2D|3D|Neumann|square|cube)|^=== |^stats|frames on|ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED"
    grep -E "${KEEP:-$K|differ|mismatch|rc=}" "$L" | grep -v "^=== done" | cut -c1-200 | tail -c 11000
fi
