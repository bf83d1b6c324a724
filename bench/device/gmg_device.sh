#!/bin/sh
# gmg_device.sh -- the GPU check of a GMG branch in one device call: test_gmg_gpu and test_fem_gpu, memcheck of
# both (quick), then bench_gmg of main (bench_gmg_main: main's library, packed beside the branch's) and of the
# branch, interleaved round by round, then the 2D square once each.
# Usage: sh .carry-NAME/gmg_device.sh NAME [ROUNDS] [EXTRA]
#   NAME    the log ($OUT/NAME.log) and the carry folder (.carry-NAME)
#   ROUNDS  interleaved main/branch rounds of the 3D bench (default 6)
#   EXTRA   words: "count" (bench --count rows of both first), "arena0" (each round also the branch with
#           HOMG_GMG_ARENA=0)
#   TESTGREP (environment) more test output lines to keep, an ERE (e.g. "tag values|per-tag")
# s7-gmg4 ran as: TESTGREP="transpose|pattern:" sh gmg_device.sh gmg4 4 "count arena0"
# s7-gmg5 ran as: TESTGREP="tag values|per-tag" sh gmg_device.sh gmg5 6
# Run: tar xJf .carry-NAME/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-NAME/gmg_device.sh NAME
NAME=${1:?usage: gmg_device.sh NAME [ROUNDS] [EXTRA]}
ROUNDS=${2:-6}
EXTRA=${3:-}
TG=${TESTGREP:+$TESTGREP|}
has() { case " $EXTRA " in *" $1 "*) return 0 ;; esac; return 1; }
L=$OUT/$NAME.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L
echo "== test_gmg_gpu (full)"; timeout 30 $B/tests/test_gmg_gpu 2>&1 | grep -E "${TG}PASSED|FAILED|OK|ERROR|Error" | tail -16; echo "rc=$?"
echo "== test_fem_gpu"; timeout 40 $B/tests/test_fem_gpu 2>&1 | grep -E "${TG}PASSED|FAILED|ERROR|Error|differ" | tail -24; echo "rc=$?"
echo "== memcheck test_gmg_gpu quick"; timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3; echo "rc=$?"
echo "== memcheck test_fem_gpu quick"; timeout 25 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3; echo "rc=$?"
if has count; then
echo "== [c] MAIN --count"; timeout 6 $B/bench/bench_gmg_main $A --count --out $OUT/main_c.md | grep -E "count|set-up:"; echo "rc=$?"
echo "== [c] NEW --count"; timeout 6 $B/bench/bench_gmg $A --count --out $OUT/new_c.md | grep -E "count|set-up:|arena"; echo "rc=$?"
fi
k=1
while [ "$k" -le "$ROUNDS" ]; do
echo "== [$k] MAIN $A"; timeout 7 $B/bench/bench_gmg_main $A --out $OUT/main_$k.md; echo "rc=$?"
echo "== [$k] NEW $A"; timeout 7 $B/bench/bench_gmg $A --out $OUT/new_$k.md; echo "rc=$?"
if has arena0; then
echo "== [$k] NEW HOMG_GMG_ARENA=0 $A"; HOMG_GMG_ARENA=0 timeout 7 $B/bench/bench_gmg $A --out $OUT/new0_$k.md; echo "rc=$?"
fi
k=$((k + 1))
done
echo "== [sq] MAIN --fast --no-rcm --dim 2"; timeout 6 $B/bench/bench_gmg_main --fast --no-rcm --dim 2 --out $OUT/main_sq.md | grep -E "^\| square|^ +[0-9]+ +[0-9]+ "; echo "rc=$?"
echo "== [sq] NEW --fast --no-rcm --dim 2"; timeout 6 $B/bench/bench_gmg --fast --no-rcm --dim 2 --out $OUT/new_sq.md | grep -E "^\| square|^ +[0-9]+ +[0-9]+ "; echo "rc=$?"
echo "== end $(date -u)"
} > "$L" 2>&1
grep -E "^==|rc=|${TG}PASSED|FAILED|count|first create|^\| (square|cube)|^ +[0-9]+ +[0-9]+ |set-up phases|of omega|of FEM|arena|ERROR SUMMARY" "$L" | tail -120
