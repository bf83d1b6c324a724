#!/bin/sh
# s9-homg2 (issue 12, HOMG's whole-grid passes): one device call.  Binaries: .devbuild/bench/bench_grid and
# tests/* = branch s9-homg2 (build-id), bench/bench_grid_main = main 6eea172 (the baseline, same run).
# Run: tar xJf .carry-homg2/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-homg2/homg2_device.sh
L=$OUT/homg2.log
B=.devbuild
M="--clock-control none -k regex:homg_(iterate|filter)_kernel --launch-count 57 --csv --print-units base --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
{
echo "== $(date -u) build $(cat .devlibs/build-id | tr '\n' ' ')"; nvidia-smi -L
echo "== test_grid_gpu homg"; timeout 25 $B/tests/test_grid_gpu homg 2>&1 | tail -8
for b in bench_grid_main bench_grid; do
echo "== $b --sizes 1024,4096 --methods homg --reps 11"; timeout 25 $B/bench/$b --sizes 1024,4096 --methods homg --reps 11 --out $OUT/$b.md; echo "rc=$?"
done
echo "== memcheck test_grid_gpu homg"; timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_grid_gpu homg 2>&1 | tail -4
echo "== racecheck test_grid_gpu homg"; timeout 20 compute-sanitizer --tool racecheck $B/tests/test_grid_gpu homg 2>&1 | tail -3
for b in bench_grid_main bench_grid; do
echo "== ncu $b 4096^2 float32, first restart: 11 filters + 46 iterations"
timeout 40 ncu $M $B/bench/$b --sizes 4096 --methods homg --reps 1 --out /tmp/ncu_$b.md > $OUT/ncu_$b.csv 2>&1; echo "rc=$?"
done
echo "== HOMG_TEST_BACKEND=cuda test_grid_ref"; HOMG_TEST_BACKEND=cuda timeout 25 $B/tests/test_grid_ref 2>&1 | grep -E "PASSED|FAILED|OK \]|ERROR" | tail -25
echo "== test_grid_gpu quick"; timeout 20 $B/tests/test_grid_gpu quick 2>&1 | tail -4
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|ERROR SUMMARY|RACECHECK|  homg " $L | tail -60
