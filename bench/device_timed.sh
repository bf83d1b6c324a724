# device_timed.sh -- sourced by the GPU-machine scripts (gen*_device.sh): $B the packed
# build, $MAIN an older build's binaries (optional), the log $OUT/$NAME.log, and
# `timed LIMIT TAG COMMAND...`, which runs COMMAND into the log within LIMIT seconds and
# before the script's BUDGET (seconds from the start), collecting a line per run in $S.
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
