#!/bin/bash
# view_device.sh -- the view's work on the GPU machine in one call: the GPU test,
# the CPU test on NVIDIA's GL, compute-sanitizer on the small GPU test, the
# benchmark (bench/results/h100_view.md), and the demos' headless pictures.
#
# Here (the development machine), from the repository root:
#   bench/device/view_device.sh prep DEST   builds for sm_90 into build-dev/, copies the tree to DEST
#                                    with stripped binaries in DEST/.devbuild and the shared
#                                    libraries the GPU machine lacks in DEST/.devlibs
# There, in DEST, after `. .gl/gl-env.sh` (OpenGL/EGL/Vulkan loaders):
#   bench/device/view_device.sh run         logs, pictures and the table into $OUT; a summary last
set -u
step=${1:-run}
if [ "$step" = prep ]; then
    dest=${2:?"prep DEST"}
    set -e
    t="tests/test_view tests/test_view_gpu bench/bench_view demo/heat demo/mesh"
    make -j2 CUDA=1 HYPRE=0 BUILD=build-dev $(for x in $t; do echo build-dev/$x; done) >/dev/null
    rsync -a --delete --exclude build --exclude 'build-*' --exclude .git --exclude .gl ./ "$dest/"
    mkdir -p "$dest/.devbuild/tests" "$dest/.devbuild/bench" "$dest/.devbuild/demo" "$dest/.devlibs"
    for x in $t; do strip --strip-debug -o "$dest/.devbuild/$x" "build-dev/$x"; done
    for lib in libcmocka.so.0 libstb.so.0 libgomp.so.1 libz.so.1 libglfw.so.3 libGLEW.so.2.2 libX11.so.6 \
        libxcb.so.1 libXau.so.6 libXdmcp.so.6 libbsd.so.0 libmd.so.0; do
        p=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
        [ -n "$p" ] && cp -L "$p" "$dest/.devlibs/"
    done
    git rev-parse --short HEAD > "$dest/.devlibs/build-id"
    du -sh "$dest/.devbuild" "$dest/.devlibs"
    exit 0
fi

export LD_LIBRARY_PATH="$PWD/.devlibs:${LD_LIBRARY_PATH:-}"
B=.devbuild
OUT=${OUT:-/tmp/homg-out}
mkdir -p "$OUT"
deadline=$(($(date +%s) + ${BUDGET:-520}))
summary=""
# run NAME LIMIT COMMAND...: within the overall budget; the log's last line goes to the summary
run() {
    local name=$1 limit=$2 left rc
    shift 2
    left=$((deadline - $(date +%s) - 5))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -lt 5 ]; then
        summary="$summary\n$name: not run (out of time)"
        return 1
    fi
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    rc=$?
    summary="$summary\n$name: rc=$rc  $(grep -v '^\s*$' "$OUT/$name.log" | tail -1 | cut -c1-200)"
    return $rc
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
for p in map-twice shared-host shared-sem vk-teardown; do run probe-$p 30 $B/tests/test_view_gpu probe $p; done
run test_view_gpu 120 $B/tests/test_view_gpu
run bench_view 200 $B/bench/bench_view --out "$OUT/h100_view.md"
run heat 60 $B/demo/heat --frames 90 --png "$OUT/heat.png"
run heat_map 40 $B/demo/heat --frames 90 --path map --png "$OUT/heat_map.png"
run heat_shared 40 $B/demo/heat --frames 90 --path shared --png "$OUT/heat_shared.png"
run mesh 60 $B/demo/mesh --size 3 --frames 60 --png "$OUT/mesh.png"
run mesh_1m 60 $B/demo/mesh --size 4 --frames 30 --png "$OUT/mesh_1m.png"
run heat_cpu 60 $B/demo/heat --backend cpu --frames 40 --png "$OUT/heat_cpu.png"
run mesh_cpu 60 $B/demo/mesh --backend cpu --size 3 --frames 20 --png "$OUT/mesh_cpu.png"
run test_view 60 $B/tests/test_view
run memcheck 120 compute-sanitizer --tool memcheck --error-exitcode 99 $B/tests/test_view_gpu quick
run racecheck 90 compute-sanitizer --tool racecheck --error-exitcode 99 $B/tests/test_view_gpu quick
# few files come back: the logs and every picture in one archive, the main pictures beside it
printf "%b\n" "----- summary$summary" > "$OUT/summary.txt"
tar czf "$OUT/all.tgz" -C "$OUT" $(cd "$OUT" && ls *.log *.png *.txt 2>/dev/null)
mkdir -p "$OUT/keep" && mv "$OUT/all.tgz" "$OUT/summary.txt" "$OUT/keep/" && cp "$OUT/h100_view.md" "$OUT/keep/" 2>/dev/null
for f in heat.png mesh.png; do [ -e "$OUT/$f" ] && cp "$OUT/$f" "$OUT/keep/"; done
find "$OUT" -maxdepth 1 -type f -delete
mv "$OUT"/keep/* "$OUT/" && rmdir "$OUT/keep"
echo "----- logs"
tar xzf "$OUT/all.tgz" -C /tmp 2>/dev/null
for f in /tmp/probe-*.log /tmp/test_view_gpu.log /tmp/bench_view.log /tmp/heat*.log /tmp/mesh*.log /tmp/test_view.log /tmp/memcheck.log /tmp/racecheck.log; do
    [ -e "$f" ] || continue
    echo "== $f"; grep -v '^\s*$' "$f" | grep -v '^\[ *\(RUN\|OK\) *\]' | tail -n 14 | cut -c1-300
done
cat "$OUT/summary.txt"
