#!/bin/sh
# s9-gmg7: the GPU check of the branch in one call: SPAI-1 short rows by half-warps (3e1ee7b, cherry-picked), the
# contraction check by 12 sweep pairs' Ritz value (lib/gmg/ritz.c) instead of 24 power steps, per-level FEM trace.
# Tests + memcheck + racecheck of the SPAI-1 kernels, then bench_gmg of main (bench_gmg_main: /work/main's build of
# 1fe82e0, GMG/FEM/core code identical to 12394eb) and of the branch interleaved (order alternating), square once
# each, then ncu of the SPAI-1 kernels (both) and every kernel's duration in one branch create (summed by name).
# One log and one tgz into $OUT.
# Run: tar xJf .carry-gmg7/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg7/gmg7_device.sh
L=$OUT/gmg7.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((180 - ($(date +%s) - T0))); }
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu 2>&1 | grep -E "SPAI-1|PASSED|FAILED|OK|ERROR|Error|iterations" | tail -30; echo "rc=$?"
echo "== test_fem_gpu"; timeout 30 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|differ" | tail -12; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 40 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
echo "== memcheck test_fem_gpu quick"; timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
for k in 1 2 3 4 5 6; do
if [ $((k % 2)) = 1 ]; then order="bench_gmg_main bench_gmg"; else order="bench_gmg bench_gmg_main"; fi
for b in $order; do
echo "== [$k] $b $A"; timeout 10 $B/bench/$b $A --out /tmp/$b.md; echo "rc=$?"
done
done
for b in bench_gmg_main bench_gmg; do
echo "== [sq] $b --fast --no-rcm --dim 2 --setup-reps 7"; timeout 10 $B/bench/$b --fast --no-rcm --dim 2 --setup-reps 7 --out /tmp/sq_$b.md; echo "rc=$?"
done
echo "== racecheck test_gmg_gpu quick (SPAI-1 kernels) left $(left)s"
timeout 30 compute-sanitizer --tool racecheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard|PASSED|FAILED|rror" | tail -6
for b in bench_gmg_main bench_gmg; do
echo "== ncu SPAI-1 rows $b left $(left)s"
timeout 25 ncu --clock-control none -k regex:spai1_warp --launch-count 8 --section LaunchStats --section Occupancy \
  --section SpeedOfLight $B/bench/$b --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_$b.md \
  > /tmp/ncu_spai_$b.txt 2>&1; echo "rc=$?"
grep -E "spai1_warp|Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Thr|Memory Thr" /tmp/ncu_spai_$b.txt | head -40
done
echo "== ncu kernel durations of one create (branch) left $(left)s"
t=$(left); [ $t -gt 60 ] && t=60
timeout $t ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 2500 $B/bench/bench_gmg \
  --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_all.md > /tmp/ncu_create.csv 2>&1; echo "rc=$?"
wc -l /tmp/ncu_create.csv
echo "== end $(date -u)"
} > $L 2>&1
tar czf $OUT/ncu.tgz -C /tmp ncu_spai_bench_gmg_main.txt ncu_spai_bench_gmg.txt ncu_create.csv 2>/dev/null
grep -E "^==|rc=|PASSED|FAILED|first create|^\| (square|cube)|set-up phases|of FEM|of smoother|ERROR SUMMARY|RACECHECK|SPAI-1 (random|short)" $L | tail -150
