#!/bin/bash
# s6-view2's second GPU run: what in the demo's frame makes it slower than bench_view's loop
# (heat 1024^2 with parts of the frame left out, HOMG_DEMO_SKIP), the ring against map in each.
. ./.gl/gl-env.sh
export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH
B=.devbuild; L=$OUT/view2b.log; S=""
t0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; cat .devlibs/build-id 2>/dev/null; } > $L
for dm in "heat||" "heat||query" "heat||overlay" "heat||clear" "heat||timers" "heat||flush" "heat||query,overlay,clear,timers" \
          "heat|--path map --latency 0|" "heat|--path map --latency 0|query,overlay,clear,timers" \
          "heat|--path shared --latency 0|query,overlay,clear,timers" "heat||query,overlay,clear,timers,flush" \
          "smoke||" "smoke||query,overlay,clear,timers" "smoke|--path map --latency 0|query,overlay,clear,timers" \
          "heat||query,timers" "heat||overlay,clear"; do
  IFS='|' read -r name args skip <<< "$dm"
  echo "=== $name $args HOMG_DEMO_SKIP=$skip" >> $L
  HOMG_DEMO_SKIP=$skip timeout 10 $B/demo/$name --size 1024 --frames 400 --backend cuda --vsync 0 --stats $args --png $OUT/$name.png > $OUT/d.log 2>&1; rc=$?
  cat $OUT/d.log >> $L
  S="$S\n$name [$args skip=$skip] rc=$rc $(grep -o 'view path [a-z]*' $OUT/d.log | head -1); $(grep -o 'frame [0-9.]* ms wall ([0-9.]*)' $OUT/d.log)"
done
rm -f $OUT/d.log
echo "=== test_view_gpu quick" >> $L
timeout 20 $B/tests/test_view_gpu quick >> $L 2>&1; S="$S\ntest_view_gpu quick rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $L | tail -1)"
echo "=== bench_view D" >> $L
timeout 40 $B/bench/bench_view --sections D --out $OUT/view2b_D.md >> $L 2>&1; S="$S\nbench_view D rc=$? at $(( $(date +%s) - t0 )) s"
printf "%b\n" "$S" | tee -a $L
grep -A16 "pipelined loop taken apart" $OUT/view2b_D.md 2>/dev/null | tail -12
