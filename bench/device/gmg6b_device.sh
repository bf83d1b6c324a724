#!/bin/sh
# s8-gmg6, second kernel (3e1ee7b: SPAI-1 short rows by half-warps, two rows a warp), NOT yet run when written: its
# GPU check in one call.  Binaries (packed by gmg6 with tools/dev/device-prep.sh, build-id = the branch head):
# bench_gmg = the half-warp kernel, bench_gmg_staged = 3ad01b5 (measured 23:58, one row a warp), bench_gmg_main =
# main d6c1827's kernels/gmg/gmg.cu and gmg.c.  Tests + memcheck + racecheck, 4 interleaved rounds of the three, ncu.
# Run: tar xJf .carry-gmg6/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg6/gmg6b_device.sh
L=$OUT/gmg6b.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu 2>&1 | grep -E "SPAI-1|PASSED|FAILED|OK|ERROR|Error" | tail -24
echo "== memcheck test_gmg_gpu quick"; timeout 40 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
echo "== racecheck test_gmg_gpu quick (SPAI-1 kernels)"
timeout 30 compute-sanitizer --tool racecheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 | grep -E "RACECHECK SUMMARY|hazard|PASSED|FAILED|rror" | tail -6
for k in 1 2 3 4; do
for b in bench_gmg_main bench_gmg_staged bench_gmg; do
echo "== [$k] $b $A"; timeout 8 $B/bench/$b $A --out /tmp/$b.md; echo "rc=$?"
done
done
echo "== ncu SPAI-1 rows bench_gmg (half-warps)"
timeout 30 ncu --clock-control none -k regex:spai1_warp --launch-count 4 --section LaunchStats --section Occupancy \
  --section SpeedOfLight $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu.md > /tmp/ncu_spai.txt 2>&1
grep -E "spai1_warp|Duration|Registers Per|Occupancy|Throughput" /tmp/ncu_spai.txt | head -30
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|median|^\| cube|^ +[0-3] +[0-9]+ +[0-9]+ |of smoother|ERROR SUMMARY|RACECHECK|SPAI-1 (random|short)|spai1_warp|Duration" $L | tail -150
