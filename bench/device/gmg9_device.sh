#!/bin/sh
# s10-gmg9: the GPU check of the branch in one call (H100, timeout 180 s): FEM pattern key buffers of the pair
# sort's size, boundary facets + node markers refined on the device (no edge read-back), coarse levels' patterns
# from the refinement's edges.  Tests + memcheck, then bench_gmg of main (bench_gmg_main: /work/main's build of
# c321091, the branch point) and of the branch interleaved (order alternating), --count of each, an nsys CUDA API
# summary of each (if nsys is there) and, time left, ncu kernel durations of one branch create.  Logs into $OUT.
# Run (the device copies /work/main's tree; the branch's pack, baseline and this script in /work/main/.carry-gmg9/):
# tar xJf .carry-gmg9/dev.tar.xz; export LD_LIBRARY_PATH=$PWD/.devlibs:$LD_LIBRARY_PATH; CARRY=.carry-gmg9 sh .carry-gmg9/gmg9_device.sh
L=$OUT/gmg9.log
B=.devbuild
A="--fast --no-rcm --dim 3 --setup-reps 7"
T0=$(date +%s)
left() { echo $((170 - ($(date +%s) - T0))); }
cp ${CARRY:-.carry-base}/bench_gmg_main $B/bench/bench_gmg_main # the device runs in /work/main's tree: CARRY=.carry-gmg9 there
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
{
echo "== $(date -u) build $(cat .devlibs/build-id)"; nvidia-smi -L; echo "nsys: ${NSYS:-none}"
echo "== test_gmg_gpu (full)"; timeout 40 $B/tests/test_gmg_gpu 2>&1 | grep -E "PASSED|FAILED|OK|ERROR|Error|iterations|homg_mesh_refine" | tail -30
for k in 1 2 3; do
[ $(left) -lt 75 ] && { echo "== round $k skipped: left $(left)s"; break; }
if [ $((k % 2)) = 1 ]; then order="bench_gmg_main bench_gmg"; else order="bench_gmg bench_gmg_main"; fi
for b in $order; do
echo "== [$k] $b $A"; timeout 12 $B/bench/$b $A --out /tmp/$b.md; echo "rc=$?"
done
done
echo "== test_fem_gpu (full) left $(left)s"; timeout 25 $B/tests/test_fem_gpu 2>&1 | grep -E "PASSED|FAILED|ERROR|Error|differ|pattern|LINE" | tail -30
echo "== memcheck test_gmg_gpu quick left $(left)s"; timeout 30 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_gmg_gpu quick 2>&1 | tail -3
echo "== memcheck test_fem_gpu quick left $(left)s"; timeout 20 compute-sanitizer --tool memcheck --leak-check full $B/tests/test_fem_gpu quick 2>&1 | tail -3
k=4; if [ $(left) -gt 55 ]; then for b in bench_gmg bench_gmg_main; do
echo "== [$k] $b $A"; timeout 12 $B/bench/$b $A --out /tmp/$b.md; echo "rc=$?"; done; fi
for b in bench_gmg_main bench_gmg; do
[ $(left) -lt 40 ] && break
echo "== $b --count left $(left)s"; timeout 10 $B/bench/$b --fast --no-rcm --dim 3 --setup-reps 1 --count --out /tmp/c.md 2>&1 | grep -E "cube L=4|count|arena"
done
for b in bench_gmg_main bench_gmg; do
[ -n "$NSYS" ] && [ $(left) -gt 60 ] || break
echo "== nsys $b (setup-reps 3) left $(left)s"
timeout 30 $NSYS profile -t cuda --sample=none --cpuctxsw=none -f true -o /tmp/ns_$b $B/bench/$b --fast --no-rcm --dim 3 --setup-reps 3 --out /tmp/n.md > /tmp/ns_$b.out 2>&1; echo "rc=$?"
timeout 20 $NSYS stats -q -r cuda_api_sum -f csv -o $OUT/nsys_$b /tmp/ns_$b.nsys-rep > /dev/null 2>&1; echo "stats rc=$?"
head -25 $OUT/nsys_${b}_cuda_api_sum.csv 2>/dev/null
done
echo "== ncu kernel durations of one create (branch) left $(left)s"
t=$(($(left) - 5)); [ $t -gt 45 ] && t=45
[ $t -gt 12 ] && timeout $t ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 900 $B/bench/bench_gmg \
  --fast --no-rcm --dim 3 --setup-reps 1 --out /tmp/ncu_all.md > $OUT/ncu_create.csv 2>&1; echo "rc=$?"
wc -l $OUT/ncu_create.csv 2>/dev/null
echo "== end $(date -u)"
} > $L 2>&1
grep -E "^==|rc=|PASSED|FAILED|ERROR SUMMARY|LEAK|first create|^\| cube L=4 \| SPAI|set-up phases|of FEM|of refine|arena|count|cudaMalloc|cudaFree|cudaStreamSynchronize|cudaMemcpy|cudaLaunch" $L | tail -120
