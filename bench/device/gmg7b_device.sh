#!/bin/sh
# s9-gmg7, follow-up (27381b4: the SPAI-1 long-row instance by 32-row ballots), NOT yet run when written: its GPU
# check in one call.  Binaries packed in /work/main/.carry-gmg7b/dev.tar.xz (tools/dev/device-prep.sh, build-id =
# 70f5e86: 27381b4's code + this script): bench_gmg = the ballot kernel, bench_gmg_prev = 295a1c3 (the branch head measured at 02:54, a block per
# 4 rows).  Tests (test_spai1_random has rows of up to 50 entries: the long instance), memcheck + racecheck of
# test_gmg_gpu, 4 interleaved rounds of bench_gmg, ncu of the SPAI-1 kernels of both.
# Keep 27381b4 (cherry-pick onto the branch / main) only if the tests pass, racecheck shows 0 hazards and ncu shows
# the long-row launches at a few microseconds (0.108/0.085/0.072/0.055 ms on levels 0-3 before).
# Run: tar xJf .carry-gmg7b/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg7b/gmg7b_device.sh
L=$OUT/gmg7b.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu 2>&1 | grep -E "SPAI-1|PASSED|FAILED|OK|ERROR|Error" | tail -24; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 40 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
echo "== racecheck test_gmg_gpu quick (SPAI-1 kernels)"
timeout 30 compute-sanitizer --tool racecheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 | grep -E "RACECHECK SUMMARY|hazard|PASSED|FAILED|rror" | tail -6
for k in 1 2 3 4; do
if [ $((k % 2)) = 1 ]; then order="bench_gmg_prev bench_gmg"; else order="bench_gmg bench_gmg_prev"; fi
for b in $order; do
echo "== [$k] $b $A"; timeout 10 $B/bench/$b $A --out /tmp/$b.md; echo "rc=$?"
done
done
for b in bench_gmg_prev bench_gmg; do
echo "== ncu SPAI-1 rows $b"
timeout 25 ncu --clock-control none -k regex:spai1_warp --launch-count 8 --section LaunchStats --section SpeedOfLight \
  $B/bench/$b --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_$b.md > /tmp/ncu_spai_$b.txt 2>&1; echo "rc=$?"
grep -E "spai1_warp|Duration" /tmp/ncu_spai_$b.txt | head -24
done
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|median|^\| cube|of smoother|ERROR SUMMARY|RACECHECK|SPAI-1 (random|short)|spai1_warp|Duration" $L | tail -120
