#!/bin/bash
# s6-view2's GPU run: test_view_gpu (the SHARED ring), bench_view D (the heat loop taken apart),
# the heat and smoke demos at 1024^2 with each view setting, memcheck on test_view_gpu quick, and
# test_view_demos (demos through EGL, CPU backend, against tests/ref).  Log: $OUT/view2.log;
# the summary is printed last.
. ./.gl/gl-env.sh
export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH
B=.devbuild; L=$OUT/view2.log; S=""
t0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; cat .devlibs/build-id 2>/dev/null; } > $L
el() { echo $(( $(date +%s) - t0 )); }
echo "=== test_view_gpu" >> $L
timeout 50 $B/tests/test_view_gpu >> $L 2>&1; rc=$?
S="$S\ntest_view_gpu rc=$rc $(grep -E '^\[  (PASSED|FAILED) ' $L | tail -1) at $(el) s"
echo "=== bench_view D" >> $L
timeout 40 $B/bench/bench_view --sections D --out $OUT/view2_D.md >> $L 2>&1; S="$S\nbench_view D rc=$? at $(el) s"
for dm in "heat|" "heat|--path map --latency 0" "heat|--path shared --latency 0" \
          "heat|--path shared --latency 0|HOMG_DEMO_TIMER_LAG=1" "heat|--path map --latency 0|HOMG_DEMO_TIMER_LAG=1" \
          "smoke|" "smoke|--path map --latency 0"; do
  IFS='|' read -r name args envs <<< "$dm"
  echo "=== $name $args $envs" >> $L
  env $envs timeout 10 $B/demo/$name --size 1024 --frames 300 --backend cuda --vsync 0 --stats $args --png $OUT/$name.png > $OUT/d.log 2>&1; rc=$?
  cat $OUT/d.log >> $L
  S="$S\n$name [$args $envs] rc=$rc $(grep -o 'view path [a-z]*' $OUT/d.log | head -1); $(grep -o 'frame [0-9.]* ms wall ([0-9.]*), [0-9]* frames/s; solve [0-9.]* ms device ([0-9.]*); view write [0-9.]* ms device' $OUT/d.log)"
done
rm -f $OUT/d.log
echo "=== memcheck test_view_gpu quick (at $(el) s)" >> $L
timeout 30 compute-sanitizer --tool memcheck --error-exitcode 99 $B/tests/test_view_gpu quick >> $L 2>&1; rc=$?
S="$S\nmemcheck test_view_gpu quick rc=$rc $(grep -E 'ERROR SUMMARY' $L | tail -1) at $(el) s"
echo "=== test_view_demos (HOMG_DEMO_DIR=$B/demo)" >> $L
HOMG_DEMO_DIR=$B/demo timeout 25 $B/tests/test_view_demos >> $L 2>&1; rc=$?
S="$S\ntest_view_demos rc=$rc $(sed -n '/=== test_view_demos/,$p' $L | grep -E '^\[  (PASSED|FAILED) |^SKIP|outliers' | tail -2 | tr '\n' ' ') at $(el) s"
printf "%b\n" "$S" | tee -a $L
grep -A16 "pipelined loop taken apart" $OUT/view2_D.md 2>/dev/null | tail -14
