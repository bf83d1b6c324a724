#!/bin/sh
# s10-gmg10: the GPU check of the branch in one call (H100, timeout 180 s): the smoother set-up's levels on CUDA
# lanes (levels 1.. beside level 0; HOMG_GMG_LANES=1 since 7f35e6d, the default when this ran at 05:43 UTC, which
# labelled HOMG_GMG_LANES=0 "serial"; the labels are the same now), SPAI-1 with reciprocal
# Cholesky diagonals and M^T written with M's rows, the contraction check's moments summed by its products.
# Tests + memcheck + racecheck + synccheck, then bench_gmg rounds of main (bench_gmg_main: /work/main's build of
# c321091, carried as .carry-base/bench_gmg), the branch and the branch with HOMG_GMG_LANES=0, interleaved with the
# order rotating, then ncu of the SPAI-1 kernels of both binaries and, time left, the kernel durations of one create.
# One log into $OUT.
# Run (from the session checkout, where the carry lives: /work/main/.carry-gmg10/ holds dev.tar.xz, bench_gmg_main and this
# script): tar xJf .carry-gmg10/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH;
# M=.carry-gmg10/bench_gmg_main sh .carry-gmg10/gmg10_device.sh
L=$OUT/gmg10.log
B=.devbuild
M=${M:-.carry-base/bench_gmg} # main's binary (the run: the session checkout's ignored .carry-gmg10/)
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((160 - ($(date +%s) - T0))); }
# one bench run: label, then the command (env prefix allowed)
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
    timeout 45 $B/tests/test_gmg_gpu 2>&1 | grep -E "SPAI-1|ELL|transpose|PASSED|FAILED|OK|ERROR|Error|iterations|omega" | tail -40
    echo "== memcheck test_gmg_gpu quick left $(left)s"
    timeout 40 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
    echo "== racecheck test_gmg_gpu quick (SPAI-1, product-and-moment kernels) left $(left)s"
    timeout 30 compute-sanitizer --tool racecheck --kernel-name kns=spai1_warp $B/tests/test_gmg_gpu quick 2>&1 |
        grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard|FAILED|rror" | tail -4
    timeout 20 compute-sanitizer --tool racecheck --kernel-name kns=ell_dot $B/tests/test_gmg_gpu quick 2>&1 |
        grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard|FAILED|rror" | tail -4
    echo "== synccheck test_gmg_gpu quick left $(left)s"
    timeout 30 compute-sanitizer --tool synccheck $B/tests/test_gmg_gpu quick 2>&1 | tail -2
    k=0
    for k in 1 2 3 4 5; do
        [ "$(left)" -lt 45 ] && {
            echo "== round $k skipped: left $(left)s"
            break
        }
        case $((k % 3)) in
        1) bench main $M; bench lanes env HOMG_GMG_LANES=1 $B/bench/bench_gmg; bench serial $B/bench/bench_gmg ;;
        2) bench lanes env HOMG_GMG_LANES=1 $B/bench/bench_gmg; bench serial $B/bench/bench_gmg; bench main $M ;;
        0) bench serial $B/bench/bench_gmg; bench main $M; bench lanes env HOMG_GMG_LANES=1 $B/bench/bench_gmg ;;
        esac
    done
    echo "== square L=6 left $(left)s"
    k=sq
    A="--fast --no-rcm --dim 2 --setup-reps 7"
    [ "$(left)" -gt 40 ] && { bench main $M; bench lanes env HOMG_GMG_LANES=1 $B/bench/bench_gmg; }
    for b in main branch; do
        t=$(left)
        [ $t -gt 18 ] && t=18
        bin=$M
        [ $b = branch ] && bin=$B/bench/bench_gmg
        echo "== ncu SPAI-1 rows $b left $(left)s"
        [ $t -gt 6 ] && timeout $t ncu --clock-control none -k regex:spai1_warp --launch-count 4 --section SpeedOfLight \
            --section LaunchStats --section Occupancy $bin --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n.md >/tmp/ncu_$b.txt 2>&1
        echo "rc=$?"
        grep -E "spai1_warp|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Grid Size" /tmp/ncu_$b.txt | head -40
    done
    echo "== ncu kernel durations of one create (branch) left $(left)s"
    t=$(left)
    [ $t -gt 40 ] && t=40
    [ $t -gt 12 ] && timeout $t ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 2500 \
        $B/bench/bench_gmg --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/n2.md >$OUT/ncu_create.csv 2>&1
    echo "rc=$?"
    wc -l $OUT/ncu_create.csv 2>/dev/null
    echo "== end $(date -u)"
} >$L 2>&1
grep -E "^==|rc=[^0]|PASSED|FAILED|SUMMARY|set-up:|^\| (cube|square)|set-up phases|of smoother|rho:|SPAI-1 (random|short)|spai1_warp|Duration" $L | tail -120
echo "== table: set-up median (window median) ms per run"
awk '/^== \[/ { lab = $3 " " $2 }
/set-up: first create/ {
    m = "-"; w = "-"
    if (match($0, /then median [0-9.]+/)) m = substr($0, RSTART + 12, RLENGTH - 12)
    if (match($0, /window\) median [0-9.]+/)) w = substr($0, RSTART + 15, RLENGTH - 15)
    print lab, m, w
}' $L
