#!/bin/bash
# s15-gmgtidy: the GPU check of the knob tidy (defaults unchanged: the losing sides of 13 GMG/FEM knobs removed, the
# kept ones read through homg__knob), the union's per-level max_row and bench_gmg's --big without RCM, in one call
# (H100, timeout 120 s, budget 112 s).
# Steps: test_gmg_gpu (40 s; test_union_max_row: max_row with the union = without, = each level's longest row),
# test_fem_gpu (the patch kernel's one variant, the refined pattern against the definition), memcheck --leak-check
# full of test_gmg_gpu quick, 6 interleaved rounds at 65^3 of main (/work/main's build/bench/bench_gmg at 4bb84f5,
# stripped) and the branch, one 129^3 run each, test_amg_gpu while budget is left.
# /work/main/.carry-gmgtidy/ holds dev.tar.xz (the branch's pack), base.tar.xz (bench_gmg_main), lib.sh, this script.
# Run: tar xJf .carry-gmgtidy/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; OUT=$OUT bash .carry-gmgtidy/gmgtidy_device.sh
NAME=gmgtidy
C=${C:-.carry-gmgtidy}
BUDGET=${BUDGET:-112}
. $C/lib.sh
carry_unpack base.tar.xz || echo "unpack failed" >> "$L"
M=$C/bench_gmg_main
A="--fast --no-rcm --dim 3 --setup-reps 7"
nvidia-smi -L >> "$L" 2>&1

timed 40 gmg_gpu $B/tests/test_gmg_gpu
timed 15 fem_gpu $B/tests/test_fem_gpu
SAN_FLAGS="--leak-check full" sanitize 20 memcheck $B/tests/test_gmg_gpu quick

run_variant() {
    case $1 in
    main) timed 10 "r${ROUND}_main" $M $A --out /tmp/b.md ;;
    branch) timed 10 "r${ROUND}_branch" $B/bench/bench_gmg $A --out /tmp/b.md ;;
    esac
}
ROUNDS_END=$((deadline - 30)) # 30 s for 129^3 and test_amg_gpu
for ROUND in 1 2 3 4 5 6; do
    [ "$(date +%s)" -gt "$ROUNDS_END" ] && break
    if [ $((ROUND % 2)) = 1 ]; then run_variant main; run_variant branch; else run_variant branch; run_variant main; fi
done
timed 12 big_main $M --big --fast --no-rcm --dim 3 --setup-reps 3 --out /tmp/b.md
timed 12 big_branch $B/bench/bench_gmg --big --fast --no-rcm --dim 3 --setup-reps 3 --out /tmp/b.md
timed 12 amg_gpu $B/tests/test_amg_gpu

echo "=== table: step, set-up median (min) ms, first create ms, PCG its, solve ms" >> "$L"
awk '/^=== / { lab = $2 }
/set-up: first create/ {
    m = "-"; n = "-"; f = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /\(min [0-9.]+/)) n = substr($0, RSTART + 5, RLENGTH - 5)
    if (match($0, /first create [0-9.]+/)) f = substr($0, RSTART + 13, RLENGTH - 13)
}
/^\| cube/ && /default/ { split($0, fl, "|"); print "TAB", lab, m, n, "first", f, "its" fl[7], "solve" fl[8] }' "$L" >> "$L"
echo "=== solve check: level, lambda_max, omega (count of runs); contraction rho (count); fallbacks" >> "$L"
grep -E "^ +[0-5] +[0-9]+ +[0-9]+ +(ELL|CSR)" "$L" | awk '{ print "LAM", $1, $6, $7 }' | sort | uniq -c >> "$L"
grep -o "contraction check rho: .*" "$L" | sort | uniq -c | sed 's/^/RHO /' >> "$L"
grep -o "SPAI/SAINV fallbacks [0-9]*" "$L" | sort | uniq -c | sed 's/^/FB /' >> "$L"
grep -E "max_row|union" "$L" | grep -v "^===" | head -5 >> "$L"
finish "^TAB|LAM|RHO|FB |max_row|unpack failed|^build "
