#!/bin/bash
# check-install.sh -- what CI checks of the installed library: `make install` into a
# temporary prefix, every program in examples/ built against it with nothing but
# `pkg-config --cflags --libs homg`, each run, then `make uninstall` leaves no file.
#   tools/dev/check-install.sh [make arguments, e.g. CUDA=0]
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix=$(mktemp -d /tmp/homg-prefix.XXXXXX)
work=$(mktemp -d /tmp/homg-examples.XXXXXX)
trap 'rm -rf "$prefix" "$work"' EXIT

make --no-print-directory install PREFIX="$prefix" "$@"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "pkg-config --cflags --libs homg: $(pkg-config --cflags --libs homg)"
for src in examples/*.c; do
    name=$(basename "$src" .c)
    echo "=== examples/$name"
    ${CC:-cc} -std=c99 -Wall -Wextra -Werror "$src" $(pkg-config --cflags --libs homg) -o "$work/$name"
done

# The shared library is found through the prefix (a system prefix would use ldconfig).
export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
readelf -d "$work/mesh_amg_pcg" | grep -q 'NEEDED.*libhomg.so' || { echo "examples did not link libhomg.so" >&2; exit 1; }
"$work/structured_frame_loop"
"$work/mesh_amg_pcg"
# a Matrix Market system made by the installed tool, read plain and gzip-compressed
"$prefix/bin/homg" mesh generate square --cells 24 --out "$work/sq.msh"
"$prefix/bin/homg" mesh assemble "$work/sq.msh" --dirichlet 1,2 --f 1 --out "$work/A.mtx" "$work/b.mtx"
"$work/mtx_solve" "$work/A.mtx" "$work/b.mtx"
gzip -k "$work/A.mtx"
"$work/mtx_solve" "$work/A.mtx.gz"

make --no-print-directory uninstall PREFIX="$prefix" "$@"
left=$(find "$prefix" -type f -o -type l)
if [ -n "$left" ]; then
    echo "make uninstall left: $left" >&2
    exit 1
fi
echo "install check: installed, built examples/ with pkg-config, ran them, uninstalled"
