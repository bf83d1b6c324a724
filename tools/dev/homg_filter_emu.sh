#!/bin/sh
# homg_filter_emu.sh -- runs kernels/grid/homg_filter.cu's homg_filter_vec4_kernel on the
# host (no GPU: every thread of every block in turn; the kernel has no shared memory or
# barriers) with the launcher's grid, and compares each output bit for bit with
# homg_filter_point_f (the CPU twin's and the point kernel's formula) on shapes with
# nx % 4 == 0 at every spacing s = 1, 2, 4, ... up to 2 max(nx, ny), rows a thread 4, 5, 8, 11, both
# loop forms (next row only, two rows in flight: HOMG_HOMG_FVEC_PREFETCH), and the gather
# fused (compact, from session 14: each entry of level log2(2s) against the point formula at
# homg_marked_coord, the grid zeroed every other form).  Catches
# index, edge-weight and chain mistakes before a device call (not the GPU's rounding:
# double add/mul/div are IEEE on both).  Usage: sh tools/dev/homg_filter_emu.sh [CXXFLAGS]
set -eu
cd "$(git rev-parse --show-toplevel)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sed -n '/^#define FV_BX/,/^\/\* Launches homg_filter_vec4_kernel/p' kernels/grid/homg_filter.cu | sed '$d' > "$T/kern.inc"
sed -n '/^\/\* Launches homg_filter_vec4_kernel/,$p' kernels/grid/homg_filter.cu |
    sed -e 's/extern "C" void homg_cuda_filter_vec4_launch(/static void launch(/' > "$T/launch.inc"
cat > "$T/emu.cpp" <<'CPP'
// tools/dev/homg_filter_emu.sh: homg_filter_vec4_kernel on the host (see there)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" {
#include "grid/grid_kernels.h"
#include "grid/grid_point.h"
}
#define PER_TYPE_TMPL "grid/homg_point_tmpl.h"
#include "core/per_type.h"
struct float4 { float x, y, z, w; };
struct float2 { float x, y; };
static float2 make_float2(float a, float b) { return { a, b }; }
static float4 make_float4(float a, float b, float c, float d) { return { a, b, c, d }; }
template <class T> static T __ldg(const T *p) { return *p; }
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
static dim3 threadIdx, blockIdx;
typedef int cudaStream_t;
#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(a, b)
#define __restrict__
static void homg_pdl_wait() {}
/* kernels/core/pdl.cuh's launch: every thread of every block in turn */
template <typename... K, typename... A>
static void homg_pdl_launch(cudaStream_t, dim3 blocks, dim3 threads, int, void (*kernel)(K...), A... args)
{
    for (blockIdx.y = 0; blockIdx.y < blocks.y; blockIdx.y++)
        for (blockIdx.x = 0; blockIdx.x < blocks.x; blockIdx.x++)
            for (threadIdx.y = 0; threadIdx.y < threads.y; threadIdx.y++)
                for (threadIdx.x = 0; threadIdx.x < threads.x; threadIdx.x++)
                    kernel(args...);
}
#include "kern.inc"
#include "launch.inc"
int main()
{
    const int shapes[][2] = { { 128, 64 }, { 500, 33 }, { 64, 1030 }, { 4, 4 }, { 8, 3 }, { 1028, 40 },
                              { 12, 200 }, { 516, 517 }, { 1024, 1024 }, { 256, 2047 } };
    long bad = 0, checked = 0, edge = 0, gathered = 0;
    unsigned long long z = 12345;
    for (auto &sh : shapes) {
        const int nx = sh[0], ny = sh[1];
        const size_t n = (size_t)nx * ny;
        std::vector<float> src(n), dst(n);
        for (size_t k = 0; k < n; k++) {
            z = z * 6364136223846793005ull + 1442695040888963407ull;
            src[k] = (float)((double)(z >> 11) / 9007199254740992.0 * 200 - 100);
            if (k % 97 == 0)
                src[k] = -0.0f; /* signed zeros among the taps */
        }
        for (int s = 1; s <= 2 * nx || s <= 2 * ny; s *= 2)
            for (int v = 0; v < 16; v++) {
                static const int rows_of[4] = { 4, 8, 11, 5 }; /* the default's and two the fit takes */
                const int rows = rows_of[v & 3], pf = v >> 2 & 1; /* blocks: no effect on the host */
                const int fuse = v >> 3, zero = fuse && (v & 1), minside = nx < ny ? nx : ny;
                int m = 1;
                while ((1 << m) < 2 * s)
                    m++;
                if (fuse && (2 << m) > minside)
                    continue;
                const mfmg_level H = homg_mfmg_level(nx, ny, fuse ? m : 0, 0.8);
                std::vector<float> fm(fuse ? (size_t)H.cx * H.cy : 1, __builtin_nanf(""));
                std::fill(dst.begin(), dst.end(), __builtin_nanf(""));
                launch(0, rows, 3, pf, 1, nx, ny, s, src.data(), dst.data(), &H, fuse ? fm.data() : nullptr, zero);
                for (int b = 0; fuse && b < H.cy; b++)
                    for (int a = 0; a < H.cx; a++) {
                        const int x = homg_marked_coord(a, nx, H.l), y = homg_marked_coord(b, ny, H.l);
                        const float want = (float)homg_filter_point_f(nx, ny, s, src.data(), x, y);
                        const float got = fm[(size_t)b * H.cx + a];
                        gathered++;
                        if (memcmp(&want, &got, sizeof want) && bad++ < 10)
                            printf("%dx%d s=%d m=%d gather (%d,%d): %.9g vs %.9g\n", nx, ny, s, m, a, b, got, want);
                    }
                for (int j = 0; j < ny; j++)
                    for (int i = 0; i < nx; i++) {
                        const float want = zero ? 0.0f : (float)homg_filter_point_f(nx, ny, s, src.data(), i, j);
                        const float got = dst[(size_t)j * nx + i];
                        checked++;
                        edge += !(i >= s && i + s < nx && j >= s && j + s < ny);
                        if (memcmp(&want, &got, sizeof want)) {
                            if (bad++ < 10)
                                printf("%dx%d s=%d R=%d pf=%d (%d,%d): %.9g vs %.9g\n", nx, ny, s, rows, pf, i, j, got, want);
                        }
                    }
            }
    }
    printf("homg_filter_emu: %ld outputs (%ld at an edge), %ld gathered, %ld differ\n", checked, edge, gathered, bad);
    return bad != 0;
}
CPP
g++ -std=c++17 -O1 -Ikernels -Ilib -I"$T" ${1:-} "$T/emu.cpp" -o "$T/emu" -lm
"$T/emu"
