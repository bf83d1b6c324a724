#!/bin/sh
# s10-gmg10 follow-up (not run; for one call of the lead, H100, timeout 180 s): (1) 9b84733, the fused product-and-moment
# kernel with at most 1024 blocks striding over the rows (the run of 05:43 UTC measured the one-block-per-64-rows
# version at 38 us against the product's 29 on the 65^3 level 0); (2) why the solves of a process whose creates used
# the smoother lanes (HOMG_GMG_LANES=1) were 0.13 ms slower: the same binary with and without lanes, and with
# CUDA_DEVICE_MAX_CONNECTIONS=32 (streams sharing hardware queues?).
# Carry (in the session checkout, ignored): .carry-gmg10b/ = dev.tar.xz (9b84733's test_gmg_gpu and bench_gmg),
# base.tar.xz (bench_gmg_head: the branch head without 9b84733, bench_gmg_main: main c321091), this script.
# Run: tar xJf .carry-gmg10b/dev.tar.xz; tar xJf .carry-gmg10b/base.tar.xz -C .carry-gmg10b;
#      export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; sh .carry-gmg10b/gmg10b_device.sh
L=$OUT/gmg10b.log
B=.devbuild
C=.carry-gmg10b
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((160 - ($(date +%s) - T0))); }
bench() {
    lab=$1
    shift
    echo "== [$k] $lab $A"
    timeout 12 "$@" $A --out /tmp/b.md
    echo "rc=$?"
}
{
    echo "== $(date -u) build $(cat .devlibs/build-id)"
    nvidia-smi -L
    echo "== test_gmg_gpu (full)"
    timeout 50 $B/tests/test_gmg_gpu 2>&1 | grep -E "fused|lanes|smoother|PASSED|FAILED|OK|ERROR|Error" | tail -40
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 45 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== racecheck + synccheck (fused product-and-moment) left $(left)s"
    timeout 25 compute-sanitizer --tool racecheck --kernel-name kns=ell_dot $B/tests/test_gmg_gpu quick 2>&1 |
        grep -E "RACECHECK SUMMARY|hazard|FAILED" | tail -3
    timeout 25 compute-sanitizer --tool synccheck --kernel-name kns=ell_dot $B/tests/test_gmg_gpu quick 2>&1 | tail -2
    for k in 1 2 3 4; do
        [ "$(left)" -lt 35 ] && break
        bench head $C/bench_gmg_head
        bench stride $B/bench/bench_gmg
        bench head-lanes env HOMG_GMG_LANES=1 $C/bench_gmg_head
        bench head-lanes-conn32 env HOMG_GMG_LANES=1 CUDA_DEVICE_MAX_CONNECTIONS=32 $C/bench_gmg_head
        [ $k = 1 ] && bench main $C/bench_gmg_main
    done
    echo "== ncu fused product-and-moment (stride) left $(left)s"
    t=$(left)
    [ $t -gt 25 ] && t=25
    [ $t -gt 8 ] && timeout $t ncu --clock-control none -k regex:ell_dot --launch-count 80 --metrics gpu__time_duration.sum \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n.md >/tmp/ncu_dot.txt 2>&1
    grep -E "ell_dot_kernel|gpu__time_duration" /tmp/ncu_dot.txt | paste - - | sed 's/  */ /g' | cut -c1-220 | head -30
    echo "== end $(date -u)"
} >$L 2>&1
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^\| cube|of smoother|rho:" $L | tail -90
echo "== table: label, set-up median, window median, solve ms (iterations)"
awk '/^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; w = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /window\) median [0-9.]+/)) w = substr($0, RSTART + 15, RLENGTH - 15)
}
/^\| cube L=4 \| SPAI-1/ { split($0, f, "|"); print lab, m, w, f[8], "(" f[7] "it.)" }' $L
