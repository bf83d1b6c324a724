#!/bin/sh
# s8-tidy2: the GPU check of the branch's clean-ups that reach the GPU: kernels/grid/gen.cu (gp<> as one
# template; sm_90 cubin byte-identical here, so only a run proves nothing else moved) and the shared event
# timing loop of bench_half and bench_grid (bench/event_timing.c).  Tests of the gen kernels (float16, and
# float32/64 through test_grid_gpu gen), memcheck of the half test, then bench_half and bench_grid of the
# branch beside main's (bench_half_main, bench_grid_main, where packed), interleaved.
# Run: tar xJf .carry-tidy2/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-tidy2/tidy2_device.sh
L=$OUT/tidy2.log
B=.devbuild
G="--sizes 1024,2048 --reps 21 --methods fmg,vcycle,fft,warm"
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_grid_half_gpu"; timeout 30 $B/tests/test_grid_half_gpu 2>&1 | tail -20; echo "rc=$?"
echo "== test_grid_gpu gen"; timeout 25 $B/tests/test_grid_gpu gen 2>&1 | grep -E "PASSED|FAILED|mismatch|CUDA vs CPU" | tail -8; echo "rc=$?"
echo "== memcheck test_grid_half_gpu"; timeout 30 compute-sanitizer --tool memcheck $B/tests/test_grid_half_gpu 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED|Invalid" | head; echo "rc=$?"
for k in 1 2; do
[ -x $B/bench/bench_half_main ] && { echo "== [$k] MAIN bench_half"; timeout 40 $B/bench/bench_half_main --reps 21; echo "rc=$?"; }
echo "== [$k] NEW bench_half"; timeout 40 $B/bench/bench_half --reps 21; echo "rc=$?"
done
[ -x $B/bench/bench_grid_main ] && { echo "== MAIN bench_grid $G"; timeout 40 $B/bench/bench_grid_main $G --out $OUT/main_grid.md; echo "rc=$?"; }
echo "== NEW bench_grid $G"; timeout 40 $B/bench/bench_grid $G --out $OUT/new_grid.md; echo "rc=$?"
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|ERROR SUMMARY|^\||device:|previous frame|CUDA vs CPU [1-9]|float32 +[0-9]+\^2|float64 +[0-9]+\^2" $L | tail -80
