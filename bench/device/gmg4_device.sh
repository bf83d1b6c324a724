#!/bin/sh
# s7-gmg4: the GPU check of the branch (GMG set-up: fem matrix taken over, M^T by transpose_sym, the hierarchy's
# arena; call 2: + the FEM pattern from the pairs a < b, Dirichlet values on level 0 only, traced FEM parts): tests + memcheck, then bench_gmg of main cb4e0c8 (+ --count only: bench_gmg_main) and of the branch
# (arena on, and off with HOMG_GMG_ARENA=0) interleaved in this one run; memcheck of test_fem_gpu quick last.
# Run: tar xJf .carry-gmg4/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg4/gmg4_device.sh
L=$OUT/gmg4.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "transpose|PASSED|FAILED|OK|ERROR|Error" | tail -12; echo "rc=$?"
echo "== test_fem_gpu"; timeout 40 $B/tests/test_fem_gpu 2>&1 | grep -E "pattern:|PASSED|FAILED|ERROR|Error|differ" | tail -24; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3; echo "rc=$?"
echo "== [c] MAIN --count"; timeout 6 $B/bench/bench_gmg_main $A --count --out $OUT/main_c.md | grep -E "count|set-up:"; echo "rc=$?"
echo "== [c] NEW --count"; timeout 6 $B/bench/bench_gmg $A --count --out $OUT/new_c.md | grep -E "count|set-up:|arena"; echo "rc=$?"
for k in 1 2 3 4; do
echo "== [$k] MAIN $A"; timeout 7 $B/bench/bench_gmg_main $A --out $OUT/main_$k.md; echo "rc=$?"
echo "== [$k] NEW $A"; timeout 7 $B/bench/bench_gmg $A --out $OUT/new_$k.md; echo "rc=$?"
echo "== [$k] NEW HOMG_GMG_ARENA=0 $A"; HOMG_GMG_ARENA=0 timeout 7 $B/bench/bench_gmg $A --out $OUT/new0_$k.md; echo "rc=$?"
done
echo "== [sq] MAIN --fast --no-rcm --dim 2"; timeout 6 $B/bench/bench_gmg_main --fast --no-rcm --dim 2 --out $OUT/main_sq.md | grep -E "^\| square|^ +[0-9]+ +[0-9]+ "; echo "rc=$?"
echo "== [sq] NEW --fast --no-rcm --dim 2"; timeout 6 $B/bench/bench_gmg --fast --no-rcm --dim 2 --out $OUT/new_sq.md | grep -E "^\| square|^ +[0-9]+ +[0-9]+ "; echo "rc=$?"
echo "== memcheck test_fem_gpu quick"; timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3; echo "rc=$?"
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|count|first create|^\| (square|cube)|^ +[0-9]+ +[0-9]+ |set-up phases|of omega|arena|ERROR SUMMARY|transpose" $L | tail -100
