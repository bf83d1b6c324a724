#!/bin/sh
# s7-gmg5: the GPU check of the branch (level 0's per-tag Dirichlet values on the device from fem's node markers,
# gmg tag_values kernel): tests + memcheck, then bench_gmg of main 01bd6c6 (bench_gmg_main: the same tree with the
# branch's lib/kernels changes reverted) and of the branch, interleaved in this one run.
# Run: tar xJf .carry-gmg5/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg5/gmg5_device.sh
L=$OUT/gmg5.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "tag values|per-tag|PASSED|FAILED|OK|ERROR|Error" | tail -16; echo "rc=$?"
echo "== test_fem_gpu"; timeout 40 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|differ" | tail -12; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3; echo "rc=$?"
echo "== memcheck test_fem_gpu quick"; timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3; echo "rc=$?"
for k in 1 2 3 4 5 6; do
echo "== [$k] MAIN $A"; timeout 7 $B/bench/bench_gmg_main $A --out $OUT/main_$k.md; echo "rc=$?"
echo "== [$k] NEW $A"; timeout 7 $B/bench/bench_gmg $A --out $OUT/new_$k.md; echo "rc=$?"
done
echo "== [sq] MAIN --fast --no-rcm --dim 2"; timeout 6 $B/bench/bench_gmg_main --fast --no-rcm --dim 2 --out $OUT/main_sq.md | grep -E "^\| square|^ +[0-9]+ +[0-9]+ "; echo "rc=$?"
echo "== [sq] NEW --fast --no-rcm --dim 2"; timeout 6 $B/bench/bench_gmg --fast --no-rcm --dim 2 --out $OUT/new_sq.md | grep -E "^\| square|^ +[0-9]+ +[0-9]+ "; echo "rc=$?"
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|first create|^\| (square|cube)|set-up phases|of FEM|ERROR SUMMARY|tag values|per-tag" $L | tail -120
