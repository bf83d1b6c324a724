#!/bin/bash
# s9-view7's second check, for the lead (not run by s9-view7): the fix of a839c8c (the Vulkan device released with
# the last semaphore view).  From main's copy after `. .gl/gl-env.sh;` with carry [".carry-view7b", ".gl"]
# (.carry-view7b: dev.tar.xz, lib.sh and this script):
#   OUT=$OUT bash .carry-view7b/view7b_device.sh        (~60 s; binaries built from a839c8c's tree)
# Expected: test_view_gpu 9/9 with "0 view(s) fell back" (was 29), memcheck 0 errors, the matrix after sem and every
# with 0 probe fallbacks (were 14).  If so: `git cherry-pick a839c8c` (or revert its revert).
NAME=view7b BUDGET=${BUDGET:-100}
. "$(dirname "$0")/lib.sh"
carry_unpack
timed 45 test_view_gpu $B/tests/test_view_gpu
sanitize 30 memcheck $B/tests/test_view_gpu quick
for h in sem every; do timed 15 "matrix after $h" $B/tests/test_view_gpu matrix "" $h; done
timed 20 heat_p1 $B/demo/heat --keys p --latency 1 --size 1024 --frames 300 --vsync 0 --stats --backend cuda
finish "fell back to the copy|^MATRIX|^stats"
