#!/bin/sh
# format.sh -- applies .clang-format to the C, CUDA and header files git tracks;
# with --check, changes nothing and fails naming the files that differ (CI).
set -eu
cd "$(git rev-parse --show-toplevel)"
if ! command -v clang-format >/dev/null 2>&1; then
    echo "format: SKIP (clang-format not installed; apt-get install clang-format)"
    exit 0
fi
files=$(git ls-files '*.c' '*.h' '*.cu' '*.cuh' '*.cpp')
if [ "${1:-}" = --check ]; then
    bad=""
    for f in $files; do
        clang-format "$f" | cmp -s - "$f" || bad="$bad $f"
    done
    if [ -n "$bad" ]; then
        echo "format: these files differ from .clang-format (run tools/dev/format.sh):$bad" >&2
        exit 1
    fi
    echo "format: $(echo $files | wc -w) files match .clang-format"
    exit 0
fi
echo $files | xargs clang-format -i
