#!/bin/bash
# s9-smoke2's one device call: tests, memcheck, bench_fluid --demo x3 interleaved with main's, ncu per-kernel tables.
# /work/main/.carry-smoke2/ holds dev.tar.xz (main's bench_fluid packed in it as bench/bench_fluid_main),
# ncu_table.py, lib.sh and this script: OUT=$OUT bash .carry-smoke2/smoke2_s9_device.sh (carry [".carry-smoke2"]).
NAME=smoke2 BUDGET=${BUDGET:-182}
. "$(dirname "$0")/lib.sh"
carry_unpack
M=$B/bench/bench_fluid_main
nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm --format=csv >> "$L" 2>&1
timed 30 test_fluid_gpu $B/tests/test_fluid_gpu
SAN_FLAGS="--leak-check full" sanitize 50 memcheck $B/tests/test_fluid_gpu
for r in 1 2 3; do
    if [ $r = 1 ]; then V=01234567; else V=01; fi
    timed 25 "MAIN run $r" $M --demo --size 1024
    timed 40 "MINE run $r" $B/bench/bench_fluid --demo --size 1024 --variants $V
    timed 20 "MINE two-pass off run $r" env HOMG_GEN_TWO_PASS_LEVELS=0 $B/bench/bench_fluid --demo --size 1024 --variants 01
done
NCU="ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-skip 3000 --launch-count 600"
prof() { # tag, limit, then the profiled command (env assignments allowed): its per-kernel table into the log
    local tag=$1 lim=$2
    shift 2
    timed $lim "ncu $tag" env "$@"
    echo "## ncu $tag" >> "$L"
    python3 $C/ncu_table.py $OUT/ncu_$tag.csv >> "$L" 2>&1
}
prof mine 40 $NCU --log-file $OUT/ncu_mine.csv $B/bench/bench_fluid --demo --size 1024 --variants 0
prof main 40 $NCU --log-file $OUT/ncu_main.csv $M --demo --size 1024
timed 15 range_given $B/bench/bench_fluid --demo --size 1024 --range-given --variants 01
prof mine_tp0 30 HOMG_GEN_TWO_PASS_LEVELS=0 $NCU --log-file $OUT/ncu_mine_tp0.csv $B/bench/bench_fluid --demo --size 1024 --variants 0
finish "^\| 1024|^## |^frames "
