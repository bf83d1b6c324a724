#!/bin/sh
# s9-gmg8: the GPU check of the branch in one call (H100, timeout 150 s): 27381b4 (SPAI-1 long rows by ballots,
# cherry-picked), smaller FEM patches on the coarse levels, the mask counts read after the partition, large blocks
# kept and reused by the arena within a create.  Tests + memcheck + racecheck (SPAI-1), then bench_gmg of main
# (bench_gmg_main: /work/main's build of 0d81453) and of the branch interleaved (order alternating), then ncu of the
# SPAI-1 kernels (branch) and, time left, the kernel durations of one branch create.  One log into $OUT.
# Run: tar xJf .carry-gmg8/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg8/gmg8_device.sh
L=$OUT/gmg8.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((140 - ($(date +%s) - T0))); }
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu 2>&1 | grep -E "SPAI-1|PASSED|FAILED|OK|ERROR|Error|iterations" | tail -30
echo "== test_fem_gpu"; timeout 30 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|differ" | tail -12
echo "== memcheck test_gmg_gpu quick left $(left)s"; timeout 40 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
echo "== memcheck test_fem_gpu quick left $(left)s"; timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
echo "== racecheck test_gmg_gpu quick (SPAI-1 kernels) left $(left)s"
timeout 25 compute-sanitizer --tool racecheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard|PASSED|FAILED|rror" | tail -6
for k in 1 2 3 4 5 6; do
[ $(left) -lt 30 ] && { echo "== round $k skipped: left $(left)s"; break; }
if [ $((k % 2)) = 1 ]; then order="bench_gmg_main bench_gmg"; else order="bench_gmg bench_gmg_main"; fi
for b in $order; do
echo "== [$k] $b $A"; timeout 10 $B/bench/$b $A --out /tmp/$b.md; echo "rc=$?"
done
done
echo "== ncu SPAI-1 rows bench_gmg left $(left)s"
t=$(left); [ $t -gt 20 ] && t=20
[ $t -gt 5 ] && timeout $t ncu --clock-control none -k regex:spai1_warp --launch-count 8 --section LaunchStats --section SpeedOfLight \
  $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_b.md > /tmp/ncu_spai.txt 2>&1; echo "rc=$?"
grep -E "spai1_warp|Duration" /tmp/ncu_spai.txt | head -24
echo "== ncu kernel durations of one create (branch) left $(left)s"
t=$(left); [ $t -gt 45 ] && t=45
[ $t -gt 10 ] && timeout $t ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 2500 $B/bench/bench_gmg \
  --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_all.md > $OUT/ncu_create.csv 2>&1; echo "rc=$?"
wc -l $OUT/ncu_create.csv 2>/dev/null
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|first create|^\| cube|set-up phases|of FEM|of smoother|arena|ERROR SUMMARY|RACECHECK|SPAI-1 (random|short)|spai1_warp|Duration" $L | tail -150
