#!/bin/sh
# s5-gmg: the GPU check of the branch head (for the lead; .carry-gmg/expected-id names the packed commit): tests + sanitizers on the new
# kernels, then the set-up bench of main 45b19be (baseline) and of s5-gmg interleaved in this one run.
# Run: tar xJf .carry-gmg/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg/gmg-lead.sh
L=$OUT/gmg-lead.log
B=.devbuild
xz -dc .carry-gmg/bench_gmg_base.xz > /tmp/bench_gmg_base; chmod +x /tmp/bench_gmg_base
{
echo "== $(date -u) build $(cat .devlibs/build-id) (expected $(cat .carry-gmg/expected-id 2>/dev/null))"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu; echo "rc=$?"
echo "== test_fem_gpu"; timeout 25 $B/tests/test_fem_gpu 2>&1 | tail -3; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -4; echo "rc=$?"
echo "== racecheck spai1"; timeout 15 compute-sanitizer --tool racecheck --kernel-regex kns=spai1 $B/tests/test_gmg_gpu quick 2>&1 | tail -2; echo "rc=$?"
for k in 1 2; do
echo "== [$k] BASE bench_gmg --fast --no-rcm --setup-reps 7"; timeout 15 /tmp/bench_gmg_base --fast --no-rcm --setup-reps 7 --out $OUT/base_$k.md; echo "rc=$?"
echo "== [$k] NEW bench_gmg --fast --no-rcm --setup-reps 7"; timeout 15 $B/bench/bench_gmg --fast --no-rcm --setup-reps 7 --out $OUT/new_$k.md; echo "rc=$?"
done
echo "== NEW --pool (cudaMallocAsync pool allocator: what cudaMalloc/cudaFree cost the set-up)"; timeout 15 $B/bench/bench_gmg --fast --no-rcm --setup-reps 7 --pool --out $OUT/new_pool.md; echo "rc=$?"
echo "== ncu spai1 + prolong (cube, one create)"; timeout 20 ncu --clock-control none -k regex:"spai1|prolong" --launch-count 6 $B/bench/bench_gmg --fast --no-rcm --dim 3 --reps 1 --out /tmp/n.md 2>&1 | grep -E "Profiling|Duration" ; echo "rc=$?"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|first create|^\| (square|cube)|set-up phases|of FEM|ERROR SUMMARY|RACECHECK|Duration|Profiling|--pool" $L | tail -70
