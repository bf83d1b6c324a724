#!/bin/sh
# device-prep.sh -- run here, before a GPU-machine run: builds for sm_90 and
# copies the shared libraries the GPU machine lacks (Debian's cmocka, stb, ...)
# into .devlibs/ (ignored by git), so `carry: ["build", ".devlibs"]` is enough.
set -eu
cd "$(git rev-parse --show-toplevel)"
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"
grep -qx '/.devlibs/' "$ex" 2>/dev/null || echo '/.devlibs/' >> "$ex"
make -j2 CUDA=1 all >/dev/null
mkdir -p .devlibs
for lib in libcmocka.so.0 libstb.so.0 libgomp.so.1 libz.so.1 libglfw.so.3 libGLEW.so.2.2; do
    p=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
    [ -n "$p" ] && cp -L "$p" .devlibs/
done
git rev-parse --short HEAD > .devlibs/build-id
du -sh build .devlibs
