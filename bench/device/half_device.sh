#!/bin/sh
# s7-half: the GPU check of HOMG_FLOAT16 (issue 12): the half kernels against the CPU twins, the float32/64
# gen kernels unchanged (test_grid_gpu gen), memcheck of the half test, then bench_half (float32 beside float16).
# Run: tar xJf .carry-half/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-half/half_device.sh
L=$OUT/half.log
B=.devbuild
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_grid_half_gpu"; timeout 30 $B/tests/test_grid_half_gpu 2>&1 | tail -40; echo "rc=$?"
echo "== bench_half"; timeout 80 $B/bench/bench_half --reps 21; echo "rc=$?"
echo "== memcheck test_grid_half_gpu"; timeout 30 compute-sanitizer --tool memcheck $B/tests/test_grid_half_gpu 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED|Invalid|solve 200|CUDA vs CPU [1-9]" | head; echo "rc=$?"
echo "== test_grid_gpu gen"; timeout 25 $B/tests/test_grid_gpu gen 2>&1 | grep -E "PASSED|FAILED|mismatch|CUDA vs CPU" | tail -8; echo "rc=$?"
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|ERROR SUMMARY|^\||device:|previous frame|CUDA vs CPU [1-9]|solve 200" $L | tail -80
