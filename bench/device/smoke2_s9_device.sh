#!/bin/bash
# s9-smoke2's one device call: tests, memcheck, bench_fluid --demo x3 interleaved with main's, ncu per-kernel tables.
B=.devbuild; M=.devbuild/bench/bench_fluid_main; L=$OUT/smoke2.log; mkdir -p $OUT
T0=$(date +%s)
log() { echo "=== $* (t=$(( $(date +%s) - T0 ))s)" | tee -a $L; }
END=$((T0 + ${BUDGET:-182}))
left() { local l=$(( END - $(date +%s) )); [ $l -lt $1 ] && echo $l || echo $1; }
step() { local lim=$(left $1); shift; [ $lim -le 2 ] && { echo "SKIPPED (budget): $*" | tee -a $L; return; }; log "$*"; timeout $lim "$@" >> $L 2>&1; echo "rc=$? : $*" | tee -a $L; }
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm --format=csv; echo "build $(cat .devlibs/build-id), main 12394eb"; } >> $L 2>&1
step 30 $B/tests/test_fluid_gpu
step 50 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 $B/tests/test_fluid_gpu
for r in 1 2 3; do
  log "MAIN run $r"; step 25 $M --demo --size 1024
  if [ $r = 1 ]; then V=01234567; else V=01; fi
  log "MINE run $r"; step 40 $B/bench/bench_fluid --demo --size 1024 --variants $V
  log "MINE two-pass off run $r"; step 20 env HOMG_GEN_TWO_PASS_LEVELS=0 $B/bench/bench_fluid --demo --size 1024 --variants 01
done
NCU="ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-skip 3000 --launch-count 600"
prof() { local tag=$1 lim=$(left $2); shift 2; [ $lim -le 5 ] && { echo "SKIPPED (budget): ncu $tag" | tee -a $L; return; }
  log "ncu $tag"; timeout $lim env "$@" > /dev/null 2>>$L; echo "rc=$? : ncu $tag" | tee -a $L
  echo "## ncu $tag" >> $L; python3 .carry-smoke2/ncu_table.py $OUT/ncu_$tag.csv >> $L 2>&1; }
prof mine 40 $NCU --log-file $OUT/ncu_mine.csv $B/bench/bench_fluid --demo --size 1024 --variants 0
prof main 40 $NCU --log-file $OUT/ncu_main.csv $M --demo --size 1024
step 15 $B/bench/bench_fluid --demo --size 1024 --range-given --variants 01
prof mine_tp0 30 HOMG_GEN_TWO_PASS_LEVELS=0 $NCU --log-file $OUT/ncu_mine_tp0.csv $B/bench/bench_fluid --demo --size 1024 --variants 0
log done
grep -E "^\| 1024|rc=|PASSED|FAILED|ERROR SUMMARY|===|^## |^frames " $L | tail -120
