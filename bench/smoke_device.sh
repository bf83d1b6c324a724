#!/bin/bash
# smoke_device.sh -- s4-smoke's GPU run (carry .carry-smoke with device-prep.sh's pack,
# main's smoke demo as smoke_base, and this script; and .gl):
#   bash .carry-smoke/smoke_device.sh
# test_fluid_gpu (+ memcheck), bench_fluid --demo and its 1024^2 table, the smoke demo
# (this branch and main's binary, twice each), heat with and without waits, bench_view D and E.
set -u
C=.carry-smoke
tar xJf $C/dev.tar.xz
export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
. ./.gl/gl-env.sh > /dev/null 2>&1
B=.devbuild
L=$OUT/logs; mkdir -p $L
deadline=$(($(date +%s) + ${BUDGET:-135}))
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $S; date -u >> $S; cat .devlibs/build-id >> $S
t() { # t LIMIT TAG CMD...
  local lim=$1 tag=$2; shift 2; local left=$((deadline - $(date +%s))); [ $left -lt $lim ] && lim=$left
  [ $lim -lt 3 ] && { echo "$tag: not run (budget)" >> $S; return; }
  local t0=$(date +%s%N); timeout $lim "$@" > $L/$tag.log 2>&1; local rc=$?
  echo "$tag: rc=$rc $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> $S
  grep -h '^stats\|frames on\|ERROR SUMMARY\|wall step\|PASSED\|FAILED' $L/$tag.log | cut -c1-400 >> $S
}
t 25 test_fluid_gpu $B/tests/test_fluid_gpu
t 40 memcheck compute-sanitizer --tool memcheck $B/tests/test_fluid_gpu
t 30 bench_fluid_demo $B/bench/bench_fluid --demo --size 1024 --out $OUT/fluid_demo.md
cat $OUT/fluid_demo.md >> $S
for run in 1 2; do
t 12 smoke-main$run $C/smoke_base --frames 300 --vsync 0 --stats --png $L/smoke-main.png
t 12 smoke-new$run $B/demo/smoke --frames 300 --vsync 0 --stats --png $L/smoke-new.png
done
t 12 heat $B/demo/heat --frames 300 --vsync 0 --stats --png $L/heat.png
t 12 heat-p $B/demo/heat --frames 300 --vsync 0 --stats --keys p --png $L/heat-p.png
t 30 bench_fluid $B/bench/bench_fluid --size 1024 --reps 21 --out $OUT/fluid_1024.md
cat $OUT/fluid_1024.md >> $S
cat $S
