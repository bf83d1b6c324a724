# bench/device/lib.sh -- the blocks every bench/device/<name>_device.sh repeats, for bash.  A script
# sets NAME (its log is $OUT/$NAME.log) and sources this file from the repository root of main's copy
# on the GPU machine:  . "$(dirname "$0")/lib.sh"  (so it also works from a carry folder holding both).
# C (default .carry-$NAME) is the carried folder; DEV (default $C/dev.tar.xz) the pack of
# tools/dev/device-prep.sh.  Then bench/device_timed.sh is sourced: $B (the packed build), $L, $S and
#   timed LIMIT TAG COMMAND...   COMMAND into the log within LIMIT s and the budget (BUDGET, seconds)
# and these:
#   carry_unpack [TAR...]        the pack (.devbuild, .devlibs; LD_LIBRARY_PATH; its build-id into the log),
#                                then each TAR of $C unpacked into $C (main's baseline binaries);
#                                .gl/gl-env.sh sourced if there
#   sanitize LIMIT "TOOLS" BINARY [ARGS...]   compute-sanitizer --tool T (memcheck, racecheck, synccheck)
#                                for each of TOOLS as a timed step (SAN_FLAGS: more flags, e.g. --leak-check full)
#   budget_left                  seconds left of the budget
#   rounds VARIANT...            rounds (ROUND 1..8) of the script's run_variant over the VARIANTs, the order
#                                rotating, while 12 s of the budget are left (interleaved A/B timings)
#   pack_logs ARCHIVE PATH...    PATHs into $OUT/ARCHIVE.tar.xz (the tool returns at most 8 files)
#   finish [PATTERN]             the steps' rc lines into the log, then on stdout the log's lines that match
#                                PATTERN, the step headers, test and sanitizer summaries and rc lines
set -u
C=${C:-.carry-$NAME}
DEV=${DEV:-$C/dev.tar.xz}
DEFAULT_BUDGET=${BUDGET:-${DEFAULT_BUDGET:-120}}

carry_unpack() {
    local t
    rm -rf .devbuild .devlibs
    tar xJf "$DEV" || return 1
    for t in "$@"; do tar xJf "$C/$t" -C "$C" || return 1; done
    export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
    [ -f .gl/gl-env.sh ] && . ./.gl/gl-env.sh > /dev/null 2>&1
    echo "build $(cat .devlibs/build-id)" >> "$L"
}

. bench/device_timed.sh

sanitize() {
    local lim=$1 tools=$2 bin=$3 t
    shift 3
    for t in $tools; do
        timed "$lim" "${t}_$(basename "$bin")" compute-sanitizer --tool "$t" ${SAN_FLAGS:-} --error-exitcode 3 "$bin" "$@"
    done
}

budget_left() { echo $((deadline - $(date +%s))); }

rounds() {
    local v
    for ROUND in 1 2 3 4 5 6 7 8; do
        [ "$(budget_left)" -lt 12 ] && break
        for v in "$@"; do run_variant "$v"; done
        set -- "${@:2}" "$1"
    done
}

pack_logs() {
    local a=$1
    shift
    tar cf - "$@" 2> /dev/null | xz -T4 -6 > "$OUT/$a.tar.xz"
}

finish() {
    echo "=== done $(date -u)" >> "$L"
    printf "%b\n" "$S" >> "$L"
    grep -E "${1:+$1|}^=== |PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|differ|mismatch|rc=" "$L" | grep -v "^=== done" |
        cut -c1-"${WIDTH:-200}" | tail -c 11000
}
