#!/bin/bash
# s9-view7's one device call (run from the repository root of main's copy, after `. .gl/gl-env.sh`):
# test_view_gpu (full), memcheck on test_view_gpu quick, bench_view --sections D, the heat demo pipelined,
# the probe-failure bisection (test_view_gpu matrix "" HISTORY), bench D again.  One log: $OUT/view7.log.
tar xJf .carry-view7/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH
B=.devbuild; L=$OUT/view7.log; S=""; t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
before() { [ $(( $(date +%s) - t0 )) -lt $1 ] || { S="$S\nskipped (out of time): $2"; false; }; }
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "build $(cat .devlibs/build-id)"; } > $L
echo "=== test_view_gpu (full)" >> $L
timeout 45 $B/tests/test_view_gpu > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
S="$S\ntest_view_gpu rc=$rc $(grep -E '^\[  (PASSED|FAILED) ' /tmp/o.log | tail -1) $(grep -E 'fell back to the copy' /tmp/o.log | tail -1 | cut -c1-120) $(el)"
echo "=== memcheck test_view_gpu quick" >> $L
timeout 30 compute-sanitizer --tool memcheck --error-exitcode 99 $B/tests/test_view_gpu quick > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
S="$S\nmemcheck quick rc=$rc $(grep -E 'ERROR SUMMARY' /tmp/o.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' /tmp/o.log | tail -1) $(el)"
bench() {
  echo "=== bench_view --sections D ($1)" >> $L
  timeout 30 $B/bench/bench_view --sections D --out /tmp/d-$1.md > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
  S="$S\nbench $1 rc=$rc $(el)"
  for row in "nothing shared)" "slot's texture (no copy)" "AHEAD=0 (no pace" "10 slots" "12 slots" "16 slots" "POLL" "paced 1" "AHEAD=1" "(traced)" "again"; do
    S="$S\n$(grep -F "$row" /tmp/o.log | grep '^|' | cut -d'|' -f2,3,11-16 | sed "s/^/  $1:/")"
  done
}
bench run1
for dm in "p1 --keys p --latency 1" "p1-s16 --keys p --latency 1 HOMG_VIEW_RING_SLOTS=16" "p1-s12 --keys p --latency 1 HOMG_VIEW_RING_SLOTS=12" "p1-poll2 --keys p --latency 1 HOMG_VIEW_RING_POLL=2" "p0 --keys p --latency 0"; do
  set -- $dm; name=$1; shift; args=""; envs=""
  for a in "$@"; do case $a in HOMG_*) envs="$envs $a";; *) args="$args $a";; esac; done
  echo "=== heat $name ($envs) $args" >> $L
  env $envs timeout 20 $B/demo/heat --size 1024 --frames 300 --vsync 0 --stats --backend cuda $args --png /tmp/heat-$name.png > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
  S="$S\nheat $name rc=$rc $(grep '^stats' /tmp/o.log | sed 's/.*frames (p90): //' | cut -c1-60) $(grep '^stats' /tmp/o.log | grep -o 'frame mean.*') $(el)"
done
for h in sem vkdev vksem semnosig semgone vkgone; do
  before 118 "matrix $h" || continue
  echo "=== matrix '' $h" >> $L
  timeout 15 $B/tests/test_view_gpu matrix "" $h > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
  S="$S\nmatrix after $h rc=$rc $(grep '^MATRIX' /tmp/o.log | tail -1) $(el)"
done
before 105 "bench run2" && bench run2
echo "=== summary" >> $L
printf "%b\n" "$S" | tee -a $L
