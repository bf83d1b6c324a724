#!/bin/sh
# device-prep.sh -- run here, before a GPU-machine run: builds for sm_90, puts
# stripped copies of the test, benchmark and tool binaries into .devbuild/ and
# the shared libraries the GPU machine lacks (Debian's cmocka, stb, ...) into
# .devlibs/ (both ignored by git), then packs both into .carry-dev/dev.tar.xz
# (the binaries alone pass the 64 MiB carry limit; packed they are ~16 MiB): carry
# [".carry-dev"] and start the command there with `tar xJf .carry-dev/dev.tar.xz;`.
set -eu
cd "$(git rev-parse --show-toplevel)"
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"
grep -qx '/.devlibs/' "$ex" 2>/dev/null || echo '/.devlibs/' >> "$ex"
grep -qx '/.devbuild/' "$ex" 2>/dev/null || echo '/.devbuild/' >> "$ex"
grep -qx '/.carry-\*/' "$ex" 2>/dev/null || echo '/.carry-*/' >> "$ex"
# its own build folder by default: no hypre (the GPU machine has no MPI or hypre libraries);
# DEV_BUILD=build packs the main build instead (its benches open hypre at run time and say
# so where it is missing), which saves a second full build on a busy machine.
B=${DEV_BUILD:-build-dev}
if [ "$B" = build-dev ]; then make -j2 CUDA=1 HYPRE=0 BUILD=build-dev all >/dev/null; else make -j2 CUDA=1 BUILD="$B" all >/dev/null; fi
rm -rf .devbuild && mkdir -p .devbuild/tests .devbuild/bench .devbuild/demo
# DEV_FILES="tests/test_*_gpu bench/bench_grid ..." packs only those (the carry holds 64 MiB)
cd "$B"; files=$(echo ${DEV_FILES:-tests/* bench/* demo/*}); cd ..
for f in $files; do
    f="$B/$f"
    [ -f "$f" ] && [ -x "$f" ] && strip --strip-debug -o ".devbuild/${f#"$B"/}" "$f"
done
strip --strip-debug -o .devbuild/homg "$B"/homg
mkdir -p .devlibs
for lib in libcmocka.so.0 libstb.so.0 libgomp.so.1 libz.so.1 libfftw3.so.3 libfftw3f.so.3 libglfw.so.3 libGLEW.so.2.2; do
    p=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
    [ -n "$p" ] && cp -L "$p" .devlibs/
done
git rev-parse --short HEAD > .devlibs/build-id
mkdir -p .carry-dev
tar -cf - .devbuild .devlibs | xz -T1 --lzma2=preset=6,dict=256MiB > .carry-dev/dev.tar.xz # one big dictionary: the binaries share most of their bytes (83 -> 8 MB)
du -sh .devbuild .devlibs .carry-dev/dev.tar.xz
