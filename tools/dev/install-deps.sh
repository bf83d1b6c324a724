#!/bin/sh
# install-deps.sh -- makes sure the Debian packages the build and tests need are
# present: installs the missing ones when run as root, otherwise prints the one
# apt-get line to run.  Checks files, not dpkg, so a machine that carries the
# libraries elsewhere (CPATH / LIBRARY_PATH, see CPATH) passes too.
#
#   tools/dev/install-deps.sh [build|test]     (default: test)
set -u
what=${1:-test}

# package  file-or-header-it-provides
build_deps="libstb-dev:stb/stb_image_write.h zlib1g-dev:zlib.h libfftw3-dev:fftw3.h g++:/usr/bin/g++"
test_deps="libcmocka-dev:cmocka.h libglfw3-dev:GLFW/glfw3.h libglew-dev:GL/glew.h xvfb:/usr/bin/Xvfb xauth:/usr/bin/xauth libgl1-mesa-dri:/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so libegl-dev:EGL/egl.h libegl-mesa0:/usr/share/glvnd/egl_vendor.d/50_mesa.json libvulkan-dev:vulkan/vulkan.h"
deps=$build_deps
[ "$what" = test ] && deps="$build_deps $test_deps"

have_header() {
    # the preprocessor knows the include path, CPATH included
    printf '#include <%s>\n' "$1" | ${CC:-cc} -E -x c - >/dev/null 2>&1
}

missing=""
for d in $deps; do
    pkg=${d%%:*}
    file=${d#*:}
    case $file in
    /*) [ -e "$file" ] || missing="$missing $pkg" ;;
    *) have_header "$file" || missing="$missing $pkg" ;;
    esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
        echo "install-deps: apt-get failed; run: apt-get install -y$missing" >&2
        exit 1
    }
    exit 0
fi
echo "install-deps: missing packages; run as root: apt-get install -y$missing" >&2
exit 1
