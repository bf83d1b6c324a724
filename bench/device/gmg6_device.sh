#!/bin/sh
# s8-gmg6: the GPU check of the branch (SPAI-1 rows: neighbour rows staged in shared memory, parallel L^T solve and
# store): tests + memcheck + racecheck of the SPAI-1 kernels, then bench_gmg of main d6c1827 (bench_gmg_main: the
# branch's objects with main's kernels/gmg/gmg.cu and gmg.c linked first) and of the branch, interleaved; then ncu
# of the SPAI-1 kernels (both binaries) and the kernel durations of whole creates (branch), as time allows.
# Only the log and ncu.tgz go into $OUT (the 23:58 run wrote a file per bench and lost them: too many files).
# Run: tar xJf .carry-gmg6/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg6/gmg6_device.sh
L=$OUT/gmg6.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((165 - ($(date +%s) - T0))); }
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu 2>&1 | grep -E "SPAI-1|PASSED|FAILED|OK|ERROR|Error" | tail -24; echo "rc=$?"
echo "== test_fem_gpu"; timeout 30 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|differ" | tail -12; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 40 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
echo "== memcheck test_fem_gpu quick"; timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
for k in 1 2 3 4 5 6; do
echo "== [$k] MAIN $A"; timeout 8 $B/bench/bench_gmg_main $A --out /tmp/main_$k.md; echo "rc=$?"
echo "== [$k] NEW $A"; timeout 8 $B/bench/bench_gmg $A --out /tmp/new_$k.md; echo "rc=$?"
done
echo "== [sq] MAIN --fast --no-rcm --dim 2 --setup-reps 7"; timeout 8 $B/bench/bench_gmg_main --fast --no-rcm --dim 2 --setup-reps 7 --out /tmp/main_sq.md; echo "rc=$?"
echo "== [sq] NEW --fast --no-rcm --dim 2 --setup-reps 7"; timeout 8 $B/bench/bench_gmg --fast --no-rcm --dim 2 --setup-reps 7 --out /tmp/new_sq.md; echo "rc=$?"
echo "== racecheck test_gmg_gpu quick (SPAI-1 kernels) left $(left)s"
timeout 30 compute-sanitizer --tool racecheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard|PASSED|FAILED|rror" | tail -6
for b in bench_gmg_main bench_gmg; do
echo "== ncu SPAI-1 rows $b left $(left)s"
timeout 30 ncu --clock-control none -k regex:spai1_warp --launch-count 8 --section LaunchStats --section Occupancy \
  --section SpeedOfLight --section WarpStateStats $B/bench/$b --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_$b.md \
  > /tmp/ncu_spai_$b.txt 2>&1; echo "rc=$?"
grep -E "spai1_warp|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Thr|Memory Thr|Stall|Warp Cycles|Issue Slots|Executed Ipc|Block Limit" /tmp/ncu_spai_$b.txt | head -60
done
echo "== ncu kernel durations of creates (branch) left $(left)s"
timeout $(left) ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 1500 $B/bench/bench_gmg \
  --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_all.md > /tmp/ncu_create.csv 2>&1; echo "rc=$?"
wc -l /tmp/ncu_create.csv
echo "== end $(date -u)"
} > $L 2>&1
tar czf $OUT/ncu.tgz -C /tmp ncu_spai_bench_gmg_main.txt ncu_spai_bench_gmg.txt ncu_create.csv 2>/dev/null # one file: $OUT returns few
grep -E "^==|rc=|PASSED|FAILED|first create|^\| (square|cube)|set-up phases|of FEM|of smoother|ERROR SUMMARY|RACECHECK|SPAI-1 (random|short|\(scaled)" $L | tail -150
