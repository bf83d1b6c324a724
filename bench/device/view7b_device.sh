#!/bin/bash
# s9-view7's second check, for the lead (not run by s9-view7): the fix of a839c8c (the Vulkan device released with
# the last semaphore view).  From main's copy after `. .gl/gl-env.sh;` with carry [".carry-view7b", ".gl"]:
#   bash .carry-view7b/view7b_device.sh        (~60 s; binaries built from a839c8c's tree)
# Expected: test_view_gpu 9/9 with "0 view(s) fell back" (was 29), memcheck 0 errors, the matrix after sem and every
# with 0 probe fallbacks (were 14).  If so: `git cherry-pick a839c8c` (or revert its revert).
tar xJf .carry-view7b/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH
B=.devbuild; L=$OUT/view7b.log; S=""
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "build $(cat .devlibs/build-id)"; } > $L
timeout 45 $B/tests/test_view_gpu > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
S="$S\ntest_view_gpu rc=$rc $(grep -E '^\[  (PASSED|FAILED) ' /tmp/o.log | tail -1) $(grep 'fell back to the copy' /tmp/o.log | tail -1)"
timeout 30 compute-sanitizer --tool memcheck --error-exitcode 99 $B/tests/test_view_gpu quick > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
S="$S\nmemcheck quick rc=$rc $(grep 'ERROR SUMMARY' /tmp/o.log | tail -1)"
for h in sem every; do
  timeout 15 $B/tests/test_view_gpu matrix "" $h > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
  S="$S\nmatrix after $h rc=$rc $(grep '^MATRIX' /tmp/o.log | tail -1)"
done
timeout 20 $B/demo/heat --keys p --latency 1 --size 1024 --frames 300 --vsync 0 --stats --backend cuda > /tmp/o.log 2>&1; rc=$?; cat /tmp/o.log >> $L
S="$S\nheat p1 rc=$rc $(grep '^stats' /tmp/o.log | grep -o 'frame mean.*')"
printf "%b\n" "$S" | tee -a $L
