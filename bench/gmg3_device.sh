#!/bin/sh
# s6-gmg3: the GPU check of the branch (GMG set-up: phase syncs behind HOMG_GMG_TRACE, omega batched over levels):
# (call 2: + ELL widths, SPAI-1 fallback counts and bandwidths read once) tests + memcheck, then bench_gmg of main bd0cb49 (bench_gmg_main) and of the branch interleaved in this one run.
# Run: tar xJf .carry-gmg3/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg3/gmg3_device.sh
L=$OUT/gmg3.log
B=.devbuild
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu 2>&1 | tail -4; echo "rc=$?"
echo "== test_fem_gpu"; timeout 20 $B/tests/test_fem_gpu 2>&1 | tail -2; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3; echo "rc=$?"
echo "== [0] MAIN bench_gmg --fast --no-rcm (both dims, iterations)"; timeout 15 $B/bench/bench_gmg_main --fast --no-rcm --out $OUT/main_0.md; echo "rc=$?"
echo "== [0] NEW bench_gmg --fast --no-rcm (both dims, iterations)"; timeout 15 $B/bench/bench_gmg --fast --no-rcm --out $OUT/new_0.md; echo "rc=$?"
for k in 1 2 3 4; do
echo "== [$k] MAIN --dim 3 --setup-reps 15"; timeout 12 $B/bench/bench_gmg_main --fast --no-rcm --dim 3 --setup-reps 15 --out $OUT/main_$k.md; echo "rc=$?"
echo "== [$k] NEW --dim 3 --setup-reps 15"; timeout 12 $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 15 --out $OUT/new_$k.md; echo "rc=$?"
done
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|first create|^\| (square|cube)|^ +[0-9]+ +[0-9]+ |set-up phases|of omega|ERROR SUMMARY" $L | tail -80
